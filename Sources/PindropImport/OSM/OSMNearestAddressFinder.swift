import Foundation
import PindropCore

/// Finds the nearest address point within a radius, through a grid of cells one radius tall, so a
/// lookup reads a handful of cells instead of every point.
struct OSMNearestAddressFinder {
    private let points: [OSMAddressPoint]
    /// Each point's unit vector (x, y, z in a row): a point's chord to the query rules most out without trigonometry.
    private let unit: [Double]
    private let radiusMeters: Double
    private let cellDegrees: Double
    private var cells: [Int64: [Int]] = [:]

    init(_ points: [OSMAddressPoint], radiusMeters: Double) {
        self.points = points
        var unit: [Double] = []
        unit.reserveCapacity(3 * points.count)
        for p in points {
            let (x, y, z) = Geo.unitVector(latitude: p.coordinate.latitude, longitude: p.coordinate.longitude)
            unit.append(x); unit.append(y); unit.append(z)
        }
        self.unit = unit
        self.radiusMeters = max(radiusMeters, 1)
        // Metres per degree of latitude on the mean sphere.
        cellDegrees = self.radiusMeters / (Geo.earthRadiusMeters * .pi / 180)
        for (index, point) in points.enumerated() {
            cells[key(row: row(point.coordinate.latitude), column: column(point.coordinate.longitude)), default: []].append(index)
        }
    }

    /// The address of the nearest point within the radius, or nil.
    func address(near coordinate: Coordinate) -> Address? {
        guard !points.isEmpty else { return nil }
        let centerRow = row(coordinate.latitude), centerColumn = column(coordinate.longitude)
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
                for index in cells[key(row: r, column: c)] ?? [] {
                    let dx = unit[3 * index] - qx, dy = unit[3 * index + 1] - qy, dz = unit[3 * index + 2] - qz
                    let d2 = dx * dx + dy * dy + dz * dz
                    guard d2 <= bound2 else { continue }
                    let distance = coordinate.distance(to: points[index].coordinate)
                    if distance <= radiusMeters, distance < best?.distance ?? .infinity {
                        best = (distance, index)
                        bound2 = min(bound2, d2 * (1 + 1e-6) + 1e-18)
                    }
                }
            }
        }
        return best.map { points[$0.index].address }
    }

    private func row(_ latitude: Double) -> Int { Int((latitude / cellDegrees).rounded(.down)) }
    private func column(_ longitude: Double) -> Int { Int((longitude / cellDegrees).rounded(.down)) }
    private func key(row: Int, column: Int) -> Int64 { Int64(row) << 32 | Int64(UInt32(truncatingIfNeeded: column)) }
}
