import Foundation
import PindropCore

/// The street map's features as an RFC 7946 FeatureCollection: lines as LineString (MultiLineString when in pieces),
/// areas as Polygon (MultiPolygon when they have several outer rings; an inner ring is the hole of the ring around
/// it), points of interest as Point, each position `[longitude, latitude]`.
struct StreetMapGeoJSON {
    /// The box asked about; large areas are cut to it (a pixel beyond it, so no edge shows where tiles meet).
    let box: BoundingBox
    /// The zoom the map draws at, or nil for the full detail: with one, positions are rounded to about a quarter
    /// of a pixel, points within half a pixel of the one before are left out, and areas are cut to the box.
    let zoom: Int?

    /// Areas with more points than this are cut to the box; smaller ones (buildings) are sent whole.
    static let clipPoints = 64

    /// The collection: the box asked about, the limit, the credits, whether the limit cut it short, whether the box
    /// is too wide to draw streets in (`zoomIn`), and the features.
    func collection(_ features: [MapFeature], limit: Int, attribution: [String], zoomIn: Bool) -> JSONWriter {
        var w = JSONWriter(capacity: 256 + features.count * 200)
        w.beginObject()
        w.key("type"); w.string("FeatureCollection")
        w.key("query")
        w.beginObject()
        Self.writeBox(box, into: &w)
        if let zoom { w.key("zoom"); w.number(zoom) }
        w.key("limit"); w.number(limit)
        w.endObject()
        w.key("attribution"); w.strings(attribution)
        w.key("truncated"); w.bool(features.count >= limit)
        w.key("zoomIn"); w.bool(zoomIn)
        w.key("features")
        w.beginArray()
        for feature in features { write(feature, into: &w) }
        w.endArray()
        w.endObject()
        return w
    }

    private func write(_ feature: MapFeature, into w: inout JSONWriter) {
        let parts = geometry(of: feature)
        guard !parts.isEmpty else { return }
        w.beginObject()
        w.key("type"); w.string("Feature")
        w.key("id"); w.string(feature.id)
        w.key("geometry")
        w.beginObject()
        switch (feature.kind, feature.isArea) {
        case (.poi, _):
            w.key("type"); w.string("Point")
            w.key("coordinates"); writePosition(parts[0][0], into: &w)
        case (_, false):
            w.key("type"); w.string(parts.count == 1 ? "LineString" : "MultiLineString")
            w.key("coordinates")
            if parts.count == 1 { writeLine(parts[0], into: &w) } else { w.beginArray(); for line in parts { writeLine(line, into: &w) }; w.endArray() }
        case (_, true):
            let polygons = Self.polygons(parts)
            w.key("type"); w.string(polygons.count == 1 ? "Polygon" : "MultiPolygon")
            w.key("coordinates")
            if polygons.count > 1 { w.beginArray() }
            for polygon in polygons {
                w.beginArray(); for ring in polygon { writeLine(ring, into: &w) }; w.endArray()
            }
            if polygons.count > 1 { w.endArray() }
        }
        w.endObject()
        w.key("properties")
        w.beginObject()
        w.key("kind"); w.string(feature.kind.rawValue)
        w.key("id"); w.string(feature.id)
        w.field("name", feature.name)
        w.field("category", feature.category)
        w.endObject()
        w.endObject()
    }

    /// The lines or closed rings to write, simplified for the zoom; lines of fewer than two points and rings of fewer
    /// than three corners are left out.
    private func geometry(of feature: MapFeature) -> [[Coordinate]] {
        if feature.kind == .poi { return feature.lines.filter { !$0.isEmpty }.map { [$0[0]] } }
        guard feature.isArea else { return feature.lines.map(simplified).filter { $0.count >= 2 } }
        return feature.lines.compactMap { line -> [Coordinate]? in
            guard line.count >= 3 else { return nil }
            var ring = line.first == line.last ? line : line + [line[0]]
            if let zoom, ring.count > Self.clipPoints {
                let margin = MapDetail.pixelDegrees(zoom: zoom)
                ring = Clipping.clip(ring: ring, to: BoundingBox(south: box.south - margin, west: box.west - margin,
                                                                 north: box.north + margin, east: box.east + margin))
            }
            ring = simplified(ring)
            return ring.count >= 4 ? ring : nil
        }
    }

    /// The points rounded for the zoom (or to 1e-6°), those within half a pixel of the one before left out.
    private func simplified(_ line: [Coordinate]) -> [Coordinate] {
        guard let zoom else {
            return line.map { Coordinate(latitude: ($0.latitude * 1e6).rounded() / 1e6, longitude: ($0.longitude * 1e6).rounded() / 1e6) }
        }
        let scale = pow(10, Double(Self.decimals(forZoom: zoom)))
        return Self.rounded(line, scale: scale, tolerance: MapDetail.pixelDegrees(zoom: zoom) / 2)
            .map { Coordinate(latitude: $0.1, longitude: $0.0) }
    }

    /// The rings grouped into polygons: a ring inside an odd number of the others is a hole of the smallest ring
    /// around it; every other ring is an outer ring, in the order given.
    static func polygons(_ rings: [[Coordinate]]) -> [[[Coordinate]]] {
        guard rings.count > 1 else { return rings.map { [$0] } }
        let boxes = rings.map { BoundingBox(covering: $0) ?? BoundingBox(south: 0, west: 0, north: 0, east: 0) }
        func holds(_ outer: Int, _ inner: Int) -> Bool {
            let (a, b) = (boxes[outer], boxes[inner])
            return outer != inner && a.south <= b.south && a.north >= b.north && a.west <= b.west && a.east >= b.east
                && Clipping.ring(rings[outer], contains: rings[inner][0])
        }
        let around = rings.indices.map { i in rings.indices.filter { holds($0, i) } }
        var polygons: [[[Coordinate]]] = [], polygonOf: [Int: Int] = [:]
        for i in rings.indices where around[i].count % 2 == 0 {
            polygonOf[i] = polygons.count
            polygons.append([rings[i]])
        }
        for i in rings.indices where around[i].count % 2 == 1 {
            // The ring right around a hole is the one around it that the most others are around.
            guard let parent = around[i].filter({ polygonOf[$0] != nil }).max(by: { around[$0].count < around[$1].count }) else { continue }
            polygons[polygonOf[parent]!].append(rings[i])
        }
        return polygons
    }

    /// Echoes the box as understood: `"bbox": [west, south, east, north]` (every map answer's `query` has it).
    static func writeBox(_ box: BoundingBox, into w: inout JSONWriter) {
        w.key("bbox")
        w.beginArray()
        for value in [box.west, box.south, box.east, box.north] { w.number(value) }
        w.endArray()
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

    /// Decimals of a degree that resolve a quarter of a pixel at the zoom (256-pixel tiles at the equator), 2 to 7.
    /// (Away from the equator a pixel spans fewer degrees of latitude; a quarter of one at the equator is still
    /// under a pixel up to 75° north and south.)
    static func decimals(forZoom zoom: Int) -> Int {
        let quarterPixel = MapDetail.pixelDegrees(zoom: zoom) / 4
        return min(7, max(2, Int((-log10(quarterPixel)).rounded(.up))))
    }

    private func writeLine(_ line: [Coordinate], into w: inout JSONWriter) {
        w.beginArray()
        for point in line { writePosition(point, into: &w) }
        w.endArray()
    }

    private func writePosition(_ point: Coordinate, into w: inout JSONWriter) {
        w.beginArray()
        w.number(point.longitude)
        w.number(point.latitude)
        w.endArray()
    }
}
