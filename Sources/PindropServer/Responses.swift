import Hummingbird
import PindropCore

/// Builders of the responses every controller sends.
enum Responses {
    /// A finished JSON document (`application/json`, or `application/geo+json` for GeoJSON).
    static func json(_ writer: JSONWriter, format: ResultFormat = .json, status: HTTPResponse.Status = .ok) -> Response {
        let type = format == .geojson ? "application/geo+json" : "application/json; charset=utf-8"
        return Response(status: status, headers: [.contentType: type, .cacheControl: "no-store"],
                        body: .init(byteBuffer: writer.withUnsafeBytes { ByteBuffer(bytes: $0) }))
    }

    /// A provider chain's answer to a request: its echo, the results, `provider`, `fallback`, `fromCache`, `failures`.
    static func answer(_ echo: [(String, QueryValue)], format: ResultFormat,
                       _ ask: () async throws -> ProviderAnswer) async throws -> Response {
        json(WireEncoding.document(query: echo, answer: try await ask(), format: format), format: format)
    }

    /// A list of places (saved, recent, a lookup) as results without distances.
    static func places(query: [(String, QueryValue)], places: [Place], format: ResultFormat,
                       status: HTTPResponse.Status = .ok, page: ResultPage? = nil) -> Response {
        json(WireEncoding.document(query: query, results: places.map { PlaceResult(place: $0) }, format: format, page: page),
             format: format, status: status)
    }
}
