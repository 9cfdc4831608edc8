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
    /// The User-Agent variable.
    public static let userAgentVariable = "PINDROP_USER_AGENT"

    /// The facade for this environment over `store` (nil when no index is open: the provider "embedded" is then
    /// listed as unavailable). Throws `.invalidInput` for a malformed URL or timeout, or a chain naming an
    /// unknown, unconfigured or unsuitable provider.
    public static func service(store: (any PlaceStore)?, environment: [String: String] = ProcessInfo.processInfo.environment,
                               httpClient: HTTPClient = .failingFast,
                               cache: ResponseCache = ResponseCache()) throws(PindropError) -> PlaceService {
        func value(_ name: String) -> String? { environment[name]?.nonBlank }
        var timeout = Duration.seconds(5)
        if let text = value(timeoutVariable) {
            guard let seconds = Double(text), seconds > 0, seconds <= 600 else {
                throw .invalidInput("\(timeoutVariable) must be a number of seconds between 0 and 600, got \"\(text.prefix(20))\"")
            }
            timeout = .milliseconds(Int64(seconds * 1000))
        }
        let userAgent = value(userAgentVariable) ?? ProviderConfiguration.defaultUserAgent
        func configuration(_ name: String, urlVariable: String, defaultURL: String, keyVariable: String?) throws(PindropError) -> ProviderConfiguration {
            try ProviderConfiguration(name: name, baseURL: value(urlVariable) ?? defaultURL,
                                      apiKey: keyVariable.flatMap(value), timeout: timeout, userAgent: userAgent)
        }

        var providers: [any PlaceProvider] = []
        var unavailable: [ProviderDescription] = []
        providers.append(NominatimClient(configuration: try configuration("Nominatim", urlVariable: "PINDROP_NOMINATIM_URL",
                                                                           defaultURL: NominatimClient.defaultBaseURL, keyVariable: nil),
                                         httpClient: httpClient))
        providers.append(PhotonClient(configuration: try configuration("Photon", urlVariable: "PINDROP_PHOTON_URL",
                                                                       defaultURL: PhotonClient.defaultBaseURL, keyVariable: nil),
                                      httpClient: httpClient))

        let google = try configuration("Google", urlVariable: "PINDROP_GOOGLE_URL", defaultURL: GoogleClient.defaultBaseURL,
                                       keyVariable: GoogleClient.keyVariable)
        if google.apiKey != nil { providers.append(try GoogleClient(configuration: google, httpClient: httpClient)) } else {
            unavailable.append(ProviderDescription(name: GoogleClient.providerName, displayName: "Google",
                                                   capabilities: [.search, .suggest, .reverse], attribution: "Powered by Google",
                                                   unavailableReason: "set \(GoogleClient.keyVariable)"))
        }
        let mapbox = try configuration("Mapbox", urlVariable: "PINDROP_MAPBOX_URL", defaultURL: MapboxClient.defaultBaseURL,
                                       keyVariable: MapboxClient.keyVariable)
        if mapbox.apiKey != nil { providers.append(try MapboxClient(configuration: mapbox, httpClient: httpClient)) } else {
            unavailable.append(ProviderDescription(name: MapboxClient.providerName, displayName: "Mapbox",
                                                   capabilities: [.search, .suggest, .reverse], attribution: "© Mapbox",
                                                   unavailableReason: "set \(MapboxClient.keyVariable)"))
        }
        let foursquare = try configuration("Foursquare", urlVariable: "PINDROP_FOURSQUARE_URL",
                                           defaultURL: FoursquareClient.defaultBaseURL, keyVariable: FoursquareClient.keyVariable)
        if foursquare.apiKey != nil { providers.append(try FoursquareClient(configuration: foursquare, httpClient: httpClient)) } else {
            unavailable.append(ProviderDescription(name: FoursquareClient.providerName, displayName: "Foursquare",
                                                   capabilities: [.nearby], attribution: "Venue data © Foursquare",
                                                   unavailableReason: "set \(FoursquareClient.keyVariable)"))
        }

        var chains: [ProviderCapability: [String]] = [:]
        for capability in ProviderCapability.allCases {
            if let list = value(chainVariable(capability)) {
                chains[capability] = list.split(separator: ",").compactMap { String($0).nonBlank?.lowercased() }
            } else if store != nil {
                chains[capability] = [PlaceService.storeProviderName]
            }
        }
        return try PlaceService(store: store, remote: providers, unavailable: unavailable, chains: chains, cache: cache)
    }
}
