import Foundation
import PindropCore
import Testing

@Suite("coastline: clipping rings and lines to a box, land or water")
struct CoastlineTests {
    static let box = BoundingBox(south: 0, west: 0, north: 10, east: 10)

    static func ring(_ points: [(Double, Double)]) -> [Coordinate] {
        let ring = points.map { Coordinate(latitude: $0.1, longitude: $0.0) }
        return ring + [ring[0]]
    }

    static func isInside(_ c: Coordinate, _ box: BoundingBox) -> Bool {
        (box.south - 1e-9...box.north + 1e-9).contains(c.latitude) && (box.west - 1e-9...box.east + 1e-9).contains(c.longitude)
    }

    /// Twice the signed area (shoelace), in square degrees.
    static func area(_ ring: [Coordinate]) -> Double {
        abs(zip(ring, ring.dropFirst()).reduce(0) { $0 + $1.0.longitude * $1.1.latitude - $1.1.longitude * $1.0.latitude }) / 2
    }

    @Test("a ring clipped to a box stays closed and inside it, and keeps the overlapping area")
    func ringClippedStaysClosedAndInside() {
        // A diamond around (10, 5) reaching 6° either way: half of it lies in the box.
        let diamond = Self.ring([(4, 5), (10, -1), (16, 5), (10, 11)])
        let clipped = Clipping.clip(ring: diamond, to: Self.box)
        #expect(clipped.count >= 4)
        #expect(clipped.first == clipped.last)
        #expect(clipped.allSatisfy { Self.isInside($0, Self.box) })
        // Inside the box: the diamond's left half (36 square degrees) less the two corners cut off below 0 and
        // above 10 (0.5 each).
        #expect(abs(Self.area(clipped) - 35) < 1e-9)
    }

    @Test("a ring wholly inside passes unchanged; one around the box becomes the box; one outside vanishes")
    func ringCases() {
        let inside = Self.ring([(2, 2), (4, 2), (3, 4)])
        #expect(Clipping.clip(ring: inside, to: Self.box) == inside)
        let around = Self.ring([(-5, -5), (15, -5), (15, 15), (-5, 15)])
        let clipped = Clipping.clip(ring: around, to: Self.box)
        #expect(clipped.first == clipped.last)
        #expect(Set(clipped) == Set(Self.ring([(0, 0), (10, 0), (10, 10), (0, 10)])))
        #expect(abs(Self.area(clipped) - 100) < 1e-9)
        #expect(Clipping.clip(ring: Self.ring([(20, 20), (30, 20), (25, 30)]), to: Self.box).isEmpty)
    }

    @Test("a line keeps the runs of segments touching the box, each reaching its edge")
    func lineRuns() {
        // In, out far to the east, back in.
        let line = [(5.0, 5.0), (8.0, 5.0), (20.0, 5.0), (30.0, 5.0), (20.0, 6.0), (7.0, 6.0), (6.0, 7.0)]
            .map { Coordinate(latitude: $0.1, longitude: $0.0) }
        let runs = Clipping.clip(line: line, to: Self.box)
        #expect(runs.count == 2)
        #expect(runs[0].map(\.longitude) == [5, 8, 20])
        #expect(runs[1].map(\.longitude) == [20, 7, 6])
        #expect(Clipping.clip(line: Array(line[2...3]), to: Self.box).isEmpty)
    }

    @Test("the deepest ring decides: land, a lake in it, an island in the lake; shapes come in drawing order")
    func landAndWater() {
        let coastline = Coastline(shapes: [.crude: [
            .init(kind: .border, level: 0, points: [Coordinate(latitude: 0, longitude: 5), Coordinate(latitude: 10, longitude: 5)]),
            .init(kind: .land, level: 3, points: Self.ring([(4, 4), (6, 4), (6, 6), (4, 6)])),
            .init(kind: .water, level: 2, points: Self.ring([(2, 2), (8, 2), (8, 8), (2, 8)])),
            .init(kind: .land, level: 1, points: Self.ring([(0, 0), (10, 0), (10, 10), (0, 10)])),
        ]])
        let at = { (lon: Double, lat: Double) in coastline.isLand(Coordinate(latitude: lat, longitude: lon), resolution: .crude) }
        #expect(at(1, 1) == true)
        #expect(at(3, 3) == false)
        #expect(at(5, 5) == true)
        #expect(at(11, 5) == false)
        #expect(coastline.isLand(Coordinate(latitude: 1, longitude: 1), resolution: .intermediate) == nil)
        #expect(coastline.shapes[.crude]?.map(\.level) == [1, 2, 3, 0])
        // Cut to a box in the lake's corner: the land's ring and the lake's both come back, clipped and closed.
        let cut = coastline.shapes(in: BoundingBox(south: 1, west: 1, north: 3, east: 3), resolution: .crude)
        #expect(cut.map(\.kind) == [.land, .water])
        #expect(cut.allSatisfy { $0.points.first == $0.points.last })
        // Shapes smaller than the minimum extent are left out.
        #expect(coastline.shapes(in: Self.box, resolution: .crude, minimumExtent: 3).map(\.level) == [1, 2, 0])
    }
}
