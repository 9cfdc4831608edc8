import PindropCore

/// A place's shape in the four forms Nominatim's `polygon_*` parameters ask for, written as PostGIS writes them for
/// Nominatim (7 decimals, trailing zeros dropped): GeoJSON (`ST_AsGeoJSON`), WKT (`ST_AsText`), KML (`ST_AsKML`) and
/// SVG path data with latitude negated (`ST_AsSVG`).
enum GeometryText {
    /// A GeoJSON geometry object: `{"type":"Point","coordinates":[9.52,47.14]}`.
    static func geoJSON(_ geometry: PlaceGeometry) -> String {
        func point(_ c: Coordinate) -> String { "[\(number(c.longitude)),\(number(c.latitude))]" }
        func line(_ points: [Coordinate]) -> String { "[" + points.map(point).joined(separator: ",") + "]" }
        func polygon(_ rings: [[Coordinate]]) -> String { "[" + rings.map(line).joined(separator: ",") + "]" }
        let (type, coordinates) = switch geometry {
        case .point(let c): ("Point", point(c))
        case .lineString(let points): ("LineString", line(points))
        case .polygon(let rings): ("Polygon", polygon(rings))
        case .multiPolygon(let parts): ("MultiPolygon", "[" + parts.map(polygon).joined(separator: ",") + "]")
        }
        return "{\"type\":\"\(type)\",\"coordinates\":\(coordinates)}"
    }

    /// Well-known text: `POINT(9.52 47.14)`, `POLYGON((9.5 47.1,9.6 47.1,…))`.
    static func wkt(_ geometry: PlaceGeometry) -> String {
        func point(_ c: Coordinate) -> String { "\(number(c.longitude)) \(number(c.latitude))" }
        func line(_ points: [Coordinate]) -> String { "(" + points.map(point).joined(separator: ",") + ")" }
        func polygon(_ rings: [[Coordinate]]) -> String { "(" + rings.map(line).joined(separator: ",") + ")" }
        return switch geometry {
        case .point(let c): "POINT(\(point(c)))"
        case .lineString(let points): "LINESTRING" + line(points)
        case .polygon(let rings): "POLYGON" + polygon(rings)
        case .multiPolygon(let parts): "MULTIPOLYGON(" + parts.map(polygon).joined(separator: ",") + ")"
        }
    }

    /// KML: `<Point><coordinates>9.52,47.14</coordinates></Point>`; a multipolygon in a `<MultiGeometry>`.
    static func kml(_ geometry: PlaceGeometry) -> String {
        func coordinates(_ points: [Coordinate]) -> String {
            "<coordinates>" + points.map { "\(number($0.longitude)),\(number($0.latitude))" }.joined(separator: " ") + "</coordinates>"
        }
        func ring(_ points: [Coordinate]) -> String { "<LinearRing>" + coordinates(points) + "</LinearRing>" }
        func polygon(_ rings: [[Coordinate]]) -> String {
            guard let outer = rings.first else { return "<Polygon></Polygon>" }
            return "<Polygon><outerBoundaryIs>" + ring(outer) + "</outerBoundaryIs>"
                + rings.dropFirst().map { "<innerBoundaryIs>" + ring($0) + "</innerBoundaryIs>" }.joined() + "</Polygon>"
        }
        return switch geometry {
        case .point(let c): "<Point>" + coordinates([c]) + "</Point>"
        case .lineString(let points): "<LineString>" + coordinates(points) + "</LineString>"
        case .polygon(let rings): polygon(rings)
        case .multiPolygon(let parts): "<MultiGeometry>" + parts.map(polygon).joined() + "</MultiGeometry>"
        }
    }

    /// SVG: a point as `cx="9.52" cy="-47.14"`, a line as path data `M 9.5 -47.1 L 9.6 -47.2`, each ring of an area
    /// closed by `Z` without repeating its first point.
    static func svg(_ geometry: PlaceGeometry) -> String {
        func point(_ c: Coordinate) -> String { "\(number(c.longitude)) \(number(-c.latitude))" }
        func path(_ points: [Coordinate]) -> String {
            guard let first = points.first else { return "" }
            let rest = points.dropFirst()
            return "M \(point(first))" + (rest.isEmpty ? "" : " L " + rest.map(point).joined(separator: " "))
        }
        func ring(_ points: [Coordinate]) -> String {
            let open = points.count > 1 && points.first == points.last ? Array(points.dropLast()) : points
            return path(open) + " Z"
        }
        return switch geometry {
        case .point(let c): "cx=\"\(number(c.longitude))\" cy=\"\(number(-c.latitude))\""
        case .lineString(let points): path(points)
        case .polygon(let rings): rings.map(ring).joined(separator: " ")
        case .multiPolygon(let parts): parts.flatMap { $0.map(ring) }.joined(separator: " ")
        }
    }

    /// A coordinate to 7 decimals without trailing zeros ("9.5304765", "47.1", "-0.5", "0").
    static func number(_ value: Double) -> String {
        var text = NominatimWire.degrees(value)
        while text.last == "0" { text.removeLast() }
        if text.last == "." { text.removeLast() }
        return text == "-0" ? "0" : text
    }
}
