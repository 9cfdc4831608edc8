import Foundation
import Hummingbird
import PindropCore

/// What the web map draws offline from the store itself:
/// - `/v1/streetmap?bbox=west,south,east,north[&limit=N]`: the streets and buildings inside a small box as a GeoJSON
///   FeatureCollection, for the street basemap. Without a street map it answers an empty collection.
/// - `/v1/labels?bbox=west,south,east,north&zoom=Z[&limit=N]`: the names of the places in a view, biggest first and
///   not overlapping at that zoom, for the map's place labels.
struct StreetMapController<Context: RequestContext>: Sendable {
    let places: PlaceService
    /// Where street maps are made (`HeavyRoutes`).
    let heavy: HeavyRoutes

    /// The widest box served, in degrees on each side (about 11 km × 5.5 km at Helsinki's latitude).
    static var maxSpan: Double { 0.1 }
    /// Features sent when the client does not say.
    static var defaultLimit: Int { 5000 }
    /// Most features one answer may hold.
    static var maxLimit: Int { 20000 }
    /// Labels sent when the client does not say, and the most one answer may hold (a full-screen view holds ~150).
    static var defaultLabelLimit: Int { 200 }
    static var maxLabelLimit: Int { 1000 }

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("streetmap", use: streetMapFeatures)
        group.get("labels", use: labels)
    }

    @Sendable func labels(_ request: Request, context: Context) async throws -> Response {
        let query = try QueryParameters(request)
        let box = try Self.boundingBox(try query.requiredString("bbox"))
        _ = try query.requiredString("zoom")
        let zoom = try query.integer("zoom", default: 0, in: 0...22)
        let limit = try query.integer("limit", default: Self.defaultLabelLimit, in: 1...Self.maxLabelLimit)
        let labels = try await places.mapLabels(in: box, zoom: zoom, limit: limit)
        var w = JSONWriter(capacity: 256 + labels.count * 120)
        w.beginObject()
        w.key("query")
        w.beginObject()
        Self.writeBox(box, into: &w)
        w.key("zoom"); w.number(zoom)
        w.key("limit"); w.number(limit)
        w.endObject()
        // The names are GeoNames places: the street data's credit goes with the streets, not with them.
        let credits = (places.store?.attribution ?? []).filter { !(places.store?.streetAttribution ?? []).contains($0) }
        w.key("attribution"); w.strings(credits)
        w.key("labels")
        w.beginArray()
        for label in labels {
            w.beginObject()
            w.key("id"); w.string(label.id)
            w.key("name"); w.string(label.name)
            w.key("latitude"); w.degrees(label.coordinate.latitude)
            w.key("longitude"); w.degrees(label.coordinate.longitude)
            w.key("population"); w.number(label.population)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return Responses.json(w)
    }

    @Sendable func streetMapFeatures(_ request: Request, context: Context) async throws -> Response {
        let query = try QueryParameters(request)
        let box = try Self.boundingBox(try query.requiredString("bbox"))
        let limit = try query.integer("limit", default: Self.defaultLimit, in: 1...Self.maxLimit)
        // A box wider than maxSpan answers no features and says to zoom in (as a map shows no streets zoomed out).
        let zoomIn = !Self.isDrawable(box)
        let empty = zoomIn || box.north == box.south || box.east == box.west
        guard !empty else { return Responses.json(Self.featureCollection([], box: box, limit: limit, attribution: [], zoomIn: zoomIn), format: .geojson) }
        return try await heavy.run { [places] in
            let (features, attribution) = try await places.streetMap(in: box, limit: limit)
            return Responses.json(Self.featureCollection(features, box: box, limit: limit, attribution: attribution, zoomIn: false), format: .geojson)
        }
    }

    /// Parses "west,south,east,north": four numbers on the globe, the corners in either order (as Nominatim's
    /// viewbox takes them). A box with no area is valid and holds nothing.
    static func boundingBox(_ text: String) throws -> BoundingBox {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { DecimalNumber.parse($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, numbers.count == 4 else {
            throw PindropError.invalidInput("\"bbox\" must be four numbers west,south,east,north, got \"\(text.prefix(80))\"")
        }
        let (west, south, east, north) = (numbers[0], numbers[1], numbers[2], numbers[3])
        guard (-180...180).contains(west), (-180...180).contains(east) else {
            throw PindropError.invalidInput("\"bbox\" longitudes must be between -180 and 180")
        }
        guard (-90...90).contains(south), (-90...90).contains(north) else {
            throw PindropError.invalidInput("\"bbox\" latitudes must be between -90 and 90")
        }
        return BoundingBox(south: min(south, north), west: min(west, east), north: max(south, north), east: max(west, east))
    }

    /// Echoes the box as understood: `"bbox": [west, south, east, north]` (every map answer's `query` has it).
    static func writeBox(_ box: BoundingBox, into w: inout JSONWriter) {
        w.key("bbox")
        w.beginArray()
        for value in [box.west, box.south, box.east, box.north] { w.number(value) }
        w.endArray()
    }

    /// Whether the box is small enough to draw streets in (wider, and the map should zoom in first).
    static func isDrawable(_ box: BoundingBox) -> Bool {
        box.north - box.south <= maxSpan + 1e-9 && box.east - box.west <= maxSpan + 1e-9
    }

    /// The RFC 7946 collection: streets as LineString (MultiLineString when in pieces), buildings as Polygon
    /// (MultiPolygon when they have several outer rings), `[longitude, latitude]` rounded to 1e-6°.
    /// Features too short to draw are left out.
    static func featureCollection(_ features: [MapFeature], box: BoundingBox, limit: Int, attribution: [String],
                                  zoomIn: Bool = false) -> JSONWriter {
        var w = JSONWriter(capacity: 256 + features.count * 200)
        w.beginObject()
        w.key("type"); w.string("FeatureCollection")
        w.key("query")
        w.beginObject()
        writeBox(box, into: &w)
        w.key("limit"); w.number(limit)
        w.endObject()
        w.key("attribution"); w.strings(attribution)
        w.key("truncated"); w.bool(features.count >= limit)
        w.key("zoomIn"); w.bool(zoomIn)
        w.key("features")
        w.beginArray()
        for feature in features { write(feature, into: &w) }
        w.endArray()
        w.endObject()
        return w
    }

    private static func write(_ feature: MapFeature, into w: inout JSONWriter) {
        let parts: [[Coordinate]] = switch feature.kind {
        case .street: feature.lines.filter { $0.count >= 2 }
        case .building: feature.lines.filter { $0.count >= 3 }.map { ring in ring.first == ring.last ? ring : ring + [ring[0]] }
        }
        guard !parts.isEmpty else { return }
        w.beginObject()
        w.key("type"); w.string("Feature")
        w.key("id"); w.string(feature.id)
        w.key("geometry")
        w.beginObject()
        switch (feature.kind, parts.count) {
        case (.street, 1):
            w.key("type"); w.string("LineString")
            w.key("coordinates"); writeLine(parts[0], into: &w)
        case (.street, _):
            w.key("type"); w.string("MultiLineString")
            w.key("coordinates"); w.beginArray(); for line in parts { writeLine(line, into: &w) }; w.endArray()
        case (.building, 1):
            w.key("type"); w.string("Polygon")
            w.key("coordinates"); w.beginArray(); writeLine(parts[0], into: &w); w.endArray()
        case (.building, _):
            w.key("type"); w.string("MultiPolygon")
            w.key("coordinates")
            w.beginArray()
            for ring in parts { w.beginArray(); writeLine(ring, into: &w); w.endArray() }
            w.endArray()
        }
        w.endObject()
        w.key("properties")
        w.beginObject()
        w.key("kind"); w.string(feature.kind.rawValue)
        w.key("id"); w.string(feature.id)
        w.field("name", feature.name)
        w.field("category", feature.category)
        w.endObject()
        w.endObject()
    }

    private static func writeLine(_ line: [Coordinate], into w: inout JSONWriter) {
        w.beginArray()
        for point in line {
            w.beginArray()
            w.number((point.longitude * 1e6).rounded() / 1e6)
            w.number((point.latitude * 1e6).rounded() / 1e6)
            w.endArray()
        }
        w.endArray()
    }
}
