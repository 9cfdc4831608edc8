/// The one error type users see, from every layer: its `message` is a sentence for a person.
public enum PindropError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request itself is wrong (empty text, out-of-range coordinate, bad radius, unknown country...).
    case invalidInput(String)
    /// The thing asked for does not exist (an unknown place id).
    case notFound(String)
    /// The index file is missing, unreadable or of another format.
    case indexUnavailable(String)
    /// A data file being imported cannot be read at all (single bad lines are skipped, not thrown).
    case unreadableData(String)
    /// A remote service failed (refused, timed out, answered garbage); the message never holds a key.
    case upstream(provider: String, message: String)
    /// A remote service refused for rate or quota reasons.
    case rateLimited(provider: String, message: String)

    /// A one-line explanation for a person.
    public var message: String {
        switch self {
        case .invalidInput(let m), .notFound(let m), .indexUnavailable(let m), .unreadableData(let m): m
        case .upstream(let p, let m): "\(p): \(m)"
        case .rateLimited(let p, let m): "\(p) is rate-limiting us: \(m)"
        }
    }

    /// A stable machine-readable code, as used in the HTTP error body.
    public var code: String {
        switch self {
        case .invalidInput: "invalid_input"
        case .notFound: "not_found"
        case .indexUnavailable: "index_unavailable"
        case .unreadableData: "unreadable_data"
        case .upstream: "upstream_failed"
        case .rateLimited: "rate_limited"
        }
    }

    public var description: String { message }
}
