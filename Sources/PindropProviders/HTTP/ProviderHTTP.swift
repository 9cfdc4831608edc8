import AsyncHTTPClient
import Foundation
import NIOCore
import PindropCore

/// The HTTP plumbing every provider client shares: one GET with the configured timeout and User-Agent,
/// transport failures and HTTP error statuses turned into `PindropError` sentences, JSON decoding with a
/// readable complaint, and the API key scrubbed from anything a person may read.
struct ProviderHTTP: Sendable {
    /// The provider's name as people read it in errors: "Google".
    let provider: String
    let configuration: ProviderConfiguration
    let httpClient: HTTPClient
    /// The environment variable holding the key, named in messages about a refused key.
    let keyVariable: String?

    /// A complete answer.
    struct Answer: Sendable {
        var status: Int
        var body: Data
        /// The `Retry-After` header, when the provider sent one.
        var retryAfter: String?
    }

    /// Longest body read, in bytes.
    static let maxBodyBytes = 8 << 20

    /// `GET baseURL + path ? query`; nil query values are left out. Throws `PindropError` for transport
    /// failures (refused, timed out) and `CancellationError` when the task is cancelled; any HTTP status
    /// comes back as an answer.
    func get(_ path: String, query: [(String, String?)], headers: [(String, String)] = []) async throws -> Answer {
        let pairs = query.compactMap { name, value in value.map { "\(name)=\(Self.percentEncoded($0))" } }
        var request = HTTPClientRequest(url: configuration.baseURL + path + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&")))
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "Accept", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        do {
            let response = try await httpClient.execute(request, deadline: .now() + .nanoseconds(configuration.timeout.wholeNanoseconds))
            let body = try await response.body.collect(upTo: Self.maxBodyBytes)
            return Answer(status: Int(response.status.code), body: Data(body.readableBytesView),
                          retryAfter: response.headers.first(name: "Retry-After"))
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw transportFailure(error)
        }
    }

    /// `get`, then the answer required to be 200 (any other explained by `errorBody`) and decoded as `T`.
    func getJSON<T: Decodable, ErrorBody: ProviderErrorBody>(_ type: T.Type, path: String, query: [(String, String?)],
                                                             headers: [(String, String)] = [],
                                                             errorBody: ErrorBody.Type) async throws -> T {
        let answer = try await get(path, query: query, headers: headers)
        try requireOK(answer, errorBody: errorBody)
        return try decode(type, from: answer.body)
    }

    /// Decodes a 200 answer; a body of another shape is the provider's fault, said in one phrase.
    func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(PindropError) -> T {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw .upstream(provider: provider, message: "answered with something that is not its documented JSON (\(Self.summary(of: error)))")
        }
    }

    /// Throws `failure` for an answer other than 200, with the explanation the provider's error body gives.
    func requireOK<ErrorBody: ProviderErrorBody>(_ answer: Answer, errorBody: ErrorBody.Type) throws(PindropError) {
        guard answer.status == 200 else {
            throw failure(answer, detail: (try? JSONDecoder().decode(ErrorBody.self, from: answer.body))?.message)
        }
    }

    /// The error for an answer other than 200; `detail` is the provider's own explanation, if any.
    func failure(_ answer: Answer, detail: String?) -> PindropError {
        let status = answer.status
        let reason = detail.map { ": " + redacted(String($0.prefix(300))) } ?? ""
        switch status {
        case 401:
            return .upstream(provider: provider, message: "rejected the API key (HTTP 401)\(reason)" + keyHint)
        case 403:
            return .upstream(provider: provider, message: "refused access (HTTP 403)\(reason)" + keyHint)
        case 429:
            let wait = answer.retryAfter.map { " (retry after \($0) s)" } ?? ""
            return .rateLimited(provider: provider, message: "too many requests (HTTP 429)\(wait)\(reason)")
        case 500..<600:
            return .upstream(provider: provider, message: "is failing on its side (HTTP \(status))\(reason)")
        default:
            return .upstream(provider: provider, message: "refused the request (HTTP \(status))\(reason)")
        }
    }

    /// `text` with the API key (raw or percent-encoded) replaced by "<redacted>".
    func redacted(_ text: String) -> String {
        guard let key = configuration.apiKey?.value, !key.isEmpty else { return text }
        return text.replacingOccurrences(of: key, with: "<redacted>")
            .replacingOccurrences(of: Self.percentEncoded(key), with: "<redacted>")
    }

    private var keyHint: String {
        keyVariable.map { "; check \($0)" } ?? ""
    }

    /// A sentence for a failure before any HTTP answer (never holding the URL, which may carry the key).
    private func transportFailure(_ error: any Error) -> PindropError {
        let base = configuration.baseURL
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
                return .upstream(provider: provider, message: "did not answer within \(Self.seconds(configuration.timeout)) (\(base))")
            case .remoteConnectionClosed:
                return .upstream(provider: provider, message: "closed the connection without answering (\(base))")
            default:
                return .upstream(provider: provider, message: "the request to \(base) failed (\(redacted(String(describing: error))))")
            }
        }
        let text = String(describing: error)
        if text.contains("refused") || text.contains("ECONNREFUSED") {
            return .upstream(provider: provider, message: "could not connect to \(base) (connection refused)")
        }
        return .upstream(provider: provider, message: "could not reach \(base) (\(redacted(String(text.prefix(200)))))")
    }

    /// "5 s", "0.2 s".
    static func seconds(_ duration: Duration) -> String {
        let s = duration.seconds
        return s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }

    /// `DecodingError` in one short phrase.
    static func summary(of error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(String(describing: error).prefix(160)) }
        switch error {
        case .keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "unexpected value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case .dataCorrupted(let context) where !context.codingPath.isEmpty:
            return "unreadable value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case .dataCorrupted: return "not valid JSON"
        @unknown default: return "unreadable"
        }
    }

    /// RFC 3986 percent-encoding of a query value (everything but unreserved characters).
    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}

extension HTTPClient {
    /// The client every provider uses unless given another: `.shared`'s browser-like configuration, except
    /// that a refused connection fails at once instead of being retried until the deadline — so a fallback
    /// provider answers straight away rather than after the whole timeout. Lives as long as the process.
    public static let failingFast: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}

extension Duration {
    /// Whole nanoseconds, for NIO's `TimeAmount`.
    var wholeNanoseconds: Int64 {
        let parts = components
        return parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
    }
}

/// An id that providers write as a number or a string.
struct FlexibleID: Decodable, Sendable {
    let value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            value = String(number)
        } else {
            value = try container.decode(String.self)
        }
    }
}

extension PlaceResult {
    /// A result with its distance from `point`, when there is one.
    static func measured(_ place: Place, from point: Coordinate?) -> PlaceResult {
        PlaceResult(place: place, distanceMeters: point.map { place.coordinate.distance(to: $0) })
    }
}

extension String {
    /// nil for an empty or blank string.
    var nonBlank: String? {
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// A provider's error body: whatever shape it has, the one sentence it explains itself with.
protocol ProviderErrorBody: Decodable {
    var message: String? { get }
}

/// The common error body `{"message": "..."}` (Photon, Mapbox, Foursquare).
struct MessageErrorBody: ProviderErrorBody {
    var message: String?
}
