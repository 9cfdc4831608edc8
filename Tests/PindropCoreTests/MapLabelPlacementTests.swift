import PindropCore
import Testing

@Suite("map labels: which names a view can show without overlap")
struct MapLabelPlacementTests {
    /// Offers a label; whether it was kept.
    static func kept(_ placement: inout MapLabelPlacement, _ label: MapLabel) -> Bool { placement.offer(label) }

    static func label(_ name: String, _ latitude: Double, _ longitude: Double, population: Int = 50_000) -> MapLabel {
        MapLabel(id: "test:\(name)", name: name, coordinate: Coordinate(latitude: latitude, longitude: longitude), population: population)
    }

    @Test("a name that would cover one placed before it is left out; far enough apart, both stay")
    func overlapDecides() {
        var placement = MapLabelPlacement(zoom: 12, limit: 10)
        #expect(Self.kept(&placement, Self.label("Helsinki", 60.1695, 24.9354, population: 658_864)))
        #expect(!Self.kept(&placement, Self.label("Kamppi", 60.1690, 24.9330)), "about 130 m west of Helsinki: 6 px at zoom 12, under its name")
        #expect(Self.kept(&placement, Self.label("Kallio", 60.1841, 24.9497)), "2 km away: 80 px at zoom 12")
        #expect(placement.placed.map(\.name) == ["Helsinki", "Kallio"])
        // Closer in, the same two fit side by side.
        var closer = MapLabelPlacement(zoom: 17, limit: 10)
        #expect(Self.kept(&closer, Self.label("Helsinki", 60.1695, 24.9354, population: 658_864)))
        #expect(Self.kept(&closer, Self.label("Kamppi", 60.1690, 24.9330)))
    }

    @Test("a world view names only great cities; villages come from zoom 10; the limit holds")
    func sizeAndLimit() {
        var world = MapLabelPlacement(zoom: 3, limit: 10)
        #expect(!Self.kept(&world, Self.label("Tampere", 61.4991, 23.7871, population: 206_000)))
        #expect(Self.kept(&world, Self.label("Tokyo", 35.6895, 139.6917, population: 8_336_599)))
        var village = MapLabelPlacement(zoom: 9, limit: 10)
        #expect(!Self.kept(&village, Self.label("Nuuksio", 60.30, 24.56, population: 0)))
        var close = MapLabelPlacement(zoom: 10, limit: 10)
        #expect(Self.kept(&close, Self.label("Nuuksio", 60.30, 24.56, population: 0)))
        var two = MapLabelPlacement(zoom: 12, limit: 2)
        for (i, name) in ["A", "B", "C"].enumerated() { two.offer(Self.label(name, 60, 20 + Double(i))) }
        #expect(two.placed.count == 2 && two.isFull)
    }
}
