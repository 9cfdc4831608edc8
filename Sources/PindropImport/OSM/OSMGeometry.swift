import Foundation
import PindropCore

/// Plane geometry on small OSM polygons, in degrees (fine at building and block scale).
enum OSMGeometry {
    /// The area-weighted centroid of one or more rings (outer rings of a multipolygon), or the mean of
    /// their vertices when they enclose no area (degenerate or collinear rings).
    static func centroid(of rings: [[Coordinate]]) -> Coordinate? {
        var weightedLat = 0.0, weightedLon = 0.0, totalArea = 0.0
        for ring in rings {
            guard let (area, center) = areaAndCentroid(of: ring) else { continue }
            weightedLat += center.latitude * area
            weightedLon += center.longitude * area
            totalArea += area
        }
        // About 1e-4 m² at these latitudes: below that the ring is a line or a point.
        if totalArea > 1e-14 {
            return Coordinate(latitude: weightedLat / totalArea, longitude: weightedLon / totalArea)
        }
        return meanOfVertices(rings)
    }

    /// The unsigned area (square degrees) and centroid of a ring given with or without its closing point.
    private static func areaAndCentroid(of ring: [Coordinate]) -> (Double, Coordinate)? {
        guard ring.count >= 3, let origin = ring.first else { return nil }
        // Relative to the first vertex, so the products keep their precision.
        var twiceArea = 0.0, sumX = 0.0, sumY = 0.0
        for i in ring.indices {
            let a = ring[i], b = ring[(i + 1) % ring.count]
            let x0 = a.longitude - origin.longitude, y0 = a.latitude - origin.latitude
            let x1 = b.longitude - origin.longitude, y1 = b.latitude - origin.latitude
            let cross = x0 * y1 - x1 * y0
            twiceArea += cross
            sumX += (x0 + x1) * cross
            sumY += (y0 + y1) * cross
        }
        let area = twiceArea / 2
        guard abs(area) > 1e-14 else { return nil }
        let center = Coordinate(latitude: origin.latitude + sumY / (6 * area),
                                longitude: origin.longitude + sumX / (6 * area))
        return (abs(area), center)
    }

    /// The mean of the distinct vertices (a closed ring's repeated last point counted once).
    static func meanOfVertices(_ rings: [[Coordinate]]) -> Coordinate? {
        var lat = 0.0, lon = 0.0, count = 0.0
        for ring in rings {
            let points = ring.count > 1 && ring.first == ring.last ? ring.dropLast() : ring[...]
            for point in points {
                lat += point.latitude; lon += point.longitude; count += 1
            }
        }
        return count > 0 ? Coordinate(latitude: lat / count, longitude: lon / count) : nil
    }

    /// Whether the point is inside the rings: an odd number of them surround it (holes and exclaves need no flag).
    static func contains(_ rings: [[Coordinate]], _ c: Coordinate) -> Bool {
        var inside = false
        for ring in rings where ring.count >= 3 {
            var previous = ring[ring.count - 1]
            for point in ring {
                if (point.latitude > c.latitude) != (previous.latitude > c.latitude) {
                    let crossing = point.longitude + (c.latitude - point.latitude) / (previous.latitude - point.latitude)
                        * (previous.longitude - point.longitude)
                    if c.longitude < crossing { inside.toggle() }
                }
                previous = point
            }
        }
        return inside
    }

    /// The point halfway along a line, in plane degrees (Nominatim's centre of a line); nil for no points.
    static func midpoint(of line: [Coordinate]) -> Coordinate? {
        guard line.count > 1 else { return line.first }
        let half = length(of: line) / 2
        var walked = 0.0
        for (a, b) in zip(line, line.dropFirst()) {
            let step = hypot(b.latitude - a.latitude, b.longitude - a.longitude)
            if walked + step >= half, step > 0 {
                let t = (half - walked) / step
                return Coordinate(latitude: a.latitude + t * (b.latitude - a.latitude), longitude: a.longitude + t * (b.longitude - a.longitude))
            }
            walked += step
        }
        return line.last
    }

    /// A line's length in plane degrees.
    static func length(of line: [Coordinate]) -> Double {
        zip(line, line.dropFirst()).reduce(0) { $0 + hypot($1.1.latitude - $1.0.latitude, $1.1.longitude - $1.0.longitude) }
    }

    /// Joins way node lists into closed rings by their shared end nodes (multipolygon members are often
    /// split into several ways). Pieces that cannot be closed (clipped at the extract's edge) are dropped.
    static func assembleRings(_ pieces: [[Int64]]) -> [[Int64]] {
        joinRings(pieces).rings
    }

    /// The closed rings the pieces make, and how many pieces are left over, unclosed.
    static func joinRings(_ pieces: [[Int64]]) -> (rings: [[Int64]], unclosed: Int) {
        var rings: [[Int64]] = []
        var unclosed = 0
        var open: [[Int64]] = []
        for piece in pieces where piece.count >= 2 {
            if piece.first == piece.last { rings.append(piece) } else { open.append(piece) }
        }
        while var current = open.popLast() {
            var joined = true
            while joined, current.first != current.last {
                joined = false
                for (index, candidate) in open.enumerated() {
                    if candidate.first == current.last {
                        current += candidate.dropFirst()
                    } else if candidate.last == current.last {
                        current += candidate.reversed().dropFirst()
                    } else if candidate.last == current.first {
                        current = candidate + current.dropFirst()
                    } else if candidate.first == current.first {
                        current = candidate.reversed() + current.dropFirst()
                    } else {
                        continue
                    }
                    open.remove(at: index)
                    joined = true
                    break
                }
            }
            if current.first == current.last { rings.append(current) } else { unclosed += 1 }
        }
        return (rings, unclosed)
    }
}
