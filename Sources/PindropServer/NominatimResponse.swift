import Hummingbird
import PindropCore

/// What a Nominatim endpoint found, before it is written in the format asked for.
enum NominatimAnswer {
    /// Search and lookup: the places, each one's shape when asked for, and the XML root's attributes.
    case places([Place], geometries: [PlaceGeometry], attributes: [(String, String)])
    /// Reverse: the place at the point (nil where nothing is), its shape, and the XML root's `querystring`.
    case reverse(PlaceResult?, geometry: PlaceGeometry?, querystring: String)
}

extension NominatimController {
    /// Parses the format, then the output parameters, runs the body, and writes its answer; any failure becomes
    /// Nominatim's error document in the format asked for. An unknown format is refused in plain text, as Nominatim
    /// refuses it (there is no format yet to write the error in).
    func answering(_ request: Request, defaultFormat: Format, defaultDetails: Bool,
                   _ body: (QueryParameters, NominatimOutput) async throws -> NominatimAnswer) async -> Response {
        let query: QueryParameters
        do { query = try QueryParameters(request, spacingControls: true) } catch { return Self.error(JSONErrorMiddleware<Context>.pindropError(error), format: .json) }
        guard let format = NominatimOutput.format(query, default: defaultFormat) else {
            let names = Format.allCases.map(\.rawValue).joined(separator: ", ")
            return Self.text("ERROR 400: Parameter 'format' must be one of: \(names)", status: .badRequest)
        }
        do {
            let output = try NominatimOutput(query, format: format, defaultDetails: defaultDetails)
            return Self.write(try await body(query, output), output: output)
        } catch {
            return Self.error(JSONErrorMiddleware<Context>.pindropError(error), format: format)
        }
    }

    /// The answer in its format: a list (or for reverse, one object) in json and jsonv2, a FeatureCollection in geojson
    /// and geocodejson, `<searchresults>` or `<reversegeocode>` in xml; a JSON one wrapped in the JSONP callback asked for.
    static func write(_ answer: NominatimAnswer, output: NominatimOutput) -> Response {
        switch (answer, output.format) {
        case (.places(let found, let geometries, let attributes), .xml):
            return respond(Array(NominatimXML.searchResults(found, geometries: geometries, output: output, attributes: attributes).utf8),
                           json: false)
        case (.reverse(let found, let geometry, let querystring), .xml):
            return respond(Array(NominatimXML.reverseGeocode(found?.place, geometry: geometry, output: output, querystring: querystring).utf8),
                           json: false)
        case (.reverse(nil, _, _), _):
            return respond(unableToGeocode, callback: output.callback)
        case (.places(let found, let geometries, let attributes), _):
            let query = attributes.first { $0.0 == "querystring" }?.1
            return respond(json(found, output: output, query: query, geometries: geometries), callback: output.callback)
        case (.reverse(let found?, let geometry, _), _):
            let json = json([found.place], output: output, query: nil, geometries: geometry.map { [$0] } ?? [],
                            distances: [found.distanceMeters], single: true)
            return respond(json, callback: output.callback)
        }
    }

    /// The places in a JSON format.
    private static func json(_ found: [Place], output: NominatimOutput, query: String?, geometries: [PlaceGeometry],
                             distances: [Double?] = [], single: Bool = false) -> JSONWriter {
        var writer = JSONWriter(capacity: 512 * max(found.count, 1))
        switch output.format {
        case .json, .jsonv2, .xml:
            if !single { writer.beginArray() }
            for (n, place) in found.enumerated() {
                NominatimWire.writeResult(place, into: &writer, classLabel: output.format == .json ? "class" : "category", output: output,
                                          geometry: n < geometries.count ? geometries[n] : nil)
            }
            if !single { writer.endArray() }
        case .geojson:
            NominatimWire.writeGeoJSON(found, into: &writer, output: output, geometries: geometries)
        case .geocodejson:
            NominatimWire.writeGeocodeJSON(found, into: &writer, query: query, output: output, distances: distances, geometries: geometries)
        }
        return writer
    }

    /// Reverse's answer where nothing is, in every JSON format: `{"error":"Unable to geocode"}` with status 200.
    static var unableToGeocode: JSONWriter {
        var writer = JSONWriter()
        writer.beginObject(); writer.field("error", "Unable to geocode"); writer.endObject()
        return writer
    }

    /// A JSON document as `respond` sends it; without a callback, its bytes go out without a copy.
    static func respond(_ writer: JSONWriter, callback: String?, status: HTTPResponse.Status = .ok) -> Response {
        guard callback == nil else { return respond(writer.bytes, json: true, callback: callback, status: status) }
        return Responses.json(writer, status: status)
    }

    /// A 200 answer: JSON as `application/json` (every JSON format, GeoJSON too, as Nominatim sends it), wrapped in
    /// `callback(…)` as `application/javascript` when a JSONP callback was asked for; XML as `text/xml`.
    static func respond(_ body: [UInt8], json: Bool, callback: String? = nil, status: HTTPResponse.Status = .ok) -> Response {
        var bytes = body, type = json ? "application/json; charset=utf-8" : "text/xml; charset=utf-8"
        if json, let callback {
            bytes = Array((callback + "(").utf8) + body + [UInt8(ascii: ")")]
            type = "application/javascript; charset=utf-8"
        }
        return Response(status: status, headers: [.contentType: type, .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Nominatim's error document with that status: `{"error": {"code": 400, "message": "…"}}`, or its XML form.
    static func error(_ failure: PindropError, format: Format) -> Response {
        let status = HTTPResponse.Status(code: failure.httpStatus)
        var response: Response
        if format == .xml {
            response = respond(Array(NominatimXML.error(failure).utf8), json: false, status: status)
        } else {
            var writer = JSONWriter()
            writer.beginObject()
            writer.key("error"); writer.beginObject(); writer.field("code", failure.httpStatus); writer.field("message", failure.message)
            writer.endObject()
            writer.endObject()
            response = respond(writer, callback: nil, status: status)
        }
        if let retryAfter = failure.retryAfter { response.headers[.retryAfter] = String(retryAfter) }
        return response
    }

    static func text(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                 body: .init(byteBuffer: ByteBuffer(string: text)))
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
