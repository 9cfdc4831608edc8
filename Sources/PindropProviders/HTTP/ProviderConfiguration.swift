import Foundation
import PindropCore

/// A secret that never shows: printing, interpolating, dumping or mirroring it writes "<redacted>".
public struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret itself, for the one place that sends it.
    public let value: String

    /// Wraps a key.
    public init(_ value: String) { self.value = value }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// How to reach one provider: where, with which key, how long to wait, how to introduce ourselves, and how
/// long its answers may be reused. Filled from the environment by `ProviderSetup`, or built directly.
public struct ProviderConfiguration: Sendable, Hashable {
    /// The User-Agent sent to every provider unless `PINDROP_USER_AGENT` says otherwise (Nominatim's usage
    /// policy requires one naming the application; operators add their contact through the variable).
    public static let defaultUserAgent = "Pindrop/0.1.0 (open-source place search)"

    /// Scheme, host, optional port and path prefix, without a trailing slash: "https://photon.komoot.io".
    public var baseURL: String
    /// The provider's API key or access token; nil for providers that need none.
    public var apiKey: APIKey?
    /// Longest wait for one answer (default 5 s); past it the provider counts as failed.
    public var timeout: Duration
    /// Sent as `User-Agent`.
    public var userAgent: String
    /// How long answers may be reused from the response cache.
    public var cacheLifetime: Duration

    /// Validates and makes a configuration; `name` only words the error for a bad URL.
    public init(name: String, baseURL: String, apiKey: String? = nil, timeout: Duration = .seconds(5),
                userAgent: String = ProviderConfiguration.defaultUserAgent,
                cacheLifetime: Duration = .seconds(3600)) throws(PindropError) {
        var trimmed = baseURL.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.query == nil else {
            throw .invalidInput("the \(name) URL must look like https://example.org or http://127.0.0.1:8080, got \"\(baseURL.prefix(100))\"")
        }
        guard timeout > .zero else { throw .invalidInput("the \(name) timeout must be positive") }
        let key = apiKey?.trimmingCharacters(in: .whitespacesAndNewlines)
        self.baseURL = trimmed
        self.apiKey = (key?.isEmpty ?? true) ? nil : APIKey(key!)
        self.timeout = timeout
        self.userAgent = userAgent
        self.cacheLifetime = cacheLifetime
    }

    /// The host of `baseURL`, lower case.
    var host: String { URL(string: baseURL)?.host?.lowercased() ?? "" }
}
