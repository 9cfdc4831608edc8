import Foundation
import Hummingbird
import PindropCore

/// Photon's API (`/api`, `/reverse`), answered by the same facade and provider chain as `/v1`: GeoJSON
/// FeatureCollections with Photon's properties. `/api` is Pindrop's suggest (prefix and typo tolerant, as a
/// search-as-you-type box calls it). Errors keep Photon's shape (`{"message": …}`).
struct PhotonController<Context: RequestContext>: Sendable {
    let places: PlaceService
    let metrics: ServerMetrics?

    /// Photon's default and largest `limit`.
    static var defaultLimit: Int { 15 }
    static var maxLimit: Int { 50 }
    /// Photon's default `radius` of `/reverse`, kilometres.
    static var defaultRadiusKm: Double { 1 }
    /// How many answers are asked of the engine when `osm_tag` or `layer` will filter them afterwards.
    static var filteredPool: Int { RequestLimits.maxResults }

    /// `/api`; `/reverse` is shared with Nominatim (`CompatAPI`).
    func addRoutes(to router: Router<Context>) {
        router.get("api", use: search)
    }

    @Sendable func search(_ request: Request, context: Context) async throws -> Response {
        await answering(request, allowed: PhotonWire.searchParameters) { query in
            guard let text = query.string("q")?.nonBlank else {
                throw PindropError.invalidInput("q parameter is required when no include categories are specified")
            }
            let limit = min(max(try query.compatInteger("limit") ?? Self.defaultLimit, 1), Self.maxLimit)
            let filter = try PhotonTagFilter(query)
            var within = AreaFilter.none
            within.box = try query.viewbox("bbox")
            within.countries = query.countryCodes("countrycode")
            let near: Coordinate? = switch (query.string("lat"), query.string("lon")) {
            case (nil, nil): nil
            case (_, nil): throw PindropError.invalidInput("Missing parameter 'lon'.")
            case (nil, _): throw PindropError.invalidInput("Missing parameter 'lat'.")
            default: try query.compatCoordinate()
            }
            let languages = query.languages("lang")
            let suggest = try SuggestRequest(text: text, near: near, limit: filter.isEmpty ? limit : max(limit, Self.filteredPool),
                                             minChars: 1, within: within, languages: languages)
            let answer = try await metrics.timed(.suggest) { try await places.suggest(suggest, provider: query.provider()) }
            // Nothing to narrow (most questions): the answer as it came, without copying it.
            guard !within.isEmpty || !filter.isEmpty else {
                return PhotonWire.featureCollection(answer.results.prefix(limit), languages: languages)
            }
            let found = answer.results.filter { within.admits($0.place) && (filter.isEmpty || filter.admits(OSMTerms($0.place))) }
            return PhotonWire.featureCollection(found.prefix(limit), languages: languages)
        }
    }

    @Sendable func reverse(_ request: Request, context: Context) async throws -> Response {
        await answering(request, allowed: PhotonWire.reverseParameters) { query in
            let coordinate = try query.compatCoordinate()
            let limit = min(max(try query.compatInteger("limit") ?? 1, 1), Self.maxLimit)
            let radiusKm = try query.number("radius") ?? Self.defaultRadiusKm
            guard radiusKm > 0 else { throw PindropError.invalidInput("Invalid value for 'radius' parameter: it must be above 0 km.") }
            let filter = try PhotonTagFilter(query)
            let languages = query.languages("lang")
            let reverse = try ReverseRequest(coordinate: coordinate, limit: filter.isEmpty ? limit : Self.filteredPool, languages: languages)
            let answer = try await metrics.timed(.reverse) { try await places.reverse(reverse, provider: query.provider()) }
            let found = answer.results.filter { result in
                (result.distanceMeters ?? 0) <= radiusKm * 1000 && (filter.isEmpty || filter.admits(OSMTerms(result.place)))
            }
            return PhotonWire.featureCollection(found.prefix(limit), languages: languages)
        }
    }

    /// Checks the parameters (Photon refuses one it does not know), runs the body, and turns any failure into
    /// Photon's error document.
    private func answering(_ request: Request, allowed: Set<String>, _ body: (QueryParameters) async throws -> JSONWriter) async -> Response {
        do {
            let query = try QueryParameters(request)
            if let unknown = query.firstName(where: { !allowed.contains($0) }) {
                throw PindropError.invalidInput("Unknown query parameter '\(unknown.prefix(40))'.  Allowed parameters are: \(allowed.sorted())")
            }
            if let unsupported = query.firstName(where: PhotonWire.unsupportedParameters.contains) {
                throw PindropError.invalidInput("Parameter '\(unsupported)' is not supported by this server (Pindrop keeps no full geometries, categories or OpenSearch index).")
            }
            return Responses.json(try await body(query))
        } catch {
            let failure = JSONErrorMiddleware<Context>.pindropError(error)
            var writer = JSONWriter()
            writer.beginObject(); writer.field("message", failure.message); writer.endObject()
            return Responses.json(writer, status: HTTPResponse.Status(code: failure.httpStatus))
        }
    }

}

/// Photon's `osm_tag` and `layer` filters: `key`, `key:value`, `:value`, each negated by a leading `!`;
/// a place passes when it matches any positive one (if there are any) and no negated one, and is in one of
/// the layers (if any are named).
struct PhotonTagFilter {
    var include: [(key: String?, value: String?)] = [], exclude: [(key: String?, value: String?)] = []
    var layers: Set<String> = []

    static let knownLayers: Set<String> = ["house", "street", "locality", "district", "city", "county", "state", "country", "other"]

    init(_ query: QueryParameters) throws {
        for tag in query.strings("osm_tag") {
            // "key", "key:value", ":value", each negated by a leading "!", and "key:!value" (the key, not that value).
            var text = Substring(tag.trimmingCharacters(in: .whitespaces))
            let negated = text.first == "!"
            if negated { text = text.dropFirst() }
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let key = parts[0].isEmpty ? nil : String(parts[0])
            var value = parts.count > 1 ? parts[1] : nil
            let valueNegated = value?.first == "!"
            if valueNegated { value = value?.dropFirst() }
            guard key != nil || value?.isEmpty == false, value?.contains(":") != true, value?.contains("!") != true,
                  !(negated && valueNegated), value?.isEmpty != true || parts.count == 1
            else { throw PindropError.invalidInput("Invalid format for osm_tag parameter.") }
            let pair = (key: key, value: value.map(String.init))
            if negated {
                exclude.append(pair)
            } else if valueNegated {
                exclude.append(pair)
                if key != nil { include.append((key, nil)) }
            } else {
                include.append(pair)
            }
        }
        for layer in query.strings("layer") {
            guard Self.knownLayers.contains(layer) else {
                throw PindropError.invalidInput("Unknown layer type. Available layers: \(Self.knownLayers.sorted())")
            }
            layers.insert(layer)
        }
    }

    var isEmpty: Bool { include.isEmpty && exclude.isEmpty && layers.isEmpty }

    func admits(_ terms: OSMTerms) -> Bool {
        func matches(_ tag: (key: String?, value: String?)) -> Bool {
            (tag.key == nil || tag.key == terms.key) && (tag.value == nil || tag.value == terms.value)
        }
        return (layers.isEmpty || layers.contains(terms.layer)) && (include.isEmpty || include.contains(where: matches))
            && !exclude.contains(where: matches)
    }
}

/// Photon's GeoJSON: a FeatureCollection of points whose properties name the place and its address parts.
enum PhotonWire {
    /// Photon's parameters (it refuses any other); `provider` is Pindrop's own, to pick the provider asked first.
    static let commonParameters: Set<String> = ["lang", "limit", "debug", "dedupe", "geometry", "osm_tag", "layer", "include", "exclude",
                                                "provider"]
    static let searchParameters = commonParameters.union(["lat", "lon", "location_bias_scale", "zoom", "bbox", "suggest_addresses",
                                                          "q", "countrycode"])
    static let reverseParameters = commonParameters.union(["lat", "lon", "radius", "query_string_filter", "distance_sort"])
    /// Parameters Photon takes that need data Pindrop does not keep (full geometries, categories, OpenSearch queries).
    static let unsupportedParameters: Set<String> = ["geometry", "include", "exclude", "query_string_filter"]

    static func featureCollection(_ results: ArraySlice<PlaceResult>, languages: [String]) -> JSONWriter {
        var w = JSONWriter(capacity: 400 * max(results.count, 1))
        w.beginObject()
        w.field("type", "FeatureCollection")
        w.key("features"); w.beginArray()
        for result in results {
            let place = result.place
            let terms = OSMTerms(place)
            let parts = AddressParts(place, terms, languages: languages)
            w.beginObject()
            w.field("type", "Feature")
            w.key("properties"); w.beginObject()
            if let type = terms.osmType, let id = terms.osmID {
                w.field("osm_type", String(type.prefix(1)).uppercased())
                w.key("osm_id"); w.number(Int(id))
            }
            w.field("osm_key", terms.key)
            w.field("osm_value", terms.value)
            w.field("type", terms.layer)
            w.field("housenumber", parts.houseNumber)
            if place.kind != .address { w.field("name", NominatimWire.localName(place, languages: languages)) }
            w.field("street", place.kind == .street ? nil : parts.road)
            w.field("district", parts.district)
            w.field("city", place.kind == .place || terms.addressType == "city" ? nil : parts.city)
            w.field("county", parts.county)
            w.field("state", parts.state)
            w.field("country", terms.layer == "country" ? nil : parts.country)
            w.field("postcode", parts.postcode)
            w.field("countrycode", place.countryCode)
            if terms.hasExtent {
                // Photon's order: the north-west corner, then the south-east one (not GeoJSON's bbox order).
                w.key("extent"); w.beginArray()
                for value in [terms.box.west, terms.box.north, terms.box.east, terms.box.south] { w.degrees(value) }
                w.endArray()
            }
            w.endObject()
            w.key("geometry"); NominatimWire.writePoint(place.coordinate, into: &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w
    }
}
