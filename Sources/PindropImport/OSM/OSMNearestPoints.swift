import Foundation
import PindropCore

/// Finds the nearest of some points within a radius, through a grid of cells one radius tall, so a lookup reads a
/// handful of cells instead of every point. It keeps the points alone (what stands at each is its caller's, by the
/// point's number): millions of points along a country's streets take 40 bytes each.
struct OSMNearestPoints {
    private let points: [Coordinate]
    /// Each point's unit vector (x, y, z in a row): a point's chord to the query rules most out without trigonometry.
    private let unit: [Double]
    private let radiusMeters: Double
    private let cellDegrees: Double
    /// The points of each cell, in number order: `cellOrder[cells[key]]`.
    private let cells: [Int64: Range<Int32>]
    private let cellOrder: [Int32]

    init(_ points: [Coordinate], radiusMeters: Double) {
        self.points = points
        var unit: [Double] = []
        unit.reserveCapacity(3 * points.count)
        for p in points {
            let (x, y, z) = Geo.unitVector(latitude: p.latitude, longitude: p.longitude)
            unit.append(x); unit.append(y); unit.append(z)
        }
        self.unit = unit
        let radiusMeters = max(radiusMeters, 1)
        self.radiusMeters = radiusMeters
        // Metres per degree of latitude on the mean sphere.
        let cellDegrees = radiusMeters / (Geo.earthRadiusMeters * .pi / 180)
        self.cellDegrees = cellDegrees
        // The points sorted by cell (a stable sort: each cell keeps its points in number order), a range a cell.
        let keys = points.map { Self.key(row: Self.row($0.latitude, cellDegrees), column: Self.column($0.longitude, cellDegrees)) }
        let order = keys.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }.map { Int32($0) }
        var cells: [Int64: Range<Int32>] = [:]
        var start = 0
        while start < order.count {
            let key = keys[Int(order[start])]
            var end = start + 1
            while end < order.count, keys[Int(order[end])] == key { end += 1 }
            cells[key] = Int32(start)..<Int32(end)
            start = end
        }
        self.cells = cells; cellOrder = order
    }

    /// The number of the nearest point within the radius, or nil.
    func nearest(to coordinate: Coordinate) -> Int? {
        guard !points.isEmpty else { return nil }
        let centerRow = Self.row(coordinate.latitude, cellDegrees), centerColumn = Self.column(coordinate.longitude, cellDegrees)
        // A cell is one radius tall but only radius·cos(latitude) wide in metres: look further east and west.
        let cosine = max(cos(min(abs(coordinate.latitude) + cellDegrees, 90) * .pi / 180), 0.01)
        let columnReach = Int((1 / cosine).rounded(.up))
        var best: (distance: Double, index: Int)?
        let (qx, qy, qz) = Geo.unitVector(latitude: coordinate.latitude, longitude: coordinate.longitude)
        // A little over the radius's chord, so that rounding never rules out a point the exact distance keeps.
        let reach = Geo.unitChord(forMeters: radiusMeters) * (1 + 1e-6)
        // Past the radius, or past the best so far by more than rounding: the exact distance would lose.
        var bound2 = reach * reach
        for r in (centerRow - 1)...(centerRow + 1) {
            for c in (centerColumn - columnReach)...(centerColumn + columnReach) {
                guard let cell = cells[Self.key(row: r, column: c)] else { continue }
                for slot in cell {
                    let index = Int(cellOrder[Int(slot)])
                    let dx = unit[3 * index] - qx, dy = unit[3 * index + 1] - qy, dz = unit[3 * index + 2] - qz
                    let d2 = dx * dx + dy * dy + dz * dz
                    guard d2 <= bound2 else { continue }
                    let distance = coordinate.distance(to: points[index])
                    if distance <= radiusMeters, distance < best?.distance ?? .infinity {
                        best = (distance, index)
                        bound2 = min(bound2, d2 * (1 + 1e-6) + 1e-18)
                    }
                }
            }
        }
        return best?.index
    }

    private static func row(_ latitude: Double, _ cellDegrees: Double) -> Int { Int((latitude / cellDegrees).rounded(.down)) }
    private static func column(_ longitude: Double, _ cellDegrees: Double) -> Int { Int((longitude / cellDegrees).rounded(.down)) }
    private static func key(row: Int, column: Int) -> Int64 { Int64(row) << 32 | Int64(UInt32(truncatingIfNeeded: column)) }
}
