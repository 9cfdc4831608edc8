import PindropCore

/// The implementations the server answers from; the CLI picks real ones, tests pick fakes.
public struct ServerServices: Sendable {
    /// Search, suggest, reverse, nearby, lookup by id, status and the street map: the one door into the engine.
    public var places: PlaceService
    /// The users, and each one's saved places and recent addresses (`/v1/saved`, `/v1/recent`), found by the
    /// request's bearer token, or the local user's for a request without one (unless `requireToken`).
    public var users: any UserAccounts
    /// Music place search (MusicBrainz) for `/v1/music/places`; nil answers 503 "not configured".
    public var music: (any MusicPlaceSearching)?
    /// Coastlines and borders for `/v1/basemap` (the CLI reads them with PindropImport's `CoastlineReader`); nil
    /// answers 503 and the web map falls back to the Natural Earth countries.
    public var coastline: Coastline?
    /// The metrics `/metrics` shows (the CLI makes them first, to pass them to the facade as its provider
    /// observer); nil makes a fresh set when `ServerConfiguration.metrics` is on.
    public var metrics: ServerMetrics?
    /// What `/readyz` checks beyond an open index (the CLI: the shared database answers within 2 s); nil when
    /// the problem it returns is none.
    public var readiness: (@Sendable () async -> PindropError?)?
    /// Where access-log lines go when `ServerConfiguration.accessLog` is on (in its `logFormat`, at `logLevel` info or
    /// below): standard error, or a test's file.
    public var accessLogSink: LogSink

    /// Bundles the services.
    public init(places: PlaceService, users: any UserAccounts,
                music: (any MusicPlaceSearching)? = nil, coastline: Coastline? = nil, metrics: ServerMetrics? = nil,
                readiness: (@Sendable () async -> PindropError?)? = nil, accessLogSink: LogSink = .standardError) {
        self.places = places
        self.users = users
        self.music = music
        self.coastline = coastline
        self.metrics = metrics
        self.readiness = readiness
        self.accessLogSink = accessLogSink
    }
}
