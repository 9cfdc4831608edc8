import PindropCore

/// Where every node of a file is, in 16 bytes a node: the ids, and the coordinates in units of 10⁻⁷ degrees
/// (OpenStreetMap's own precision, so exact for real data). Looked up by binary search: PBF files are sorted
/// by id, and an unsorted one is sorted once, before the first lookup.
struct OSMNodeLocations {
    private var ids: [Int64] = []
    private var latitudes: [Int32] = []
    private var longitudes: [Int32] = []
    private var isSorted = true
    /// Every `Self.stride`th id: a country's ids are tens of megabytes, and a search through them all missed the
    /// cache at nearly every step below the top; these few hundred kilobytes stay cached, and the search ends in
    /// one run of `stride` ids.
    private var sampled: [Int64] = []
    private static let stride = 64

    /// The number of nodes stored.
    var count: Int { ids.count }

    /// Stores a node's location.
    mutating func append(id: Int64, _ coordinate: Coordinate) {
        if let last = ids.last, id <= last { isSorted = false }
        ids.append(id)
        latitudes.append(Int32((coordinate.latitude * 1e7).rounded()))
        longitudes.append(Int32((coordinate.longitude * 1e7).rounded()))
    }

    /// Sorts by id when the nodes did not come in order; the first of repeated ids wins.
    mutating func prepareForLookups() {
        defer { sampled = Swift.stride(from: 0, to: ids.count, by: Self.stride).map { ids[$0] } }
        guard !isSorted else { return }
        let order = ids.indices.sorted { ids[$0] < ids[$1] || (ids[$0] == ids[$1] && $0 < $1) }
        var sortedIDs: [Int64] = [], sortedLatitudes: [Int32] = [], sortedLongitudes: [Int32] = []
        sortedIDs.reserveCapacity(ids.count)
        sortedLatitudes.reserveCapacity(ids.count)
        sortedLongitudes.reserveCapacity(ids.count)
        for index in order where sortedIDs.last != ids[index] {
            sortedIDs.append(ids[index])
            sortedLatitudes.append(latitudes[index])
            sortedLongitudes.append(longitudes[index])
        }
        (ids, latitudes, longitudes) = (sortedIDs, sortedLatitudes, sortedLongitudes)
        isSorted = true
    }

    /// The node's location, or nil when the file does not hold it (clipped at the extract's edge).
    /// Call `prepareForLookups()` after the last `append` first.
    func coordinate(of id: Int64) -> Coordinate? {
        // The last sample at or below the id, then that sample's run.
        var low = 0, high = sampled.count
        while low < high {
            let middle = (low + high) >> 1
            if sampled[middle] <= id { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        low = (low - 1) * Self.stride
        high = min(low + Self.stride, ids.count)
        while low < high {
            let middle = (low + high) >> 1
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        guard low < ids.count, ids[low] == id else { return nil }
        // Nanodegrees first, as the decoder computes them, so a coordinate comes back bit for bit.
        return Coordinate(latitude: Double(Int64(latitudes[low]) * 100) * 1e-9,
                          longitude: Double(Int64(longitudes[low]) * 100) * 1e-9)
    }

    /// The locations of the nodes that the file holds, in order.
    func coordinates(of nodeIDs: [Int64]) -> [Coordinate] {
        var points: [Coordinate] = []
        points.reserveCapacity(nodeIDs.count)
        for id in nodeIDs {
            if let point = coordinate(of: id) { points.append(point) }
        }
        return points
    }
}
