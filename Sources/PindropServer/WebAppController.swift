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
