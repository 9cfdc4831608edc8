/// The one error type users see, from every layer: its `message` is a sentence for a person, and its kind
/// decides the machine-readable `code`, the HTTP status and the command line's exit code, so no front end
/// compares strings or keeps a table of its own.
public enum PindropError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request itself is wrong (empty text, out-of-range coordinate, bad radius, unknown country...).
    case invalidInput(String)
    /// The thing asked for does not exist (an unknown place id, endpoint or file).
    case notFound(String)
    /// The HTTP method is not one the path answers.
    case methodNotAllowed(String)
    /// The request body is larger than allowed.
    case tooLarge(String)
    /// The request line (the URL) is longer than the server reads.
    case uriTooLong(String)
    /// A line of a batch is longer than a batch reads; the answer gives its length, never its text.
    case tooLong(String)
    /// The request's headers are larger than the server reads.
    case headersTooLarge(String)
    /// The request body is not JSON.
    case unsupportedMediaType(String)
    /// Refused for who is asking: a host name not served, a write from another web site.
    case forbidden(String)
    /// The request must name its user (a bearer token) and did not, or named one no user has.
    case unauthorized(String)
    /// A store's cap is reached (too many saved places); removing some makes room.
    case limitReached(String)
    /// This client sent more writes than allowed; `retryAfter` seconds until the next is taken.
    case tooManyRequests(String, retryAfter: Int)
    /// The server is at its connection limit; `retryAfter` seconds is a fair wait.
    case overloaded(String, retryAfter: Int)
    /// A feature the server was started without (music search with no MusicBrainz configured).
    case notConfigured(String)
    /// The index file is missing, unreadable or of another format.
    case indexUnavailable(String)
    /// The shared database (PostgreSQL) does not answer; asking again later may work. The message never holds
    /// a connection string's password.
    case storeUnavailable(String)
    /// A data file being imported cannot be read at all (single bad lines are skipped, not thrown).
    case unreadableData(String)
    /// A remote service failed (refused, timed out, answered garbage); the message never holds a key.
    case upstream(provider: String, message: String)
    /// A remote service refused for rate or quota reasons.
    case rateLimited(provider: String, message: String)
    /// Something failed that the user cannot fix; the message says only that (details go to the log).
    case internalFailure(String)

    /// A one-line explanation for a person.
    public var message: String {
        switch self {
        case .invalidInput(let m), .notFound(let m), .methodNotAllowed(let m), .tooLarge(let m), .notConfigured(let m),
             .indexUnavailable(let m), .unreadableData(let m), .internalFailure(let m), .uriTooLong(let m),
             .headersTooLarge(let m), .unsupportedMediaType(let m), .forbidden(let m), .limitReached(let m), .tooLong(let m),
             .unauthorized(let m), .storeUnavailable(let m),
             .tooManyRequests(let m, _), .overloaded(let m, _): m
        case .upstream(let p, let m): "\(p): \(m)"
        case .rateLimited(let p, let m): "\(p) is rate-limiting us: \(m)"
        }
    }

    /// A stable machine-readable code, as used in the HTTP error body and batch output.
    public var code: String {
        switch self {
        case .invalidInput: "invalid_input"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .tooLarge: "too_large"
        case .uriTooLong: "uri_too_long"
        case .tooLong: "too_long"
        case .headersTooLarge: "headers_too_large"
        case .unsupportedMediaType: "unsupported_media_type"
        case .forbidden: "forbidden"
        case .unauthorized: "unauthorized"
        case .limitReached: "limit_reached"
        case .tooManyRequests: "too_many_requests"
        case .overloaded: "overloaded"
        case .notConfigured: "not_configured"
        case .indexUnavailable: "index_unavailable"
        case .storeUnavailable: "store_unavailable"
        case .unreadableData: "unreadable_data"
        case .upstream: "upstream_failed"
        case .rateLimited: "rate_limited"
        case .internalFailure: "internal_error"
        }
    }

    /// The HTTP status an API answer carries for this error.
    public var httpStatus: Int {
        switch self {
        case .invalidInput, .tooLong: 400
        case .notFound: 404
        case .methodNotAllowed: 405
        case .tooLarge: 413
        case .uriTooLong: 414
        case .headersTooLarge: 431
        case .unsupportedMediaType: 415
        case .unauthorized: 401
        case .forbidden: 403
        case .limitReached: 409
        case .tooManyRequests: 429
        case .overloaded: 503
        case .upstream: 502
        case .notConfigured, .indexUnavailable, .storeUnavailable, .unreadableData, .rateLimited: 503
        case .internalFailure: 500
        }
    }

    /// The command line's exit status: 64 (EX_USAGE) when the user asked for something malformed, else 1.
    public var exitCode: Int32 {
        switch self {
        case .invalidInput, .tooLarge, .tooLong: 64
        default: 1
        }
    }

    /// Seconds the client should wait before asking again (an HTTP `Retry-After`), when the error says so.
    public var retryAfter: Int? {
        switch self {
        case .tooManyRequests(_, let seconds), .overloaded(_, let seconds): seconds
        default: nil
        }
    }

    /// Whether asking another provider could help (the request itself was not at fault).
    public var isProviderFailure: Bool {
        switch self {
        case .invalidInput, .tooLarge, .tooLong: false
        default: true
        }
    }

    /// The error an HTTP status stands for when a lower layer (the HTTP server itself) refused a request.
    public init(httpStatus: Int) {
        switch httpStatus {
        case 404: self = .notFound("no such endpoint or file")
        case 405: self = .methodNotAllowed("this method is not allowed here")
        case 413: self = .tooLarge("the request body is too large")
        case 414: self = .uriTooLong("the request line is too long")
        case 431: self = .headersTooLarge("the request's headers are too large")
        case 400..<500: self = .invalidInput("the request is malformed")
        default: self = .internalFailure("the server failed to answer; see its log")
        }
    }

    public var description: String { message }
}
