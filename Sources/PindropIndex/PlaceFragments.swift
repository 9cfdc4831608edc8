import PindropCore

/// The embedded index's batch reverse path: each place's result JSON up to (not including) its distance, made
/// once per place and worker, so the answer for a point is a copy plus three numbers. One cache per worker, so
/// no locks. Points with a street-level answer are left to the general path, as single reverse answers them.
final class PlaceFragments: BatchReversing, @unchecked Sendable {
    /// Per worker: each place's fragment, made on first use (indexed by slot, so no hashing per line).
    private final class WorkerCache {
        var fragments: [[UInt8]?]
        init(count: Int) { fragments = Array(repeating: nil, count: count) }
    }
    private let index: PlaceIndex
    private let caches: [WorkerCache]

    init(index: PlaceIndex, workers: Int) {
        self.index = index
        caches = (0..<max(workers, 1)).map { _ in WorkerCache(count: index.placeCount) }
    }

    func appendAnswer(latitude: Double, longitude: Double, worker: Int, to out: inout [UInt8]) -> Bool {
        guard index.streetLevelHit(at: Coordinate(latitude: latitude, longitude: longitude)) == nil,
              let hit = index.nearestPlace(latitude: latitude, longitude: longitude) else { return false }
        out += #"{"query":{"latitude":"#.utf8
        JSONWriter.appendNumber(latitude, to: &out)
        out += #","longitude":"#.utf8
        JSONWriter.appendNumber(longitude, to: &out)
        out += #"},"results":["#.utf8
        let cache = caches[worker]
        if cache.fragments[hit.slot] == nil {
            var place = index.place(atSlot: hit.slot)
            place.source = nil
            place.displayName = index.nearName(ofSlot: hit.slot)   // as `reverse` names its first answer
            var w = JSONWriter()
            WireEncoding.writeResult(PlaceResult(place: place), into: &w)
            cache.fragments[hit.slot] = Array(w.bytes.dropLast())
        }
        cache.fragments[hit.slot]!.withUnsafeBufferPointer { out.append(contentsOf: $0) }
        out += #","distanceMeters":"#.utf8
        JSONWriter.appendNumber((hit.meters * 10).rounded() / 10, to: &out)
        out += #","source":"embedded"}]}"#.utf8
        return true
    }
}
