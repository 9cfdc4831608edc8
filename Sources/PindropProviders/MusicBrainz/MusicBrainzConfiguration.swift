import Foundation
import PindropCore

/// How to reach MusicBrainz: base URL, the contact MusicBrainz requires in the User-Agent, timing.
/// Filled from options, then the environment (`PINDROP_MUSICBRAINZ_URL`, `PINDROP_MUSICBRAINZ_CONTACT`),
/// then defaults.
public struct MusicBrainzConfiguration: Sendable, Hashable {
    /// The public service.
    public static let defaultBaseURL = "https://musicbrainz.org"
    /// The version sent in the User-Agent.
    public static let clientVersion = "0.1.0"
    /// Environment variable for the base URL.
    public static let baseURLVariable = "PINDROP_MUSICBRAINZ_URL"
    /// Environment variable for the contact.
    public static let contactVariable = "PINDROP_MUSICBRAINZ_CONTACT"

    /// Scheme, host and optional port (and path prefix) of the service, without a trailing slash.
    public let baseURL: String
    /// An e-mail address or URL where the service's operators can reach whoever runs this Pindrop.
    public let contact: String?
    /// The service's documented spacing between requests from one IP (1 second); a time-scaled local
    /// server for tests uses less.
    public var requestInterval: Duration
    /// Longest wait for one answer.
    public var requestTimeout: Duration
    /// The most eager paging mode a search may run in (`RequestSchedulingMode.within`): `fixed` against the
    /// public service, where one request a second is the rule for the whole server; any against another (a
    /// mirror its operator runs, a local test server).
    public var mostEagerMode: RequestSchedulingMode
    /// The most pages one search fetches: 100 pages of 100 places, 10,000 places, at most 100 s of the public
    /// service's requests (a query it counts 10 M places of would otherwise plan 100,000 pages).
    public var maxPagesPerSearch = 100

    /// Validates and makes a configuration. The public service needs a contact (it blocks anonymous
    /// User-Agents); a local server does not.
    public init(baseURL: String = MusicBrainzConfiguration.defaultBaseURL, contact: String? = nil,
                requestInterval: Duration = .seconds(1), requestTimeout: Duration = .seconds(30)) throws(PindropError) {
        var trimmed = baseURL.trimmingCharacters(in: .whitespaces)
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let url = URL(string: trimmed), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty, url.query == nil else {
            throw .invalidInput("the MusicBrainz URL must look like https://musicbrainz.org or http://127.0.0.1:8081, got \"\(baseURL.prefix(100))\"")
        }
        let contact = contact?.trimmingCharacters(in: .whitespaces)
        let cleanContact = (contact?.isEmpty ?? true) ? nil : contact
        if cleanContact == nil, host.lowercased().hasSuffix("musicbrainz.org") {
            throw .invalidInput("MusicBrainz requires a contact in the User-Agent: set \(Self.contactVariable) or --contact to your e-mail address or website")
        }
        if let cleanContact, cleanContact.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "(" || $0 == ")" }) {
            throw .invalidInput("the MusicBrainz contact cannot hold line breaks or parentheses")
        }
        guard requestInterval >= .zero, requestTimeout > .zero else {
            throw .invalidInput("the MusicBrainz request interval and timeout must be positive")
        }
        self.baseURL = trimmed
        self.contact = cleanContact
        self.requestInterval = requestInterval
        self.requestTimeout = requestTimeout
        self.mostEagerMode = host.lowercased().hasSuffix("musicbrainz.org") ? .fixed : .adaptive
        self.host = url.port.map { "\(host.lowercased()):\($0)" } ?? host.lowercased()
    }

    /// The service's host name and port ("musicbrainz.org", "127.0.0.1:8081"): whose requests share one pace.
    public let host: String

    /// Options first, then the environment, then defaults.
    public static func resolve(baseURL: String?, contact: String?,
                               environment: [String: String] = ProcessInfo.processInfo.environment) throws(PindropError) -> Self {
        let url = baseURL ?? environment[baseURLVariable].flatMap { $0.isEmpty ? nil : $0 } ?? defaultBaseURL
        return try Self(baseURL: url, contact: contact ?? environment[contactVariable])
    }

    /// `Pindrop/0.1.0 ( contact )`, the form MusicBrainz asks for.
    public var userAgent: String {
        "Pindrop/\(Self.clientVersion) ( \(contact ?? "no contact configured") )"
    }
}
