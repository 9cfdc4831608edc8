import PindropCore

/// The implementations the server answers from; the CLI picks real ones, tests pick fakes.
public struct ServerServices: Sendable {
    /// Search, suggest, reverse, nearby, lookup by id, and status.
    public var geocoder: any Geocoder & StatusReporting
    /// The user's saved places.
    public var saved: any SavedPlaces
    /// The user's recent addresses.
    public var recent: any RecentPlaces
    /// Streets and buildings for the web map's offline street basemap; nil serves empty collections.
    public var streetMap: (any StreetMapping)?
    /// Music place search (MusicBrainz) for `/v1/music/places`; nil answers 503 "not configured".
    public var music: (any MusicPlaceSearching)?
    /// The providers that answer search, suggest, reverse and nearby (the embedded engine and remote services,
    /// with fallback chains); nil answers from `geocoder` alone, as the provider "embedded".
    public var providers: ProviderRegistry? = nil

    /// Bundles the services.
    public init(geocoder: any Geocoder & StatusReporting, saved: any SavedPlaces, recent: any RecentPlaces,
                streetMap: (any StreetMapping)? = nil, music: (any MusicPlaceSearching)? = nil) {
        self.geocoder = geocoder
        self.saved = saved
        self.recent = recent
        self.streetMap = streetMap
        self.music = music
    }
}
