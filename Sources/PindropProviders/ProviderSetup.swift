import AsyncHTTPClient
import Foundation
import PindropCore

/// Builds the facade from the environment: which remote providers are configured (a URL, and a key where one is
/// needed), and the fallback chain of each capability, around the store. The CLI calls
/// `service(store:environment:)`; tests pass a dictionary.
///
/// Variables (all optional):
/// - `PINDROP_NOMINATIM_URL`, `PINDROP_PHOTON_URL`: keyless, so always configured (public instances by default).
/// - `PINDROP_GOOGLE_API_KEY` / `PINDROP_GOOGLE_URL`, `PINDROP_MAPBOX_API_KEY` / `PINDROP_MAPBOX_URL`,
///   `PINDROP_FOURSQUARE_API_KEY` / `PINDROP_FOURSQUARE_URL`: configured only with a key.
/// - `PINDROP_SEARCH_PROVIDERS`, `PINDROP_SUGGEST_PROVIDERS`, `PINDROP_REVERSE_PROVIDERS`,
///   `PINDROP_NEARBY_PROVIDERS`: comma-separated fallback chains ("photon,embedded"); default "embedded".
/// - `PINDROP_PROVIDER_TIMEOUT`: seconds to wait for one remote answer (default 5).
/// - `PINDROP_USER_AGENT`: the User-Agent sent to providers (add a contact for the public Nominatim).
public enum ProviderSetup {
    /// The variable holding the fallback chain of a capability: "PINDROP_SEARCH_PROVIDERS".
    public static func chainVariable(_ capability: ProviderCapability) -> String {
        "PINDROP_\(capability.rawValue.uppercased())_PROVIDERS"
    }

    /// The timeout variable.
    public static let timeoutVariable = "PINDROP_PROVIDER_TIMEOUT"
    /// Seconds to wait for one remote answer unless `PINDROP_PROVIDER_TIMEOUT` says otherwise.
    public static let defaultTimeoutSeconds = 5
    /// The User-Agent variable.
    public static let userAgentVariable = "PINDROP_USER_AGENT"

    /// The variable holding the URL of a provider: "PINDROP_PHOTON_URL".
    public static func urlVariable(_ profile: RemoteProviderProfile) -> String {
        "PINDROP_\(profile.name.uppercased())_URL"
    }

    /// The facade for this environment over `store` (nil when no index is open: the provider "embedded" is then
    /// listed as unavailable). Throws `.invalidInput` for a malformed URL or timeout, or a chain naming an
    /// unknown, unconfigured or unsuitable provider. `cache` and `breaker` are the facade's (tests pass their own,
    /// with a virtual clock). `observer` hears of every question a remote provider is asked (the server's metrics).
    public static func service(store: (any PlaceStore)?, environment: [String: String] = ProcessInfo.processInfo.environment,
                               httpClient: HTTPClient? = nil, cache: ResponseCache = ResponseCache(),
                               breaker: CircuitBreaker = CircuitBreaker(),
                               observer: (any ProviderCallObserving)? = nil) throws(PindropError) -> PlaceService {
        func value(_ name: String) -> String? { environment[name]?.nonBlank }
        var timeout = Duration.seconds(defaultTimeoutSeconds)
        if let text = value(timeoutVariable) {
            guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                throw .invalidInput("\(timeoutVariable) must be a number of seconds between 0 and 600, got \"\(text.prefix(20))\"")
            }
            timeout = .milliseconds(Int64(seconds * 1000))
        }
        let userAgent = value(userAgentVariable) ?? ProviderConfiguration.defaultUserAgent
        func configuration(_ profile: RemoteProviderProfile, keyVariable: String?) throws(PindropError) -> ProviderConfiguration {
            try ProviderConfiguration(name: profile.shortName, baseURL: value(urlVariable(profile)) ?? profile.defaultBaseURL,
                                      apiKey: keyVariable.flatMap(value), timeout: timeout, userAgent: userAgent)
        }

        var providers: [any PlaceProvider] = [
            NominatimClient(configuration: try configuration(NominatimClient.profile, keyVariable: nil), httpClient: httpClient),
            PhotonClient(configuration: try configuration(PhotonClient.profile, keyVariable: nil), httpClient: httpClient),
        ]
        var unavailable: [ProviderDescription] = []
        for keyed in keyedProviders {
            let configured = try configuration(keyed.profile, keyVariable: keyed.keyVariable)
            if configured.apiKey != nil {
                providers.append(try keyed.make(configured, httpClient))
            } else {
                unavailable.append(keyed.unconfigured)
            }
        }

        var chains: [ProviderCapability: [String]] = [:]
        for capability in ProviderCapability.allCases {
            if let list = value(chainVariable(capability)) {
                chains[capability] = list.split(separator: ",").compactMap { String($0).nonBlank?.lowercased() }
            } else if store != nil {
                chains[capability] = [PlaceService.storeProviderName]
            }
        }
        return try PlaceService(store: store, remote: providers, unavailable: unavailable, chains: chains, cache: cache,
                                breaker: breaker, observer: observer)
    }
}

/// A provider that needs a key: made when its key is set, listed as unavailable (with what it would answer)
/// when not.
private struct KeyedEntry: Sendable {
    let profile: RemoteProviderProfile
    let keyVariable: String
    /// What it answers once configured (the client's conformances say the same).
    let capabilities: [ProviderCapability]
    /// The credit listed while it is unconfigured; shorter than the client's for Google and Mapbox, as
    /// `/v1/providers` has always said it.
    let listedAttribution: String
    let make: @Sendable (ProviderConfiguration, HTTPClient?) throws(PindropError) -> any PlaceProvider

    init<Client: KeyedProvider>(_ client: Client.Type, capabilities: [ProviderCapability], listedAttribution: String? = nil,
                                make: @escaping @Sendable (ProviderConfiguration, HTTPClient?) throws(PindropError) -> any PlaceProvider) {
        self.profile = Client.profile
        self.keyVariable = Client.keyVariable
        self.capabilities = capabilities
        self.listedAttribution = listedAttribution ?? Client.profile.attribution
        self.make = make
    }

    /// How `/v1/providers` lists it until the key is set.
    var unconfigured: ProviderDescription {
        ProviderDescription(name: profile.name, displayName: profile.displayName, capabilities: capabilities,
                            attribution: listedAttribution, unavailableReason: "set \(keyVariable)")
    }
}

extension ProviderSetup {
    /// The providers that need a key, in the order they are listed.
    private static let keyedProviders = [
        KeyedEntry(GoogleClient.self, capabilities: [.search, .suggest, .reverse], listedAttribution: "Powered by Google") {
            (configuration, httpClient) throws(PindropError) in try GoogleClient(configuration: configuration, httpClient: httpClient)
        },
        KeyedEntry(MapboxClient.self, capabilities: [.search, .suggest, .reverse], listedAttribution: "© Mapbox") {
            (configuration, httpClient) throws(PindropError) in try MapboxClient(configuration: configuration, httpClient: httpClient)
        },
        KeyedEntry(FoursquareClient.self, capabilities: [.nearby]) {
            (configuration, httpClient) throws(PindropError) in try FoursquareClient(configuration: configuration, httpClient: httpClient)
        },
    ]
}
