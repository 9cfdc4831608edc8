import Foundation
import Hummingbird
import PindropCore

/// What the web map draws offline from the store itself:
/// - `/v1/streetmap?bbox=west,south,east,north[&zoom=Z][&limit=N]`: what the street map draws inside a small box as a
///   GeoJSON FeatureCollection (`StreetMapGeoJSON`): streets, buildings, water, waterways, parks, land use, railways,
///   and with a zoom from 16 the named venues; with a zoom, only what that zoom draws (`MapDetail`), simplified for it.
///   Without a street map it answers an empty collection.
/// - `/v1/labels?bbox=west,south,east,north&zoom=Z[&limit=N]`: the names of the places in a view, biggest first and
///   not overlapping at that zoom, for the map's place labels.
struct StreetMapController<Context: RequestContext>: Sendable {
    let places: PlaceService
    /// Where street maps are made (`HeavyRoutes`).
    let heavy: HeavyRoutes

    /// The widest box served, in degrees on each side (about 11 km × 5.5 km at Helsinki's latitude).
    static var maxSpan: Double { 0.1 }
    /// The widest box served with a zoom, whose detail bounds the answer: a 512-pixel tile at zoom 12 is 0.176°.
    static var maxZoomedSpan: Double { 0.2 }
    /// Features sent when the client does not say.
    static var defaultLimit: Int { 5000 }
    /// Most features one answer may hold.
    static var maxLimit: Int { 20000 }
    /// The deepest zoom asked about (Leaflet's deepest is 19; a few more are harmless).
    static var maxZoom: Int { 22 }
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
        StreetMapGeoJSON.writeBox(box, into: &w)
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
        let zoom = try query.string("zoom") == nil ? nil : query.integer("zoom", default: 0, in: 0...Self.maxZoom)
        // A box wider than maxSpan answers no features and says to zoom in (as a map shows no streets zoomed out).
        let zoomIn = !Self.isDrawable(box, span: zoom == nil ? Self.maxSpan : Self.maxZoomedSpan)
        let empty = zoomIn || box.north == box.south || box.east == box.west
        let writer = StreetMapGeoJSON(box: box, zoom: zoom)
        guard !empty else { return Responses.json(writer.collection([], limit: limit, attribution: [], zoomIn: zoomIn), format: .geojson) }
        return try await heavy.run { [places] in
            let (features, attribution) = try await places.streetMap(in: box, zoom: zoom, limit: limit)
            return Responses.json(writer.collection(features, limit: limit, attribution: attribution, zoomIn: false), format: .geojson)
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

    /// Whether the box is small enough to draw streets in (wider, and the map should zoom in first).
    static func isDrawable(_ box: BoundingBox, span: Double = maxSpan) -> Bool {
        box.north - box.south <= span + 1e-9 && box.east - box.west <= span + 1e-9
    }
}
