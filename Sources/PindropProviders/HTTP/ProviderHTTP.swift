import AsyncHTTPClient
import Foundation
import NIOCore
import PindropCore

/// The HTTP plumbing every provider client shares: one GET with the configured timeout and User-Agent,
/// transport failures and HTTP error statuses turned into `PindropError` sentences, and JSON decoding with a
/// readable complaint.
///
/// What the provider writes back never reaches a person: its error bodies, reason phrases and header values
/// may echo the key (in any encoding) or be any size. Every failure is our own sentence with the HTTP status
/// and a parsed, capped `Retry-After`; and every message still goes through `publicText`, which removes the
/// key in all its forms before cutting the text to `longestMessage`. No URL appears in a message either: the
/// provider's name says which one failed, and its base URL is the operator's business.
struct ProviderHTTP: Sendable {
    /// The provider's name as people read it in errors: "Google".
    let provider: String
    let configuration: ProviderConfiguration
    /// The client given, or nil for `.failingFast`, looked up only when a request is sent: a process whose
    /// questions the store answers never starts the client's event loops.
    let httpClient: HTTPClient?
    /// The environment variable holding the key, named in messages about a refused key.
    let keyVariable: String?
    /// The key's forms, removed from every message.
    let redaction: KeyRedaction

    init(provider: String, configuration: ProviderConfiguration, httpClient: HTTPClient?, keyVariable: String?) {
        self.provider = provider
        self.configuration = configuration
        self.httpClient = httpClient
        self.keyVariable = keyVariable
        self.redaction = KeyRedaction(key: configuration.apiKey?.value)
    }

    /// A complete answer.
    struct Answer: Sendable {
        var status: Int
        var body: Data
        /// The wait the provider asked for in `Retry-After`, parsed and capped (`RateLimitAdvice.retryAfter`);
        /// nil when it sent none or sent something that is not a delay or a date.
        var retryAfter: Duration?
    }

    /// Longest body read, in bytes.
    static let maxBodyBytes = 8 << 20
    /// Longest message, in characters, after the key is removed.
    static let longestMessage = 300

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
            let response = try await (httpClient ?? .failingFast).execute(request, deadline: .now() + .nanoseconds(configuration.timeout.wholeNanoseconds))
            let body = try await response.body.collect(upTo: Self.maxBodyBytes)
            let retryAfter = RateLimitAdvice.retryAfter(response.headers.first(name: "Retry-After"),
                                                        nowEpochSeconds: Date().timeIntervalSince1970)
            return Answer(status: Int(response.status.code), body: Data(body.readableBytesView), retryAfter: retryAfter)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw transportFailure(error)
        }
    }

    /// `get`, then the answer required to be 200 and decoded as `T`.
    func getJSON<T: Decodable>(_ type: T.Type, path: String, query: [(String, String?)],
                               headers: [(String, String)] = []) async throws -> T {
        let answer = try await get(path, query: query, headers: headers)
        try requireOK(answer)
        return try decode(type, from: answer.body)
    }

    /// Decodes a 200 answer; a body of another shape is the provider's fault, said in one phrase.
    func decode<T: Decodable>(_ type: T.Type, from body: Data) throws(PindropError) -> T {
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch {
            throw upstream("answered with something that is not its documented JSON (\(Self.summary(of: error)))")
        }
    }

    /// Throws `failure` for an answer other than 200.
    func requireOK(_ answer: Answer) throws(PindropError) {
        guard answer.status == 200 else { throw failure(answer) }
    }

    /// The error for an answer other than 200: its status in our words, whatever the body says.
    func failure(_ answer: Answer) -> PindropError {
        let status = answer.status
        switch status {
        case 401:
            return upstream("rejected the API key (HTTP 401)" + keyHint)
        case 403:
            return upstream("refused access (HTTP 403)" + keyHint)
        case 429:
            let wait = answer.retryAfter.map { "; retry after \(Int($0.seconds.rounded(.up))) s" } ?? ""
            return rateLimited("too many requests (HTTP 429)\(wait)")
        case 500..<600:
            return upstream("is failing on its side (HTTP \(status))")
        case 400..<500:
            return upstream("refused the request (HTTP \(status))")
        default:
            return upstream("answered HTTP \(status) instead of 200")
        }
    }

    /// `.upstream` for this provider, its message made public.
    func upstream(_ message: String) -> PindropError {
        .upstream(provider: provider, message: publicText(message))
    }

    /// `.rateLimited` for this provider, its message made public.
    func rateLimited(_ message: String) -> PindropError {
        .rateLimited(provider: provider, message: publicText(message))
    }

    /// `text` as a person may read it: the key removed in every form first, then cut to `longestMessage`
    /// (in that order, so that a key across the cut cannot leave its start behind).
    func publicText(_ text: String) -> String {
        let clean = redaction(text)
        return clean.count <= Self.longestMessage ? clean : String(clean.prefix(Self.longestMessage - 1)) + "…"
    }

    private var keyHint: String {
        keyVariable.map { "; check \($0)" } ?? ""
    }

    /// A sentence for a failure before any HTTP answer, from the kind of failure alone: an error's description
    /// may hold the host, the URL or other text that is not ours to show.
    private func transportFailure(_ error: any Error) -> PindropError {
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .getConnectionFromPoolTimeout:
                return upstream("did not answer within \(Self.seconds(configuration.timeout))")
            default:
                break
            }
        }
        return upstream(Self.plainReason(error))
    }

    /// Why a connection failed, in words a person can act on, from the kind of failure alone: never an error's
    /// type name or description (which may hold the service's text). Shared by every provider and MusicBrainz.
    static func plainReason(_ error: any Error) -> String {
        if let error = error as? HTTPClientError, error == .remoteConnectionClosed {
            return "closed the connection without answering"
        }
        let text = String(describing: error).lowercased()
        let says = { (words: [String]) in words.contains { text.contains($0) } }
        if says(["refused"]) { return "could not connect (connection refused)" }
        if says(["dns", "resolve", "nxdomain", "getaddrinfo", "eai_", "name or service not known"]) {
            return "could not be found (its host name did not resolve: no network, or a wrong URL)"
        }
        if says(["tls", "ssl", "certificate", "handshake"]) { return "could not be reached securely (the TLS connection failed)" }
        if says(["unreachable", "no route"]) { return "could not be reached (no network route to it)" }
        if says(["reset", "closed", "eof"]) { return "closed the connection without answering" }
        return "could not be reached"
    }

    /// "5 s", "0.2 s".
    static func seconds(_ duration: Duration) -> String {
        let s = duration.seconds
        return s == s.rounded() ? "\(Int(s)) s" : "\(s) s"
    }

    /// `DecodingError` in one short phrase.
    static func summary(of error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(type(of: error))" }
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


