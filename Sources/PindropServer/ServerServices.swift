import PindropCore

/// The implementations the server answers from; the CLI picks real ones, tests pick fakes.
public struct ServerServices: Sendable {
    /// Search, suggest, reverse, nearby, lookup by id, status and the street map: the one door into the engine.
    public var places: PlaceService
    /// The user's saved places.
    public var saved: any SavedPlaces
    /// The user's recent addresses.
    public var recent: any RecentPlaces
    /// Music place search (MusicBrainz) for `/v1/music/places`; nil answers 503 "not configured".
    public var music: (any MusicPlaceSearching)?
    /// Coastlines and borders for `/v1/basemap` (the CLI reads them with PindropImport's `CoastlineReader`); nil
    /// answers 503 and the web map falls back to the Natural Earth countries.
    public var coastline: Coastline?

    /// Bundles the services.
    public init(places: PlaceService, saved: any SavedPlaces, recent: any RecentPlaces,
                music: (any MusicPlaceSearching)? = nil, coastline: Coastline? = nil) {
        self.places = places
        self.saved = saved
        self.recent = recent
        self.music = music
        self.coastline = coastline
    }
}
