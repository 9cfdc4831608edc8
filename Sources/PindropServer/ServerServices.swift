import PindropCore

/// The implementations the server answers from; the CLI picks real ones, tests pick fakes.
public struct ServerServices: Sendable {
    /// Search, suggest, reverse, nearby, lookup by id, and status.
    public var geocoder: any Geocoder & StatusReporting
    /// The user's saved places.
    public var saved: any SavedPlaces
    /// The user's recent addresses.
    public var recent: any RecentPlaces

    /// Bundles the three services.
    public init(geocoder: any Geocoder & StatusReporting, saved: any SavedPlaces, recent: any RecentPlaces) {
        self.geocoder = geocoder
        self.saved = saved
        self.recent = recent
    }
}
