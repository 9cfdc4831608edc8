import PindropCore

/// Boxes listed by the grid cells they touch, so a point or a small view meets only the boxes near it instead
/// of every box (street-level shapes: the building a point is in, the features in a map view). Built when the
/// shapes are, in memory; nothing of it is stored.
struct BoxGrid: Sendable {
    /// Cell side, degrees. The default (~550 m north-south) suits street-level shapes: a building touches one to
    /// four cells, a street a few dozen.
    let cellDegrees: Double
    /// A box touching more cells than this is not listed per cell but checked by every query.
    static let maxCellsPerBox = 4096

    /// Box indices by cell, ascending within each cell.
    private var cells: [Int64: [Int32]] = [:]
    /// Boxes too large to list cell by cell, ascending.
    private var large: [Int32] = []
    private let boxCount: Int

    /// A grid over those of `boxes` that `include` keeps.
    init(boxes: [BoundingBox], cellDegrees: Double = 0.005, including include: (Int) -> Bool = { _ in true }) {
        boxCount = boxes.count
        self.cellDegrees = cellDegrees
        for (i, b) in boxes.enumerated() where include(i) {
            let (r0, c0) = cell(b.south, b.west), (r1, c1) = cell(b.north, b.east)
            guard r0 <= r1, c0 <= c1, (r1 - r0 + 1) * (c1 - c0 + 1) <= Self.maxCellsPerBox else { large.append(Int32(i)); continue }
            for r in r0...r1 { for c in c0...c1 { cells[Self.key(r, c), default: []].append(Int32(i)) } }
        }
    }

    func cell(_ latitude: Double, _ longitude: Double) -> (Int, Int) {
        // Clamped, so a NaN or absurd coordinate lands in some cell instead of trapping.
        func index(_ v: Double) -> Int { v.isFinite ? Int(max(-1e8, min(1e8, (v / cellDegrees).rounded(.down)))) : 0 }
        return (index(latitude), index(longitude))
    }

    static func key(_ row: Int, _ column: Int) -> Int64 { Int64(row) << 32 | Int64(UInt32(truncatingIfNeeded: column)) }

    /// The boxes that may hold `c`, ascending (each still to be tested).
    func candidates(at c: Coordinate) -> [Int32] {
        let (r, col) = cell(c.latitude, c.longitude)
        let listed = cells[Self.key(r, col)] ?? []
        return large.isEmpty ? listed : (listed + large).sorted()
    }

    /// The boxes that may overlap `box`, ascending; nil when the box spans so many cells (or the antimeridian)
    /// that testing every box is cheaper.
    func candidates(overlapping box: BoundingBox) -> [Int32]? {
        let (r0, c0) = cell(box.south, box.west), (r1, c1) = cell(box.north, box.east)
        guard r0 <= r1, c0 <= c1, (r1 - r0 + 1) * (c1 - c0 + 1) <= boxCount else { return nil }
        var found = large
        for r in r0...r1 { for c in c0...c1 { found += cells[Self.key(r, c)] ?? [] } }
        found.sort()
        var unique: [Int32] = []
        unique.reserveCapacity(found.count)
        for i in found where unique.last != i { unique.append(i) }
        return unique
    }
}
