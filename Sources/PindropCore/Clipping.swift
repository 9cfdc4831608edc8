import Foundation

/// Cutting rings and lines to a latitude/longitude rectangle (plain degrees, as a map in Web Mercator shows them
/// between straight meridians and parallels).
public enum Clipping {
    /// Sutherland–Hodgman against the four edges of `box`: the part of the ring inside it, closed (last point =
    /// first), or empty. A concave ring cut in two keeps both parts joined along the box's edge, which fills nothing.
    public static func clip(ring: [Coordinate], to box: BoundingBox) -> [Coordinate] {
        var points = ring.first == ring.last ? Array(ring.dropLast()) : ring
        let edges: [(inside: (Coordinate) -> Bool, cross: (Coordinate, Coordinate) -> Coordinate)] = [
            ({ $0.longitude >= box.west }, { at(longitude: box.west, $0, $1) }),
            ({ $0.longitude <= box.east }, { at(longitude: box.east, $0, $1) }),
            ({ $0.latitude >= box.south }, { at(latitude: box.south, $0, $1) }),
            ({ $0.latitude <= box.north }, { at(latitude: box.north, $0, $1) }),
        ]
        for edge in edges {
            guard let last = points.last else { break }
            // A ring wholly on the inside of this edge passes unchanged.
            if points.allSatisfy(edge.inside) { continue }
            var output: [Coordinate] = []
            output.reserveCapacity(points.count)
            var previous = last
            for point in points {
                let (now, before) = (edge.inside(point), edge.inside(previous))
                if now {
                    if !before { output.append(edge.cross(previous, point)) }
                    output.append(point)
                } else if before {
                    output.append(edge.cross(previous, point))
                }
                previous = point
            }
            points = output
        }
        guard points.count >= 3, let first = points.first else { return [] }
        return points + [first]
    }

    /// The runs of a line whose segments touch `box`, each with at least two points (the points just outside the
    /// box that start or end a run are kept, so the line reaches the box's edge).
    public static func clip(line: [Coordinate], to box: BoundingBox) -> [[Coordinate]] {
        var runs: [[Coordinate]] = [], run: [Coordinate] = []
        for (a, b) in zip(line, line.dropFirst()) {
            let touches = min(a.latitude, b.latitude) <= box.north && max(a.latitude, b.latitude) >= box.south
                && min(a.longitude, b.longitude) <= box.east && max(a.longitude, b.longitude) >= box.west
            if touches {
                if run.isEmpty { run.append(a) }
                run.append(b)
            } else if !run.isEmpty {
                runs.append(run)
                run = []
            }
        }
        if !run.isEmpty { runs.append(run) }
        return runs
    }

    /// Whether a closed ring holds the point (even-odd rule, in plain degrees).
    public static func ring(_ ring: [Coordinate], contains point: Coordinate) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst()) where (a.latitude > point.latitude) != (b.latitude > point.latitude) {
            let x = a.longitude + (point.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
            if point.longitude < x { inside.toggle() }
        }
        return inside
    }

    private static func at(longitude: Double, _ a: Coordinate, _ b: Coordinate) -> Coordinate {
        let t = (longitude - a.longitude) / (b.longitude - a.longitude)
        return Coordinate(latitude: a.latitude + t * (b.latitude - a.latitude), longitude: longitude)
    }

    private static func at(latitude: Double, _ a: Coordinate, _ b: Coordinate) -> Coordinate {
        let t = (latitude - a.latitude) / (b.latitude - a.latitude)
        return Coordinate(latitude: latitude, longitude: a.longitude + t * (b.longitude - a.longitude))
    }
}
