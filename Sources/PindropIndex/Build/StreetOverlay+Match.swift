import Foundation
import PindropCore

/// What laying an update matches new street-level rows and map features with stored ones by (`StreetOverlay.lay`):
/// a hash of what answers read of each, and a comparison in place, with no copy of a row or feature made.
extension StreetOverlay {
    /// New things matched with stored ones as multisets: each stored one is kept by a new one equal to it.
    struct Match {
        /// Of each new one, the stored one it keeps.
        var keptAs: [Int?]
        /// The new ones without an equal stored one, and the stored ones without an equal new one.
        var laid: Set<Int>, masked: Set<Int>

        /// The new ones by their keys (`newKeys[n]`) and the stored ones, each with its key; of the stored ones of a
        /// key, a new one keeps the last (in `stored` order) it is `equal` to (new, stored) that no earlier new one kept.
        init(newKeys: [Int], stored: some Sequence<(key: Int, id: Int)>, equal: (Int, Int) -> Bool) {
            // The stored ones as chains by key, newest first: `last[key]` starts one, `previous` goes on.
            var last: [Int: Int] = [:], ids: [Int] = [], previous: [Int] = []
            for (key, id) in stored {
                previous.append(last[key] ?? -1)
                last[key] = ids.count
                ids.append(id)
            }
            var kept = [Bool](repeating: false, count: ids.count)
            let keptAs: [Int?] = newKeys.indices.map { n in
                var at = last[newKeys[n]] ?? -1
                while at >= 0 {
                    if !kept[at], equal(n, ids[at]) {
                        kept[at] = true
                        return ids[at]
                    }
                    at = previous[at]
                }
                return nil
            }
            self.keptAs = keptAs
            laid = Set(keptAs.indices.lazy.filter { keptAs[$0] == nil })
            masked = Set(ids.indices.lazy.filter { !kept[$0] }.map { ids[$0] })
        }
    }

    /// What tells a map feature from nearly every other without making it: its kind, its number of points and its
    /// first point.
    struct FeatureKey: Hashable {
        var kind: MapFeature.Kind, points: Int, latitude: UInt64, longitude: UInt64

        init(_ feature: MapFeature) {
            let first = feature.lines.first?.first
            (kind, points) = (feature.kind, feature.lines.reduce(0) { $0 + $1.count })
            (latitude, longitude) = (first?.latitude.bitPattern ?? 0, first?.longitude.bitPattern ?? 0)
        }

        init(_ map: StreetMapShapes, _ f: Int) {
            let lines = Int(map.lineStart[f])..<Int(map.lineStart[f + 1])
            let from = Int(map.pointStart[lines.lowerBound]), to = Int(map.pointStart[lines.upperBound])
            (kind, points) = (map.kind(f), to - from)
            (latitude, longitude) = from < to ? (map.coordinates[2 * from].bitPattern, map.coordinates[2 * from + 1].bitPattern) : (0, 0)
        }
    }

    /// A point of a tree, as the bits of its unit vector.
    struct PointBits: Hashable, Comparable {
        var x, y, z: UInt64

        init(_ latitude: Double, _ longitude: Double) {
            let (x, y, z) = Geo.unitVector(latitude: latitude, longitude: longitude)
            (self.x, self.y, self.z) = (x.bitPattern, y.bitPattern, z.bitPattern)
        }

        init(_ node: SpatialNode) { (x, y, z) = (node.x.bitPattern, node.y.bitPattern, node.z.bitPattern) }

        static func < (a: PointBits, b: PointBits) -> Bool { (a.x, a.y, a.z) < (b.x, b.y, b.z) }
    }

    /// Street-level rows as answers read them: a place table's name, extras, coordinate, kind, country and first-level
    /// division of each, and its points (its address points, or those laid along its street) as the trees hold them.
    struct RowRecords {
        let table: PlaceTable
        /// The table's row of the first row here.
        let firstRow: Int
        /// Row r's points (r counted from `firstRow`) are `points[pointStart[r] ..< pointStart[r + 1]]`, sorted.
        let pointStart: [Int], points: [PointBits]

        /// The rows `firstRow ..< firstRow + rows` of `table`, with their points: (row of the table, point) pairs.
        init(_ table: PlaceTable, firstRow: Int, rows: Int, points rowPoints: [(row: Int, point: PointBits)]) {
            let (start, order) = groupedByKey(rowPoints.map { $0.row - firstRow }, keyCount: rows)
            var points = order.map { rowPoints[Int($0)].point }
            points.withUnsafeMutableBufferPointer { all in
                for r in 0..<rows {
                    var segment = UnsafeMutableBufferPointer(rebasing: all[Int(start[r])..<Int(start[r + 1])])
                    segment.sort()
                }
            }
            (self.table, self.firstRow, pointStart, self.points) = (table, firstRow, start.map { Int($0) }, points)
        }

        var count: Int { pointStart.count - 1 }

        /// Row r's hash (r counted from `firstRow`): rows equal by `==` hash alike.
        func hash(_ r: Int) -> Int {
            let i = firstRow + r, t = table
            var hasher = Hasher()
            func combine(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Column<UInt32>) {
                let range = Int(start[i])..<Int(start[i + 1])
                hasher.combine(range.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])))
            }
            combine(t.nameBytes.buffer, t.nameStart)
            combine(t.extraBytes.buffer, t.extraStart)
            hasher.combine(t.latitude[i].bitPattern); hasher.combine(t.longitude[i].bitPattern)
            hasher.combine(t.kind[i]); hasher.combine(t.country[i]); hasher.combine(t.admin1[i])
            for p in pointStart[r]..<pointStart[r + 1] { hasher.combine(points[p]) }
            return hasher.finalize()
        }

        /// Whether row r here and row s of `other` are one, as answers read them.
        func row(_ r: Int, equals s: Int, of other: RowRecords) -> Bool {
            let (a, b, i, j) = (table, other.table, firstRow + r, other.firstRow + s)
            guard a.latitude[i].bitPattern == b.latitude[j].bitPattern, a.longitude[i].bitPattern == b.longitude[j].bitPattern,
                  a.kind[i] == b.kind[j], a.country[i] == b.country[j], a.admin1[i] == b.admin1[j],
                  a.nameBytes.buffer[Int(a.nameStart[i])..<Int(a.nameStart[i + 1])]
                    .elementsEqual(b.nameBytes.buffer[Int(b.nameStart[j])..<Int(b.nameStart[j + 1])]),
                  a.extraBytes.buffer[Int(a.extraStart[i])..<Int(a.extraStart[i + 1])]
                    .elementsEqual(b.extraBytes.buffer[Int(b.extraStart[j])..<Int(b.extraStart[j + 1])]) else { return false }
            return points[pointStart[r]..<pointStart[r + 1]].elementsEqual(other.points[other.pointStart[s]..<other.pointStart[s + 1]])
        }
    }
}
