/// The shape of a place, as Nominatim's `polygon_geojson`, `polygon_kml`, `polygon_svg` and `polygon_text` give it: a
/// point for a node, a line for a street or a stream, rings for an area.
public enum PlaceGeometry: Sendable, Hashable {
    case point(Coordinate)
    case lineString([Coordinate])
    /// One area: its outer ring, then its holes; each ring closed (its last point is its first).
    case polygon([[Coordinate]])
    /// An area in parts (a multipolygon relation): each part as `polygon`.
    case multiPolygon([[[Coordinate]]])

    /// The shape a place has when its store keeps no outline of it: the rectangle of its extent where it has one (a
    /// town or a district by its boundary's box), its point for everything else (as Nominatim gives a node) and for a
    /// street, whose box is no area.
    public static func fallback(for place: Place) -> PlaceGeometry {
        guard place.kind != .street, let box = place.boundingBox, box.north > box.south, box.east > box.west else {
            return .point(place.coordinate)
        }
        let corners = [(box.west, box.south), (box.east, box.south), (box.east, box.north), (box.west, box.north), (box.west, box.south)]
        return .polygon([corners.map { Coordinate(latitude: $0.1, longitude: $0.0) }])
    }

    /// The shape with the points that stray less than `tolerance` degrees from a straight line dropped
    /// (Douglas–Peucker, as Nominatim's `polygon_threshold` asks PostGIS for it). A line keeps its two ends and a ring
    /// at least four points, so no part vanishes; a tolerance of 0 or less keeps every point.
    public func simplified(tolerance: Double) -> PlaceGeometry {
        guard tolerance > 0, tolerance.isFinite else { return self }
        func ring(_ points: [Coordinate]) -> [Coordinate] { Self.simplify(points, tolerance: tolerance, keeping: 4) }
        return switch self {
        case .point: self
        case .lineString(let points): .lineString(Self.simplify(points, tolerance: tolerance, keeping: 2))
        case .polygon(let rings): .polygon(rings.map(ring))
        case .multiPolygon(let parts): .multiPolygon(parts.map { $0.map(ring) })
        }
    }

    /// Douglas–Peucker on a line or a closed ring, keeping at least `keeping` points (the farthest ones) where the
    /// input has them. Each piece between kept points is split at its farthest point while that point strays more
    /// than the tolerance, or while too few points are kept, farthest first.
    static func simplify(_ points: [Coordinate], tolerance: Double, keeping: Int) -> [Coordinate] {
        guard points.count > keeping else { return points }
        var kept = [Bool](repeating: false, count: points.count)
        kept[0] = true
        kept[points.count - 1] = true
        var count = 2
        /// Each piece still holding points between its ends, with its farthest point.
        var pieces: [(first: Int, last: Int, farthest: Int, distance: Double)] = []
        func add(_ first: Int, _ last: Int) {
            guard last > first + 1 else { return }
            var farthest = first + 1, distance = -1.0
            for i in (first + 1)..<last {
                let d = offset(of: points[i], from: points[first], to: points[last])
                if d > distance { (farthest, distance) = (i, d) }
            }
            pieces.append((first, last, farthest, distance))
        }
        add(0, points.count - 1)
        while let best = pieces.indices.max(by: { pieces[$0].distance < pieces[$1].distance }),
              pieces[best].distance > tolerance || count < keeping {
            let piece = pieces.remove(at: best)
            kept[piece.farthest] = true
            count += 1
            add(piece.first, piece.farthest)
            add(piece.farthest, piece.last)
        }
        return points.indices.filter { kept[$0] }.map { points[$0] }
    }

    /// How far `p` lies from the segment `a`–`b`, in degrees on the plane of longitude and latitude (as PostGIS
    /// measures it for a geometry in degrees).
    static func offset(of p: Coordinate, from a: Coordinate, to b: Coordinate) -> Double {
        let (ax, ay, bx, by, px, py) = (a.longitude, a.latitude, b.longitude, b.latitude, p.longitude, p.latitude)
        let dx = bx - ax, dy = by - ay, length = dx * dx + dy * dy
        guard length > 0 else { return ((px - ax) * (px - ax) + (py - ay) * (py - ay)).squareRoot() }
        let t = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / length))
        let (cx, cy) = (ax + t * dx, ay + t * dy)
        return ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
    }
}
