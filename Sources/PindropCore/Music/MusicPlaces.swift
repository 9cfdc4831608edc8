/// A music place (studio, venue, ...) ready to pin: it has a location, an opening year at or after the
/// search's `since` year, and a lifespan on the map.
public struct MusicPlace: Sendable, Hashable, Codable, Identifiable {
    /// "musicbrainz:<MBID>".
    public var id: String
    public var name: String
    /// MusicBrainz's type ("Studio", "Venue", "Indoor arena", ...); nil when the place has none.
    public var type: String?
    public var coordinate: Coordinate
    /// The address as the service wrote it ("Vesterbrogade 1, 1620 København V"); nil when unknown.
    public var address: String?
    /// The city or country the place is in ("Copenhagen"); nil when unknown.
    public var area: String?
    /// The year it opened (from `life-span.begin`).
    public var openYear: Int
    /// Seconds the pin stays on the map: `openYear - sinceYear` (2017 with 1990 → 27).
    public var lifespanSeconds: Int
    /// Whether the coordinate came from geocoding the address (the service gave none).
    public var isGeocoded: Bool

    /// Makes a music place.
    public init(id: String, name: String, type: String?, coordinate: Coordinate, address: String?, area: String?,
                openYear: Int, lifespanSeconds: Int, isGeocoded: Bool) {
        self.id = id; self.name = name; self.type = type; self.coordinate = coordinate; self.address = address
        self.area = area; self.openYear = openYear; self.lifespanSeconds = lifespanSeconds; self.isGeocoded = isGeocoded
    }

    /// The place in the shape every other part of Pindrop shows (category = type, source "musicbrainz").
    public var place: Place {
        Place(id: id, name: name, displayName: [name, address ?? area].compactMap { $0 }.joined(separator: ", "),
              coordinate: coordinate, category: type?.lowercased(), source: "musicbrainz")
    }
}

/// A search for music places.
public struct MusicSearchRequest: Sendable, Hashable {
    /// Earliest `since` year accepted.
    public static let earliestSinceYear = 1000
    /// Default `since` year: places opened in or after 1990 are shown.
    public static let defaultSinceYear = 1990

    /// The search text (MusicBrainz reads it as a Lucene query: "Copenhagen", "type:studio AND area:Berlin").
    public var text: String
    /// Places that opened before this year are left out; pins live `openYear - sinceYear` seconds.
    public var sinceYear: Int
    /// How requests are spaced.
    public var mode: RequestSchedulingMode
    /// Stop after this many pages; nil fetches all.
    public var maxPages: Int?

    /// Validates and makes a request.
    public init(text: String, sinceYear: Int = MusicSearchRequest.defaultSinceYear, mode: RequestSchedulingMode = .polite,
                maxPages: Int? = nil) throws(PindropError) {
        self.text = try SearchRequest.validated(text: text)
        guard (Self.earliestSinceYear...9999).contains(sinceYear) else {
            throw .invalidInput("since must be a year between \(Self.earliestSinceYear) and 9999, got \(sinceYear)")
        }
        if let maxPages, maxPages < 1 { throw .invalidInput("max pages must be at least 1, got \(maxPages)") }
        self.sinceYear = sinceYear; self.mode = mode; self.maxPages = maxPages
    }
}

/// Searches music places page by page, as a sequence of events (pages, progress, then finished, failed or
/// cancelled). The server and the CLI see MusicBrainz only through this protocol.
public protocol MusicPlaceSearching: Sendable {
    /// A search that starts when iterated and stops when its task is cancelled.
    func searchMusicPlaces(_ request: MusicSearchRequest) -> PagedSearch<MusicPlace>
    /// How many searches a server runs at once; more are refused (503) until one ends.
    var maxConcurrentSearches: Int { get }
}

extension MusicPlaceSearching {
    /// No limit.
    public var maxConcurrentSearches: Int { .max }
}
