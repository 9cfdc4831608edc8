/// What a provider can answer: one per place protocol.
public enum ProviderCapability: String, Sendable, Hashable, CaseIterable, Codable {
    /// Text to places (`PlaceSearching`).
    case search
    /// Search as you type (`Autocompleting`).
    case suggest
    /// Point to address (`ReverseGeocoding`).
    case reverse
    /// Venues around a point (`NearbySearching`).
    case nearby
}

/// A source of places that the registry can put in a fallback chain: the embedded engine or a remote
/// service. A provider also conforms to the place protocols it answers (`PlaceSearching`, `Autocompleting`,
/// `ReverseGeocoding`, `NearbySearching`, optionally `PlaceLookup`); its capabilities are read from them.
public protocol PlaceProvider: Sendable {
    /// Stable lower-case name, used in configuration, `--provider`, ids and each result's `source`: "photon".
    var name: String { get }
    /// The name people read in a picker: "OpenStreetMap Photon".
    var displayName: String { get }
    /// The credit its terms require wherever its answers are shown.
    var attribution: String { get }
    /// How long its answers may be reused from the response cache; zero never caches.
    var cacheLifetime: Duration { get }
}

extension PlaceProvider {
    /// The capabilities this provider has, from the place protocols it conforms to.
    public var capabilities: [ProviderCapability] {
        ProviderCapability.allCases.filter(supports)
    }

    /// Whether the provider conforms to the protocol of `capability`.
    public func supports(_ capability: ProviderCapability) -> Bool {
        switch capability {
        case .search: self is any PlaceSearching
        case .suggest: self is any Autocompleting
        case .reverse: self is any ReverseGeocoding
        case .nearby: self is any NearbySearching
        }
    }

    /// This provider described as configured and usable.
    public var providerDescription: ProviderDescription {
        ProviderDescription(name: name, displayName: displayName, capabilities: capabilities,
                            attribution: attribution, unavailableReason: nil)
    }
}

/// A provider as listed by `pindrop providers` and `GET /v1/providers`, configured or not.
public struct ProviderDescription: Sendable, Hashable {
    /// Stable lower-case name: "google".
    public var name: String
    /// The name people read: "Google".
    public var displayName: String
    /// What it can answer once configured.
    public var capabilities: [ProviderCapability]
    /// The credit to show under the map when its answers are shown.
    public var attribution: String
    /// Why it cannot be used ("set PINDROP_GOOGLE_API_KEY"); nil when it is configured.
    public var unavailableReason: String?

    /// Makes a description.
    public init(name: String, displayName: String, capabilities: [ProviderCapability], attribution: String,
                unavailableReason: String?) {
        self.name = name; self.displayName = displayName; self.capabilities = capabilities
        self.attribution = attribution; self.unavailableReason = unavailableReason
    }

    /// Whether it is configured and can be asked.
    public var isConfigured: Bool { unavailableReason == nil }
}

/// The local store presented as a provider named "embedded", the first of every default chain. It answers
/// every capability and is never cached (it is faster than the cache's bookkeeping).
struct EmbeddedProvider: PlaceProvider, PlaceSearching, Autocompleting, ReverseGeocoding, NearbySearching, PlaceLookup {
    /// The provider name of the local store.
    static let providerName = "embedded"

    /// The store answering.
    let store: any PlaceStore
    let name = EmbeddedProvider.providerName
    static let displayName = "Embedded index (offline)"
    var displayName: String { Self.displayName }
    let cacheLifetime: Duration = .zero
    var attribution: String { store.attribution.joined(separator: "; ") }

    func search(_ request: SearchRequest) async throws -> [PlaceResult] { try await store.search(request) }
    func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] { try await store.suggest(request) }
    func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] { try await store.reverse(request) }
    func nearby(_ request: NearbyRequest) async throws -> [PlaceResult] { try await store.nearby(request) }
    func place(id: String) async throws -> Place? { try await store.place(id: id) }
    func place(id: String, languages: [String]) async throws -> Place? { try await store.place(id: id, languages: languages) }
}
