import Hummingbird
import PindropCore

/// Builders of the responses every controller sends.
enum Responses {
    /// A finished JSON document (`application/json`, or `application/geo+json` for GeoJSON).
    static func json(_ writer: JSONWriter, format: ResultFormat = .json, status: HTTPResponse.Status = .ok) -> Response {
        let type = format == .geojson ? "application/geo+json" : "application/json; charset=utf-8"
        return Response(status: status, headers: [.contentType: type, .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: writer.bytes)))
    }

    /// A results list in the shared wire shape.
    static func results(query: [(String, QueryValue)], results: [PlaceResult], format: ResultFormat,
                        status: HTTPResponse.Status = .ok) -> Response {
        json(WireEncoding.document(query: query, results: results, format: format), format: format, status: status)
    }

    /// A provider chain's answer: the results list plus `provider`, `fallback`, `fromCache` and `failures`.
    static func answer(query: [(String, QueryValue)], answer: ProviderAnswer, format: ResultFormat) -> Response {
        json(WireEncoding.document(query: query, answer: answer, format: format), format: format)
    }

    /// A list of places (saved, recent) as results without distances.
    static func places(query: [(String, QueryValue)], places: [Place], format: ResultFormat,
                       status: HTTPResponse.Status = .ok) -> Response {
        results(query: query, results: places.map { PlaceResult(place: $0) }, format: format, status: status)
    }
}
