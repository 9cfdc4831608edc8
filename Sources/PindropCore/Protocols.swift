import Foundation

/// Forward geocoding: text to places, best first.
public protocol PlaceSearching: Sendable {
    func search(_ request: SearchRequest) async throws -> [PlaceResult]
}

/// Search as you type.
public protocol Autocompleting: Sendable {
    func suggest(_ request: SuggestRequest) async throws -> [PlaceResult]
}

/// Point to the nearest place (or address).
public protocol ReverseGeocoding: Sendable {
    func reverse(_ request: ReverseRequest) async throws -> [PlaceResult]
}

/// Places or venues within a radius, nearest first. A remote provider answers one page (and ignores
/// `request.after`); a store pages (`PlaceStore.nearbyPage`).
public protocol NearbySearching: Sendable {
    func nearby(_ request: NearbyRequest) async throws -> [PlaceResult]
}

/// A place by its id ("geonames:2988507").
public protocol PlaceLookup: Sendable {
    /// The place, or nil when the id is unknown to this store.
    func place(id: String) async throws -> Place?
    /// The place with its name in the first of `languages` (best first) it has one in; by default `place(id:)`.
    func place(id: String, languages: [String]) async throws -> Place?
}

extension PlaceLookup {
    public func place(id: String, languages: [String]) async throws -> Place? { try await place(id: id) }
}

/// Everything the embedded engine answers; remote providers may conform to only some parts.
public typealias Geocoder = PlaceSearching & Autocompleting & ReverseGeocoding & NearbySearching & PlaceLookup

/// The user's saved places: unique by id, kept across restarts and index rebuilds.
public protocol SavedPlaces: Sendable {
    /// Saved places newest first: at most `limit` of those saved before the position `cursor` (a page's `next`;
    /// nil: from the newest). A place keeps its position while it is saved, so a page follows the one before it
    /// whatever was saved or removed in between.
    func page(after cursor: Int64?, limit: Int) async throws -> SavedPage
    /// How many places are saved.
    func count() async throws -> Int
    /// Saves a place, every field of it; saving it again keeps one copy (refreshed, in its position). A new place
    /// is saved only while fewer than `cap` are: the count is checked in the same transaction as the insert, so
    /// saves racing each other never pass it (`PindropError.savedPlacesFull`). Returns whether the place is new.
    @discardableResult func save(_ place: Place, cap: Int) async throws -> Bool
    /// Removes a place; returns whether it was saved.
    @discardableResult func remove(id: String) async throws -> Bool
    /// Whether the id is saved.
    func contains(id: String) async throws -> Bool
}

/// A page of saved places, newest first.
public struct SavedPage: Sendable {
    /// The places.
    public var places: [Place]
    /// The cursor of the next page (`SavedPlaces.page(after:limit:)`); nil after the last.
    public var next: Int64?

    /// Makes a page.
    public init(places: [Place], next: Int64?) { self.places = places; self.next = next }
}

/// Addresses the user picked or pinned, de-duplicated, newest first.
public protocol RecentPlaces: Sendable {
    /// Recent places newest first, `limit` of them from the `offset`th.
    func recent(offset: Int, limit: Int) async throws -> [Place]
    /// Records a place as the newest (moving it up if already there). The same address twice in a row (the same
    /// `displayName` as the newest, under another id) is kept once, as the newer.
    func remember(_ place: Place) async throws
}

extension SavedPlaces {
    /// Every saved place, newest first.
    public func all() async throws -> [Place] { try await page(after: nil, limit: Int.max).places }

    /// Saves a place, however many are saved.
    public func save(_ place: Place) async throws { try await save(place, cap: .max) }
}

extension PindropError {
    /// A new save past the `cap` of saved places.
    public static func savedPlacesFull(_ cap: Int) -> PindropError {
        .limitReached("\(cap) places are saved, the most this server keeps; remove some to save more")
    }
}

extension RecentPlaces {
    /// The most recent places, newest first.
    public func recent(limit: Int) async throws -> [Place] { try await recent(offset: 0, limit: limit) }
}

/// What a store says about itself for `/v1/status` and `pindrop status`.
public struct StoreStatus: Sendable, Hashable {
    /// Which store ("embedded").
    public var name: String
    /// How many places it holds.
    public var placeCount: Int
    /// Where it lives (a file path or URL), for people debugging.
    public var location: String
    /// Credits the data requires ("GeoNames (CC-BY 4.0)").
    public var attribution: [String]
    /// When the data answered was last imported, or the time an update brought it to; nil where the store does not know.
    public var dataUpdated: Date?
    /// The replication feed's sequence number of the last change applied (`pindrop replication`), if any.
    public var replicationSequence: Int?

    /// Makes a status.
    public init(name: String, placeCount: Int, location: String, attribution: [String], dataUpdated: Date? = nil,
                replicationSequence: Int? = nil) {
        self.name = name; self.placeCount = placeCount; self.location = location; self.attribution = attribution
        self.dataUpdated = dataUpdated; self.replicationSequence = replicationSequence
    }
}

/// A store that can describe itself.
public protocol StatusReporting: Sendable {
    func status() async throws -> StoreStatus
}

/// A store of places: what the facade (`PlaceService`) asks first and what `pindrop import` writes (through
/// its `PlaceStoreWriter`). The embedded index (PindropIndex) is one; a PostgreSQL/PostGIS store is another.
/// A store answers only from its own data (falling back to remote providers is the facade's job), and every
/// store passes the conformance suite `StoreConformance` in PindropTesting.
public protocol PlaceStore: Geocoder, StatusReporting, StreetMapping, MapLabeling {
    /// Credits the data requires, shown wherever its answers are ("Place data © GeoNames ...").
    var attribution: [String] { get }
    /// A fast path for batches of single-answer reverse questions, keeping `workers` separate caches;
    /// nil (the default) answers each point through `reverse`.
    func batchReverser(workers: Int) -> (any BatchReversing)?
    /// Every place within the radius (of the category, when given) in the stable nearby order (`NearbyPosition`:
    /// distance, then id), `request.limit` of those after `request.after`, and how many the radius holds in all.
    func nearbyPage(_ request: NearbyRequest) async throws -> NearbyPage
    /// The outline of the place with this id where the store keeps one (an area's rings, a street's or a stream's
    /// line); nil otherwise (the default), and answers then show the place's box or point (`PlaceGeometry.fallback`).
    func geometry(id: String) async throws -> PlaceGeometry?
}

extension PlaceStore {
    /// The places of `nearbyPage`.
    public func nearby(_ request: NearbyRequest) async throws -> [PlaceResult] {
        try await nearbyPage(request).results
    }

    /// No fast path: batches go through `reverse` point by point.
    public func batchReverser(workers: Int) -> (any BatchReversing)? { nil }

    /// No outlines kept.
    public func geometry(id: String) async throws -> PlaceGeometry? { nil }
}

/// Answers many "nearest place to this point" questions without allocating per point, for `reverse --batch`.
public protocol BatchReversing: Sendable {
    /// Appends to `out` the batch line for the nearest place to a point, exactly as the general path would
    /// write it (`WireEncoding.batchLine`), or returns false, appending nothing, when only the general path
    /// can answer (street-level data nearby). `worker` (below the count given to `batchReverser`) picks the cache.
    func appendAnswer(latitude: Double, longitude: Double, worker: Int, to out: inout [UInt8]) -> Bool
}

/// A person a server keeps saved places and recent addresses for.
public struct UserAccount: Sendable, Hashable {
    /// The store's id for the user.
    public var id: Int64
    /// The name given at `pindrop users add NAME`.
    public var name: String
    /// When the user was added (nil where a store does not know).
    public var added: Date?

    /// Makes an account.
    public init(id: Int64, name: String, added: Date? = nil) { self.id = id; self.name = name; self.added = added }

    /// Longest name a user may have, in characters.
    public static let maxNameLength = 64

    /// `name` when it can name a user: 1 to `maxNameLength` characters, no control character, no space at
    /// either end. Throws `invalidInput` saying why not. Every `UserAccounts` store checks names with it.
    public static func validatedName(_ name: String) throws(PindropError) -> String {
        guard !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw .invalidInput("a user's name must not be empty")
        }
        guard RequestLimits.fits(name, within: maxNameLength) else { throw .invalidInput("a user's name is at most \(maxNameLength) characters") }
        guard !name.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) }),
              name.trimmingCharacters(in: .whitespaces) == name else {
            throw .invalidInput("a user's name may not hold control characters or start or end with a space")
        }
        return name
    }
}

/// The people whose saved places and recent addresses a store keeps apart, each known by a bearer token
/// (`Authorization: Bearer <token>`). A shared server (the PostgreSQL store) asks every request to
/// /v1/saved and /v1/recent for a token; the embedded store also keeps one local user, for requests without
/// one, unless the server is started with `--require-token`.
public protocol UserAccounts: Sendable {
    /// Adds a user and returns a new token for them. Only the token's SHA-256 is stored, so it is shown once.
    /// Throws `invalidInput` when the name is empty or taken.
    func addUser(named name: String) async throws -> String
    /// Every user, oldest first.
    func users() async throws -> [UserAccount]
    /// Removes a user with their saved places and recent addresses; returns whether the name was known.
    @discardableResult func removeUser(named name: String) async throws -> Bool
    /// The user a token belongs to, or nil when no user has it.
    func user(withToken token: String) async throws -> UserAccount?
    /// A user's saved places and recent addresses.
    func places(of user: UserAccount) -> any SavedPlaces & RecentPlaces
    /// The one local user's, for requests without a token; nil where every request must name its user.
    var localUser: (any SavedPlaces & RecentPlaces)? { get }
}
