import Foundation
import Hummingbird
import PindropCore

/// Nominatim's API (`/search`, `/reverse`, `/lookup`, `/status`, as Nominatim 4.x/5.x documents it), answered by the
/// same facade and provider chain as `/v1`: a program written for Nominatim works by changing its base URL. Errors
/// keep Nominatim's shape (`{"error": {"code": 400, "message": …}}`).
struct NominatimController<Context: RequestContext>: Sendable {
    let places: PlaceService
    let metrics: ServerMetrics?

    /// Most results `/search` gives (Nominatim's code clamps `limit` to 1 … 50; its documentation says 40).
    static var maxSearchResults: Int { 50 }
    /// Most ids one `/lookup` takes (Nominatim's own cap).
    static var maxLookupIDs: Int { 50 }

    /// The output formats, as `format=` names them.
    enum Format: String { case json, jsonv2, geojson, geocodejson }

    /// `/search`, `/lookup`, `/status`; `/reverse` is shared with Photon (`CompatAPI`).
    func addRoutes(to router: Router<Context>) {
        router.get("search", use: search)
        router.get("lookup", use: lookup)
        router.get("status", use: status)
    }

    // MARK: Endpoints

    @Sendable func search(_ request: Request, context: Context) async throws -> Response {
        await answering(request) { query, format in
            let structured = try Structured(query)
            let text = query.string("q")?.trimmingWhitespace(newlines: true)
            if text != nil, !structured.isEmpty {
                throw PindropError.invalidInput("Structured query parameters(amenity, street, city, county, state, postalcode, country) cannot be used together with 'q' parameter.")
            }
            let limit = min(max(try query.compatInteger("limit") ?? 10, 1), Self.maxSearchResults)
            let kinds = try KindFilter(query)
            let excluded = try query.excludedPlaceIDs()
            var within = try AreaFilter(city: structured.cityFilter, postcode: structured.postalcode, county: structured.county,
                                        state: structured.state)
            within.countries = query.countryCodes().union(try structured.countryCodes(query.language()))
            let viewbox = try query.viewbox()
            if query.compatFlag("bounded") == true { within.box = viewbox }
            guard let wanted = text ?? structured.text else { throw PindropError.invalidInput("Nothing to search for.") }
            // "q=" asks for nothing: Nominatim answers with no results.
            guard !wanted.isEmpty else { return write([], as: format, query: query, text: wanted, defaultDetails: false) }
            let pool = kinds.isEmpty ? limit + excluded.count : RequestLimits.maxResults
            let search = try SearchRequest(text: wanted, near: viewbox.map(Self.centre), limit: min(pool, RequestLimits.maxResults),
                                           within: within)
            let answer = try await metrics.timed(.search) { try await places.search(search, provider: query.provider()) }
            // The filters' checks only where they have something to check (each made the place's OSM terms or id).
            var results: [Place] = []
            results.reserveCapacity(limit)
            for result in answer.results where results.count < limit {
                let place = result.place
                guard within.admits(place), kinds.isEmpty || kinds.admits(place),
                      excluded.isEmpty || !excluded.contains(place.id) && !excluded.contains(String(OSMTerms.placeID(of: place.idText)))
                else { continue }
                results.append(place)
            }
            return write(results, as: format, query: query, text: wanted, defaultDetails: false)
        }
    }

    @Sendable func reverse(_ request: Request, context: Context) async throws -> Response {
        await answering(request) { query, format in
            let lat = try query.requiredNumber("lat"), lon = try query.requiredNumber("lon")
            let zoom = min(max(try query.compatInteger("zoom") ?? 18, 0), 18)
            // Nominatim answers a point off the globe as one where nothing is.
            guard let coordinate = try? Coordinate(validatingLatitude: lat, longitude: lon) else { return Self.unableToGeocode }
            let reverse = try ReverseRequest(coordinate: coordinate, limit: 1, level: try ReverseLevel(parsing: String(zoom)))
            let answer = try await metrics.timed(.reverse) { try await places.reverse(reverse, provider: query.provider()) }
            guard let result = answer.results.first else { return Self.unableToGeocode }
            return write([result.place], as: format, query: query, text: "", defaultDetails: true, single: true,
                         distances: [result.distanceMeters])
        }
    }

    /// Reverse's answer where nothing is, in every format: `{"error":"Unable to geocode"}` with status 200.
    static var unableToGeocode: JSONWriter {
        var writer = JSONWriter()
        writer.beginObject(); writer.field("error", "Unable to geocode"); writer.endObject()
        return writer
    }

    @Sendable func lookup(_ request: Request, context: Context) async throws -> Response {
        await answering(request) { query, format in
            var found: [Place] = []
            for id in try Self.lookupIDs(query.string("osm_ids") ?? "") {
                do { found.append(try await metrics.timed(.lookup) { try await places.lookup(id: id) }) } catch PindropError.notFound {}
            }
            return write(found, as: format, query: query, text: nil, defaultDetails: true)
        }
    }

    /// `/status`: "OK" as text (the default), or `format=json` with the index's figures.
    @Sendable func status(_ request: Request, context: Context) async throws -> Response {
        let format = (try? QueryParameters(request))?.string("format") ?? "text"
        do {
            let status = try await places.status()
            guard format == "json" else { return Self.text("OK") }
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("status"); writer.number(0)
            writer.field("message", "OK")
            writer.field("software_version", "Pindrop")
            writer.field("database_version", status.name)
            writer.field("places", status.placeCount)
            writer.endObject()
            return Responses.json(writer)
        } catch {
            let failure = JSONErrorMiddleware<Context>.pindropError(error)
            guard format == "json" else { return Self.text("ERROR: \(failure.message)", status: .internalServerError) }
            var writer = JSONWriter()
            writer.beginObject(); writer.key("status"); writer.number(700); writer.field("message", failure.message); writer.endObject()
            return Responses.json(writer, status: .internalServerError)
        }
    }

    // MARK: Request parts

    /// The structured search parameters.
    struct Structured {
        var amenity, street, city, county, state, postalcode, country: String?

        init(_ query: QueryParameters) throws {
            func part(_ name: String) -> String? { query.string(name)?.nonBlank }
            amenity = part("amenity"); street = part("street"); city = part("city"); county = part("county")
            state = part("state"); postalcode = part("postalcode"); country = part("country")
        }

        // Part by part: an array of the seven cost every search an allocation.
        var isEmpty: Bool {
            amenity == nil && street == nil && city == nil && county == nil && state == nil && postalcode == nil && country == nil
        }

        /// What is looked up by name: the finest part given (the coarser ones narrow it).
        var text: String? { amenity ?? street ?? city ?? county ?? state ?? postalcode ?? country }

        /// The city narrows only when something finer is searched for.
        var cityFilter: String? { amenity ?? street == nil ? nil : city }

        /// `country` as codes: a two-letter code, or a country's name in English or the request's language.
        func countryCodes(_ language: String?) throws -> Set<String> {
            guard let country, amenity ?? street ?? city ?? county ?? state ?? postalcode != nil else { return [] }
            if country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }) { return [country.uppercased()] }
            let wanted = TextFolding.fold(country)
            let codes = Locale.Region.isoRegions.map(\.identifier).filter { code in
                code.count == 2 && [language, "en"].contains { OSMTerms.countryName(code, language: $0).map(TextFolding.fold) == wanted }
            }
            guard !codes.isEmpty else { throw PindropError.invalidInput("unknown country \"\(country.prefix(40))\"") }
            return Set(codes)
        }
    }

    /// `osm_ids=N123,W45,R6` (and Pindrop ids such as `geonames:2988507`) as Pindrop ids; items that are neither are
    /// skipped, as Nominatim skips them.
    static func lookupIDs(_ text: String) throws -> [String] {
        let ids = text.split(separator: ",").compactMap { item -> String? in
            let item = item.trimmingCharacters(in: .whitespaces)
            return OSMTerms.osmIDs(Substring(item)) ?? (item.contains(":") ? try? PlaceID.validated(item) : nil)
        }
        guard ids.count <= maxLookupIDs else { throw PindropError.invalidInput("Too many object IDs.") }
        return ids
    }

    static func centre(_ box: BoundingBox) -> Coordinate {
        Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
    }

    // MARK: Answers

    /// Parses the format, runs the body, and turns any failure into Nominatim's error document. An unknown format is
    /// refused in plain text, as Nominatim refuses it (there is no format yet to write the error in).
    private func answering(_ request: Request, _ body: (QueryParameters, Format) async throws -> JSONWriter) async -> Response {
        let query: QueryParameters
        do { query = try QueryParameters(request) } catch { return Self.error(JSONErrorMiddleware<Context>.pindropError(error)) }
        let text = query.string("format")
        guard let format = text.map({ Format(rawValue: $0.lowercased()) }) ?? .jsonv2 else {
            let message = "Parameter 'format' must be one of: json, jsonv2, geojson, geocodejson"
                + (text?.lowercased() == "xml" ? " (this server does not write xml)" : "")
            return Self.text("ERROR 400: \(message)", status: .badRequest)
        }
        do {
            // Nominatim sends every JSON format, GeoJSON too, as application/json.
            return Responses.json(try await body(query, format))
        } catch {
            return Self.error(JSONErrorMiddleware<Context>.pindropError(error))
        }
    }

    /// Nominatim's error document: `{"error": {"code": 400, "message": "…"}}`, with that status.
    static func error(_ failure: PindropError) -> Response {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("error"); writer.beginObject(); writer.field("code", failure.httpStatus); writer.field("message", failure.message); writer.endObject()
        writer.endObject()
        var response = Responses.json(writer, status: HTTPResponse.Status(code: failure.httpStatus))
        if let retryAfter = failure.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }

    static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// The places in the format asked: a list (or for reverse, one object) in json/jsonv2, a FeatureCollection in
    /// geojson and geocodejson.
    private func write(_ found: [Place], as format: Format, query: QueryParameters, text: String?, defaultDetails: Bool,
                       single: Bool = false, distances: [Double?] = []) -> JSONWriter {
        let language = query.language()
        let details = query.compatFlag("addressdetails") ?? defaultDetails
        let extras = query.compatFlag("extratags") ?? false, names = query.compatFlag("namedetails") ?? false
        var writer = JSONWriter(capacity: 512 * max(found.count, 1))
        switch format {
        case .json, .jsonv2:
            if !single { writer.beginArray() }
            for place in found {
                NominatimWire.writeResult(place, into: &writer, classLabel: format == .json ? "class" : "category",
                                          language: language, details: details, extratags: extras, namedetails: names)
            }
            if !single { writer.endArray() }
        case .geojson:
            NominatimWire.writeGeoJSON(found, into: &writer, language: language, details: details, extratags: extras, namedetails: names)
        case .geocodejson:
            NominatimWire.writeGeocodeJSON(found, into: &writer, query: text, language: language, details: details, distances: distances)
        }
        return writer
    }
}

/// The `/reverse` both APIs share a path for: Nominatim's when the request has a `format` (Photon refuses that
/// parameter, and geopy's Nominatim always sends it) or another parameter only Nominatim takes; Photon's otherwise.
enum CompatAPI {
    static let nominatimOnly: Set<String> = ["format", "zoom", "addressdetails", "extratags", "namedetails", "accept-language",
                                             "email", "polygon_geojson", "polygon_kml", "polygon_svg", "polygon_text",
                                             "polygon_threshold", "json_callback", "entrances"]

    static func isNominatimReverse(_ request: Request) -> Bool {
        request.uri.queryParameters.contains { nominatimOnly.contains(String($0.key)) }
    }

    /// Adds both APIs' routes, and the shared `/reverse` that hands each request to one of them.
    static func addRoutes<Context: RequestContext>(to router: Router<Context>, places: PlaceService, metrics: ServerMetrics?) {
        let nominatim = NominatimController<Context>(places: places, metrics: metrics)
        let photon = PhotonController<Context>(places: places, metrics: metrics)
        nominatim.addRoutes(to: router)
        photon.addRoutes(to: router)
        router.get("reverse") { request, context in
            isNominatimReverse(request) ? try await nominatim.reverse(request, context: context) : try await photon.reverse(request, context: context)
        }
    }
}

extension QueryParameters {
    /// Nominatim's yes-or-no: "0" is no and anything else yes (as its own `get_bool`); nil when absent.
    func compatFlag(_ name: String) -> Bool? { string(name).map { $0 != "0" } }

    /// A whole number, nil when absent; 400 when not a number.
    func compatInteger(_ name: String) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) ?? Int(text.trimmingWhitespace()) else {
            throw PindropError.invalidInput("Parameter '\(name)' must be a number.")
        }
        return value
    }

    /// A finite number that must be there (Nominatim's and Photon's wording when it is not).
    func requiredNumber(_ name: String) throws -> Double {
        guard let text = string(name) else { throw PindropError.invalidInput("Parameter '\(name)' missing.") }
        guard let value = DecimalNumber.parse(text.trimmingWhitespace()) else {
            throw PindropError.invalidInput("Parameter '\(name)' must be a number.")
        }
        return value
    }

    /// `lat` and `lon` as a coordinate in range; 400 for a missing, malformed or out-of-range value.
    func compatCoordinate() throws -> Coordinate {
        let lat = try requiredNumber("lat"), lon = try requiredNumber("lon")
        guard (-90...90).contains(lat) else { throw PindropError.invalidInput("Invalid value for 'lat' parameter.") }
        guard (-180...180).contains(lon) else { throw PindropError.invalidInput("Invalid value for 'lon' parameter.") }
        return try Coordinate(validatingLatitude: lat, longitude: lon)
    }

    /// `viewbox=x1,y1,x2,y2` (Nominatim) or `bbox=` (Photon): longitude, latitude of two opposite corners, clamped to
    /// the globe; nil when absent.
    func viewbox(_ name: String = "viewbox") throws -> BoundingBox? {
        guard let text = string(name)?.nonBlank else { return nil }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else { throw PindropError.invalidInput("Bounding box parameter needs 4 coordinates.") }
        let numbers = parts.compactMap { DecimalNumber.parse($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4 else { throw PindropError.invalidInput("Bounding box parameter needs to be numbers.") }
        let x1 = min(max(numbers[0], -180), 180), x2 = min(max(numbers[2], -180), 180)
        let y1 = min(max(numbers[1], -90), 90), y2 = min(max(numbers[3], -90), 90)
        guard x1 != x2, y1 != y2 else { throw PindropError.invalidInput("Bounding box with invalid parameters.") }
        return BoundingBox(south: min(y1, y2), west: min(x1, x2), north: max(y1, y2), east: max(x1, x2))
    }

    /// `countrycodes=fi,li` (Nominatim, one parameter) or `countrycode=FI&countrycode=LI` (Photon, repeated) as
    /// upper-case codes; an item that is not two letters is dropped, as Nominatim drops it.
    func countryCodes(_ name: String = "countrycodes") -> Set<String> {
        Set(strings(name).flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isLetter } }.map { $0.uppercased() })
    }

    /// `exclude_place_ids=1,2,N3` as the ids to leave out: a `place_id` as written, or an OSM object as a Pindrop id.
    func excludedPlaceIDs() throws -> Set<String> {
        let items = (string("exclude_place_ids") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        guard items.count <= RequestLimits.maxResults else { throw PindropError.invalidInput("Too many ids in 'exclude_place_ids'.") }
        return Set(try items.map { item in
            if Int64(item) != nil { return item }
            guard let id = OSMTerms.osmIDs(Substring(item)) else { throw PindropError.invalidInput("Invalid exclude ID: \(item.prefix(40))") }
            return id
        })
    }
}

/// Nominatim's `layer` (address, poi, railway, natural, manmade) and `featureType` (country, state, city,
/// settlement): which kinds of place a search keeps. Pindrop's places are addresses and POIs only, so the other
/// layers keep nothing.
struct KindFilter {
    var layers: Set<String> = []
    /// The address ranks `featureType` keeps, nil without it.
    var ranks: ClosedRange<Int>?

    static let knownLayers: Set<String> = ["address", "poi", "railway", "natural", "manmade"]

    init(_ query: QueryParameters) throws {
        for layer in (query.string("layer") ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces).lowercased() })
            where !layer.isEmpty {
            guard Self.knownLayers.contains(layer) else {
                throw PindropError.invalidInput("Parameter 'layer' must be a list of: \(Self.knownLayers.sorted().joined(separator: ", ")).")
            }
            layers.insert(layer)
        }
        if let feature = query.string("featureType")?.lowercased() {
            // featureType asks for a place of the address hierarchy: the layer becomes address alone.
            ranks = ["country": 4...4, "state": 8...8, "city": 14...16, "settlement": 8...20][feature] ?? 0...30
            layers = ["address"]
        }
    }

    var isEmpty: Bool { layers.isEmpty && ranks == nil }

    func admits(_ place: Place) -> Bool {
        let terms = OSMTerms(place)
        if let ranks, !ranks.contains(terms.addressRank) { return false }
        let isPOI = (place.kind ?? OSMTerms.inferredKind(place)) == .venue
        return layers.isEmpty || layers.contains(isPOI ? "poi" : "address")
    }
}
