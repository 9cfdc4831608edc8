import Foundation
import PindropCore

/// Everything `pindrop serve` can be told, as a plain value with working defaults.
/// The CLI fills it from flags, then the environment (`PINDROP_*`, see `apply(environment:)`), then these defaults.
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
    /// Largest request body accepted (PUT/POST), in bytes; bigger bodies get 413.
    public var maxBodyBytes: Int = 16 * 1024

    /// The defaults.
    public init() {}

    /// Overrides fields from `PINDROP_*` variables: `PINDROP_HOST`, `PINDROP_PORT`, `PINDROP_SUGGEST_MIN_CHARS`,
    /// `PINDROP_LEAFLET_DIR`, `PINDROP_LEAFLET_URL`, `PINDROP_BASEMAP`, `PINDROP_TILE_URL`, `PINDROP_TILE_ATTRIBUTION`,
    /// `PINDROP_DEFAULT_CENTER` ("lat,lon"), `PINDROP_DEFAULT_ZOOM`, `PINDROP_PUBLIC_DIR`.
    /// Throws `.invalidInput` naming the variable when a value cannot be used.
    public mutating func apply(environment: [String: String]) throws(PindropError) {
        if let v = environment["PINDROP_HOST"], !v.isEmpty { host = v }
        if let v = environment["PINDROP_PORT"] { port = try Self.integer(v, name: "PINDROP_PORT", in: 0...65535) }
        if let v = environment["PINDROP_SUGGEST_MIN_CHARS"] {
            suggestMinChars = try Self.integer(v, name: "PINDROP_SUGGEST_MIN_CHARS", in: 1...RequestLimits.maxTextLength)
        }
        if let v = environment["PINDROP_LEAFLET_DIR"], !v.isEmpty { leafletDirectory = v }
        if let v = environment["PINDROP_LEAFLET_URL"] { leafletURL = v.isEmpty ? nil : v }
        if let v = environment["PINDROP_BASEMAP"] { basemapFile = v.isEmpty ? nil : v }
        if let v = environment["PINDROP_TILE_URL"] { tileURL = v }
        if let v = environment["PINDROP_TILE_ATTRIBUTION"] { tileAttribution = v }
        if let v = environment["PINDROP_DEFAULT_CENTER"] {
            do { defaultCenter = try Coordinate(parsing: v) } catch {
                throw .invalidInput("PINDROP_DEFAULT_CENTER: \(error.message)")
            }
        }
        if let v = environment["PINDROP_DEFAULT_ZOOM"] { defaultZoom = try Self.integer(v, name: "PINDROP_DEFAULT_ZOOM", in: 0...19) }
        if let v = environment["PINDROP_PUBLIC_DIR"] { publicDirectory = v.isEmpty ? nil : v }
    }

    /// Checks values that flags or the environment may have set; throws `.invalidInput` for the first bad one.
    public func validate() throws(PindropError) {
        guard (0...65535).contains(port) else { throw .invalidInput("port must be between 0 and 65535, got \(port)") }
        guard (1...RequestLimits.maxTextLength).contains(suggestMinChars) else {
            throw .invalidInput("suggest min-chars must be between 1 and \(RequestLimits.maxTextLength), got \(suggestMinChars)")
        }
        guard (0...19).contains(defaultZoom) else { throw .invalidInput("default zoom must be between 0 and 19, got \(defaultZoom)") }
        if let leafletURL, URL(string: leafletURL)?.scheme == nil {
            throw .invalidInput("leaflet URL must be an absolute URL like https://unpkg.com/leaflet@1.7.1/dist, got \"\(leafletURL)\"")
        }
    }

    private static func integer(_ text: String, name: String, in range: ClosedRange<Int>) throws(PindropError) -> Int {
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw .invalidInput("\(name) must be a whole number in \(range.lowerBound)...\(range.upperBound), got \"\(text.prefix(40))\"")
        }
        return value
    }

    /// The Natural Earth countries file shipped in the repository's `data/naturalearth/`, looked up from the
    /// working folder and then from this source file's checkout; nil when neither has it.
    public static func findBundledBasemap() -> String? {
        let relative = "data/naturalearth/countries-110m.geojson"
        let sourceRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(relative).path,
            sourceRoot.appendingPathComponent(relative).path,
        ]
        return candidates.first { FileManager.default.isReadableFile(atPath: $0) }
    }
}
