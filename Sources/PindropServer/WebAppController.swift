import Foundation
import Hummingbird
import PindropCore

/// What the web page needs besides the API: its settings (`/v1/config`), the offline basemap, and Leaflet
/// (served from the Debian packages' folder by a file middleware, or redirected to a configured URL).
struct WebAppController<Context: RequestContext>: Sendable {
    let configuration: ServerConfiguration
    /// The basemap's bytes, read once at start; nil when no file is configured or it cannot be read.
    let basemap: ByteBuffer?
    /// Whether `/v1/basemap` has coastline data to answer from.
    let coastline: Bool
    /// Whether `/v1/music/places` has a music service to ask.
    let music: Bool

    init(configuration: ServerConfiguration, coastline: Bool = false, music: Bool = false) {
        self.configuration = configuration
        self.coastline = coastline
        self.music = music
        self.basemap = configuration.basemapFile
            .flatMap { FileManager.default.contents(atPath: $0) }
            .map { ByteBuffer(bytes: $0) }
    }

    func addRoutes(to router: Router<Context>) {
        router.get("v1/config", use: config)
        router.get("basemap/countries.geojson", use: countries)
        if let base = configuration.leafletURL {
            let base = base.hasSuffix("/") ? String(base.dropLast()) : base
            router.get("vendor/leaflet/**") { _, context -> Response in
                let file = context.parameters.getCatchAll().joined(separator: "/")
                return .redirect(to: "\(base)/\(file)", type: .found)
            }
        }
    }

    /// The web app's `Content-Security-Policy`: its own scripts, styles and data, Leaflet's from `leafletURL`
    /// when it is set, map tiles from `tileURL`'s host (`{s}` is any subdomain), and no page may frame it
    /// (`frame-ancestors 'none'`, against clickjacking). Leaflet sets styles inline.
    static func contentSecurityPolicy(_ configuration: ServerConfiguration) -> String {
        func origin(_ url: String) -> String? {
            guard let scheme = url.range(of: "://") else { return nil }
            let rest = url[scheme.upperBound...]
            let host = rest.prefix { $0 != "/" }.replacingOccurrences(of: "{s}", with: "*")
            return host.isEmpty || host.contains("{") ? nil : url[..<scheme.upperBound] + host
        }
        let leaflet = configuration.leafletURL.flatMap(origin).map { " " + $0 } ?? ""
        let tiles = origin(configuration.tileURL).map { " " + $0 } ?? ""
        return "default-src 'self'; script-src 'self'\(leaflet); style-src 'self' 'unsafe-inline'\(leaflet); "
            + "img-src 'self' data:\(leaflet)\(tiles); connect-src 'self'; object-src 'none'; base-uri 'none'; "
            + "form-action 'self'; frame-ancestors 'none'"
    }

    @Sendable func config(_ request: Request, context: Context) async throws -> Response {
        var w = JSONWriter()
        w.beginObject()
        w.key("suggestMinChars"); w.number(configuration.suggestMinChars)
        w.key("recentShown"); w.number(configuration.recentShown)
        w.key("tileURL"); w.string(configuration.tileURL)
        w.key("tileAttribution"); w.string(configuration.tileAttribution)
        w.key("defaultCenter")
        w.beginObject()
        w.key("latitude"); w.number(configuration.defaultCenter.latitude)
        w.key("longitude"); w.number(configuration.defaultCenter.longitude)
        w.endObject()
        w.key("defaultZoom"); w.number(configuration.defaultZoom)
        w.key("basemap"); w.bool(basemap != nil)
        w.key("coastline"); w.bool(coastline)
        w.key("music"); w.bool(music)
        w.endObject()
        return Responses.json(w)
    }

    @Sendable func countries(_ request: Request, context: Context) async throws -> Response {
        guard let basemap else {
            throw PindropError.notFound("no offline basemap is configured (set PINDROP_BASEMAP to a countries GeoJSON file)")
        }
        return Response(status: .ok, headers: [.contentType: "application/geo+json", .cacheControl: "public, max-age=86400"],
                        body: .init(byteBuffer: basemap))
    }
}
