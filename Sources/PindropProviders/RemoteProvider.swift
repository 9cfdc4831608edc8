import AsyncHTTPClient
import PindropCore

/// Who a remote provider is, apart from where it is reached: the facts its client, its HTTP plumbing and
/// `ProviderSetup` share, written once per provider.
public struct RemoteProviderProfile: Sendable, Hashable {
    /// Stable lower-case name, used in configuration, ids and each result's `source`: "photon".
    public let name: String
    /// The name people read in a picker: "OpenStreetMap Photon".
    public let displayName: String
    /// The name its error messages begin with and its URL errors use: "Photon".
    public let shortName: String
    /// The credit its terms require wherever its answers are shown.
    public let attribution: String
    /// The endpoint used when no URL is configured: "https://photon.komoot.io".
    public let defaultBaseURL: String

    /// Makes a profile; `shortName` defaults to `displayName`.
    public init(name: String, displayName: String, shortName: String? = nil, defaultBaseURL: String, attribution: String) {
        self.name = name
        self.displayName = displayName
        self.shortName = shortName ?? displayName
        self.attribution = attribution
        self.defaultBaseURL = defaultBaseURL
    }
}

/// A client of a remote service: a `PlaceProvider` whose name, display name, attribution and cache lifetime
/// come from its profile and its configuration.
public protocol RemoteProvider: PlaceProvider {
    /// Who the provider is.
    static var profile: RemoteProviderProfile { get }
    /// Where and how to reach it.
    var configuration: ProviderConfiguration { get }
}

extension RemoteProvider {
    /// The provider name: "photon".
    public static var providerName: String { profile.name }
    /// The endpoint used when no URL is configured.
    public static var defaultBaseURL: String { profile.defaultBaseURL }

    /// The profile's name.
    public var name: String { Self.profile.name }
    /// The profile's display name.
    public var displayName: String { Self.profile.displayName }
    /// The profile's attribution.
    public var attribution: String { Self.profile.attribution }
    /// The configured lifetime.
    public var cacheLifetime: Duration { configuration.cacheLifetime }
}

/// A remote provider that answers only with a key (Google, Mapbox, Foursquare): its client cannot be made
/// without one, and `ProviderSetup` lists it as unavailable until the variable is set.
public protocol KeyedProvider: RemoteProvider {
    /// The environment variable holding the key: "PINDROP_GOOGLE_API_KEY".
    static var keyVariable: String { get }
    /// What the provider calls its key, in the message when it is missing: "API key" (the default), "access token".
    static var keyName: String { get }
}

extension KeyedProvider {
    /// "API key".
    public static var keyName: String { "API key" }
}

extension ProviderHTTP {
    /// The plumbing of a client of `client`, a provider that needs no key.
    init<Client: RemoteProvider>(for client: Client.Type, configuration: ProviderConfiguration, httpClient: HTTPClient?) {
        self.init(provider: Client.profile.shortName, configuration: configuration, httpClient: httpClient, keyVariable: nil)
    }

    /// The plumbing of a client of `client`; throws `.invalidInput` ("Google needs an API key: set
    /// PINDROP_GOOGLE_API_KEY") when `configuration` has no key, so a keyless client is never made.
    init<Client: KeyedProvider>(keyed client: Client.Type, configuration: ProviderConfiguration,
                                httpClient: HTTPClient?) throws(PindropError) {
        guard configuration.apiKey != nil else {
            throw .invalidInput("\(Client.profile.displayName) needs an \(Client.keyName): set \(Client.keyVariable)")
        }
        self.init(provider: Client.profile.shortName, configuration: configuration, httpClient: httpClient,
                  keyVariable: Client.keyVariable)
    }
}
