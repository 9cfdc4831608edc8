import Foundation
import Hummingbird
import PindropCore

/// Nominatim's API (`/search`, `/reverse`, `/lookup`, `/status`, as Nominatim 4.x/5.x documents it), answered by the
/// same facade and provider chain as `/v1`: a program written for Nominatim works by changing its base URL. Errors
/// keep Nominatim's shape (`{"error": {"code": 400, "message": …}}`, or its XML form).
struct NominatimController<Context: RequestContext>: Sendable {
    let places: PlaceService
    let metrics: ServerMetrics?

    /// Most ids one `/lookup` takes (Nominatim's own cap).
    static var maxLookupIDs: Int { 50 }

    typealias Format = NominatimOutput.Format

    /// `/search`, `/lookup`, `/status`; `/reverse` is shared with Photon (`CompatAPI`).
    func addRoutes(to router: Router<Context>) {
        router.get("search", use: search)
        router.get("lookup", use: lookup)
        router.get("status", use: status)
    }

    // MARK: Endpoints

    @Sendable func search(_ request: Request, context: Context) async throws -> Response {
        let base = Self.baseURL(request)
        return await answering(request, defaultFormat: .jsonv2, defaultDetails: false) { query, output in
            let search = try NominatimSearch(query, languages: output.languages)
            guard let text = search.text else { throw PindropError.invalidInput("Nothing to search for.") }
            let found = try await find(text, search, query: query, output: output)
            var attributes = [("querystring", search.querystring)]
            if output.format == .xml {
                attributes.append(("more_url", search.moreURL(base: base, results: found, output: output,
                                                              featureType: query.string("featureType"))))
                let excluded = search.excludedAfter(found)
                if !excluded.isEmpty { attributes.append(("exclude_place_ids", excluded)) }
                if let viewbox = search.viewboxEcho { attributes.append(("viewbox", viewbox)) }
            }
            return .places(found, geometries: await geometries(found, output), attributes: attributes)
        }
    }

    @Sendable func reverse(_ request: Request, context: Context) async throws -> Response {
        await answering(request, defaultFormat: .xml, defaultDetails: true) { query, output in
            let lat = try query.requiredNumber("lat"), lon = try query.requiredNumber("lon")
            let zoomText = query.string("zoom")
            let zoom = min(max(try query.compatInteger("zoom") ?? 18, 0), 18)
            let layers = try PlaceLayer.layers(parsing: query.string("layer") ?? "")
            var querystring = "lat=\(lat)&lon=\(lon)&format=xml"
            if let zoomText, !zoomText.isEmpty { querystring += "&zoom=" + NominatimSearch.formEncoded(zoomText) }
            // Nominatim answers a point off the globe as one where nothing is.
            guard let coordinate = try? Coordinate(validatingLatitude: lat, longitude: lon) else {
                return .reverse(nil, geometry: nil, querystring: querystring)
            }
            let found = try await nearest(coordinate, level: try ReverseLevel(parsing: String(zoom)), layers: layers,
                                          query: query, output: output)
            let geometry = await geometries(found.map { [$0.place] } ?? [], output).first
            return .reverse(found, geometry: geometry, querystring: querystring)
        }
    }

    @Sendable func lookup(_ request: Request, context: Context) async throws -> Response {
        await answering(request, defaultFormat: .xml, defaultDetails: true) { query, output in
            var found: [Place] = []
            for id in try Self.lookupIDs(query.string("osm_ids") ?? "") {
                do {
                    found.append(try await metrics.timed(.lookup) { try await places.lookup(id: id, languages: output.languages) })
                } catch PindropError.notFound {}
            }
            return .places(found, geometries: await geometries(found, output), attributes: [("querystring", "")])
        }
    }

    /// `/status`: "OK" as text (the default), or `format=json` with the time of the data and the software's name.
    @Sendable func status(_ request: Request, context: Context) async throws -> Response {
        let query = try? QueryParameters(request)
        let format = query?.string("format") ?? "text"
        guard format == "text" || format == "json" else {
            return Self.text("ERROR 400: Parameter 'format' must be one of: text, json", status: .badRequest)
        }
        var writer = JSONWriter()
        writer.beginObject()
        do {
            let status = try await places.status()
            guard format == "json" else { return Self.text("OK") }
            writer.key("status"); writer.number(0)
            writer.field("message", "OK")
            if let updated = status.dataUpdated { writer.field("data_updated", WireEncoding.isoDate(updated)) }
            writer.field("software_version", "Pindrop")
            writer.field("database_version", status.name)
            writer.field("places", status.placeCount)
        } catch {
            let failure = JSONErrorMiddleware<Context>.pindropError(error)
            guard format == "json" else { return Self.text("ERROR: \(failure.message)", status: .internalServerError) }
            // Nominatim's JSON status says a failure in its body, with 200.
            writer.key("status"); writer.number(700); writer.field("message", failure.message)
        }
        writer.endObject()
        let callback = try? query?.string("json_callback").map(NominatimOutput.validatedCallback)
        return Self.respond(writer, callback: callback ?? nil)
    }

    // MARK: Finding

    /// The places of a search: what is at a coordinate the text is only made of; else the text (without a coordinate
    /// written in it, whose surroundings it is then searched in) as the store ranks it, through the filters here.
    private func find(_ text: String, _ search: NominatimSearch, query: QueryParameters, output: NominatimOutput) async throws -> [Place] {
        var text = text, near = search.viewbox.map(Self.centre), around: Coordinate?
        if search.structured.isEmpty, let reading = TextCoordinate.reading(text) {
            guard !reading.rest.isEmpty else {
                let found = try await nearest(reading.coordinate, level: .building, layers: search.kinds.layers, query: query, output: output)
                return found.map { [$0.place] } ?? []
            }
            (text, near, around) = (reading.rest, reading.coordinate, reading.coordinate)
        }
        // Nothing but punctuation and spaces names nothing; nor does a text more symbols than words ("%#$@*&l;der#$!"),
        // which Nominatim answers with nothing where typo tolerance would find a "Lüder".
        let wordy = text.reduce(0) { $0 + ($1.isLetter || $1.isNumber ? 1 : 0) }
        let symbols = text.reduce(0) { $0 + ($1.isPunctuation || $1.isSymbol ? 1 : 0) }
        guard wordy > 0, wordy >= symbols else { return [] }
        var request = try SearchRequest(text: text, near: near, limit: search.pool, within: search.within, languages: output.languages)
        (request.layers, request.featureType, request.dedupe) = (search.kinds.layers, search.kinds.featureType, search.dedupe)
        if let country = search.structured.country, search.structured.featureType == .country {
            // A country alone is that country, within the countries asked for.
            let codes = try StructuredQuery.countryCodes(country, output.languages)
            request.within.countries = search.within.countries.isEmpty ? codes : codes.intersection(search.within.countries)
            if request.within.countries.isEmpty { return [] }
        }
        var kept = try await searched(request, search, query: query, near: around, output: output, text: text)
        if kept.isEmpty, request.within.postcode != nil {
            // A postcode that matches nothing found is a mistake in it, as Nominatim reads one: searched without it.
            request.within.postcode = nil
            kept = try await searched(request, search, query: query, near: around, output: output, text: text)
        }
        return kept
    }

    /// The store's answer to a request, through the filters here.
    private func searched(_ request: SearchRequest, _ search: NominatimSearch, query: QueryParameters, near: Coordinate?,
                          output: NominatimOutput, text: String) async throws -> [Place] {
        let answer = try await metrics.timed(.search) { try await places.search(request, provider: query.provider()) }
        var search = search
        search.within = request.within
        return search.kept(answer.results.map(\.place), near: near, languages: output.languages, text: text)
    }

    /// The place reverse answers at a point: the first of the layers asked for (addresses and points of interest
    /// by default, as Nominatim's reverse), nil where nothing is.
    private func nearest(_ coordinate: Coordinate, level: ReverseLevel, layers: Set<PlaceLayer>, query: QueryParameters,
                         output: NominatimOutput) async throws -> PlaceResult? {
        // Addresses and points of interest unless asked otherwise, as Nominatim's reverse; layers asked for are checked
        // here too, on a few more answers than one.
        var request = try ReverseRequest(coordinate: coordinate, limit: layers.isEmpty ? 1 : 10, level: level, languages: output.languages)
        request.layers = layers.isEmpty ? [.address, .poi] : layers
        let asked = request
        let answer = try await metrics.timed(.reverse) { try await places.reverse(asked, provider: query.provider()) }
        return answer.results.first { result in
            let terms = OSMTerms(result.place)
            return terms.reaches(coordinate) && (layers.isEmpty || layers.contains(PlaceLayer.of(osmClass: terms.key, addressRank: terms.addressRank)))
        }
    }

    /// Each place's shape, simplified by `polygon_threshold`, when a `polygon_*` parameter asked for one.
    private func geometries(_ found: [Place], _ output: NominatimOutput) async -> [PlaceGeometry] {
        guard !output.geometries.isEmpty else { return [] }
        var shapes: [PlaceGeometry] = []
        for place in found { shapes.append(await places.geometry(of: place).simplified(tolerance: output.threshold)) }
        return shapes
    }

    /// `osm_ids=N123,W45,R6` and Pindrop ids (`geonames:2988507`, `osm:way/45`) as Pindrop ids, through `PlaceID`;
    /// items that are neither are skipped, as Nominatim skips them; more than `maxLookupIDs` is a 400.
    static func lookupIDs(_ text: String) throws -> [String] {
        let ids = text.split(separator: ",").compactMap { item -> String? in
            let item = item.trimmingCharacters(in: .whitespaces)
            if let object = PlaceID.OSMObject(nominatim: item), item.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) {
                return PlaceID.osm(object).description
            }
            guard item.count <= PlaceID.maxLength, let id = PlaceID(item) else { return nil }
            return id.description
        }
        guard ids.count <= maxLookupIDs else { throw PindropError.invalidInput("Too many object IDs.") }
        return ids
    }

    static func centre(_ box: BoundingBox) -> Coordinate {
        Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
    }

    /// The server's own address as the client reached it, for `more_url`: "http://127.0.0.1:8080".
    static func baseURL(_ request: Request) -> String {
        "http://" + (request.head.authority ?? "localhost")
    }
}
