import PindropCore

/// Boxes listed by the grid cells they touch, so a point or a small view meets only the boxes near it instead
/// of every box (street-level shapes: the building a point is in, the features in a map view). Flat, so the street
/// map's is stored in the index and an open index maps it as it is: the touched cells' keys sorted, and each cell's
/// boxes after one another.
struct BoxGrid: Sendable {
    /// Cell side, degrees. The default (~550 m north-south) suits street-level shapes: a building touches one to
    /// four cells, a street a few dozen.
    let cellDegrees: Double
    /// A box touching more cells than this is not listed per cell but checked by every query.
    static let maxCellsPerBox = 4096
    /// The default cell side.
    static let streetCellDegrees = 0.005

    /// The keys (`key(_:_:)`) of the cells any box touches, ascending; cell `keys[k]`'s boxes are
    /// `cellBoxes[cellStart[k] ..< cellStart[k + 1]]`, ascending.
    let keys: Column<Int64>
    let cellStart: Column<Int32>
    let cellBoxes: Column<Int32>
    /// Boxes too large to list cell by cell, ascending.
    let large: Column<Int32>
    let boxCount: Int

    /// From stored columns; they must agree (`agrees`).
    init(cellDegrees: Double, keys: Column<Int64>, cellStart: Column<Int32>, cellBoxes: Column<Int32>, large: Column<Int32>, boxCount: Int) {
        self.cellDegrees = cellDegrees; self.keys = keys; self.cellStart = cellStart; self.cellBoxes = cellBoxes; self.large = large
        self.boxCount = boxCount
    }

    /// A grid over those of `boxes` that `include` keeps.
    init(boxes: [BoundingBox], cellDegrees: Double = Self.streetCellDegrees, including include: (Int) -> Bool = { _ in true }) {
        var pairs: [(key: Int64, box: Int32)] = [], large: [Int32] = []
        for (i, b) in boxes.enumerated() where include(i) {
            let (r0, c0) = Self.cell(b.south, b.west, cellDegrees), (r1, c1) = Self.cell(b.north, b.east, cellDegrees)
            guard r0 <= r1, c0 <= c1, (r1 - r0 + 1) * (c1 - c0 + 1) <= Self.maxCellsPerBox else { large.append(Int32(i)); continue }
            for r in r0...r1 { for c in c0...c1 { pairs.append((Self.key(r, c), Int32(i))) } }
        }
        // By cell, each cell's boxes ascending.
        pairs.sort { $0.key != $1.key ? $0.key < $1.key : $0.box < $1.box }
        var keys: [Int64] = [], start: [Int32] = [0]
        for (n, pair) in pairs.enumerated() where keys.last != pair.key {
            if n > 0 { start.append(Int32(n)) }
            keys.append(pair.key)
        }
        if !pairs.isEmpty { start.append(Int32(pairs.count)) }
        self.init(cellDegrees: cellDegrees, keys: Column(keys), cellStart: Column(start), cellBoxes: Column(pairs.map(\.box)),
                  large: Column(large), boxCount: boxes.count)
    }

    /// Whether the columns agree in length (nothing read per value).
    func agrees() -> Bool {
        cellStart.count == keys.count + 1 && cellStart.first == 0 && Int(cellStart.last!) == cellBoxes.count
    }

    /// Whether the keys ascend, each cell's range is in order and every box is one of `boxCount`: a pass over all.
    func valuesAreValid() -> Bool {
        zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 } && cellStart.isAscending
            && cellBoxes.allSatisfy { $0 >= 0 && Int($0) < boxCount } && large.allSatisfy { $0 >= 0 && Int($0) < boxCount }
    }

    func cell(_ latitude: Double, _ longitude: Double) -> (Int, Int) { Self.cell(latitude, longitude, cellDegrees) }

    private static func cell(_ latitude: Double, _ longitude: Double, _ cellDegrees: Double) -> (Int, Int) {
        // Clamped, so a NaN or absurd coordinate lands in some cell instead of trapping.
        func index(_ v: Double) -> Int { v.isFinite ? Int(max(-1e8, min(1e8, (v / cellDegrees).rounded(.down)))) : 0 }
        return (index(latitude), index(longitude))
    }

    static func key(_ row: Int, _ column: Int) -> Int64 { Int64(row) << 32 | Int64(UInt32(truncatingIfNeeded: column)) }

    /// The boxes listed in a cell, ascending (a binary search over the keys).
    private func listed(_ key: Int64) -> Slice<Column<Int32>> {
        let k = firstIndex(in: keys.indices) { keys[$0] >= key }
        guard k < keys.count, keys[k] == key else { return cellBoxes[0..<0] }
        return cellBoxes[Int(cellStart[k])..<Int(cellStart[k + 1])]
    }

    /// The boxes that may hold `c`, ascending (each still to be tested).
    func candidates(at c: Coordinate) -> [Int32] {
        let (r, col) = cell(c.latitude, c.longitude)
        let listed = listed(Self.key(r, col))
        return large.isEmpty ? Array(listed) : (Array(listed) + large).sorted()
    }

    /// The boxes that may overlap `box`, ascending; nil when the box spans so many cells (or the antimeridian)
    /// that testing every box is cheaper.
    func candidates(overlapping box: BoundingBox) -> [Int32]? {
        let (r0, c0) = cell(box.south, box.west), (r1, c1) = cell(box.north, box.east)
        guard r0 <= r1, c0 <= c1, (r1 - r0 + 1) * (c1 - c0 + 1) <= boxCount else { return nil }
        var found = Array(large)
        for r in r0...r1 { for c in c0...c1 { found += listed(Self.key(r, c)) } }
        found.sort()
        var unique: [Int32] = []
        unique.reserveCapacity(found.count)
        for i in found where unique.last != i { unique.append(i) }
        return unique
    }
}
