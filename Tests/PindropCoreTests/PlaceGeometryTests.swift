import PindropCore
import Testing

@Suite("A place's shape, its simplification, and Nominatim's layers")
struct PlaceGeometryTests {
    static func c(_ lon: Double, _ lat: Double) -> Coordinate { Coordinate(latitude: lat, longitude: lon) }

    @Test("without a kept outline a point is its point, as Nominatim gives a node, and a place with an extent its box")
    func fallback() {
        let vaduz = Place(id: "geonames:3042030", name: "Vaduz", displayName: "Vaduz", coordinate: Self.c(9.52, 47.14))
        #expect(PlaceGeometry.fallback(for: vaduz) == .point(Self.c(9.52, 47.14)))
        var area = Place(id: "osm:relation/1155948", name: "Triesenberg", displayName: "Triesenberg", coordinate: Self.c(9.54, 47.12),
                         boundingBox: BoundingBox(south: 47.08, west: 9.53, north: 47.17, east: 9.64), kind: .area)
        #expect(PlaceGeometry.fallback(for: area) == .polygon([[Self.c(9.53, 47.08), Self.c(9.64, 47.08), Self.c(9.64, 47.17),
                                                                Self.c(9.53, 47.17), Self.c(9.53, 47.08)]]))
        // A town known with its boundary's extent is that box too; a street's box is no area: its point.
        area.kind = .place
        guard case .polygon = PlaceGeometry.fallback(for: area) else { Issue.record("a town with an extent is its box"); return }
        area.kind = .street
        #expect(PlaceGeometry.fallback(for: area) == .point(Self.c(9.54, 47.12)))
    }

    @Test("Douglas–Peucker drops the points closer to the line than the tolerance, keeps the ends, and keeps rings whole")
    func simplification() {
        let line = [Self.c(0, 0), Self.c(1, 0.01), Self.c(2, -0.01), Self.c(3, 5), Self.c(4, 6), Self.c(5, 7)]
        // Every point but the peak lies within 0.1 of the lines between the kept ones.
        #expect(PlaceGeometry.lineString(line).simplified(tolerance: 0.1)
                == .lineString([Self.c(0, 0), Self.c(2, -0.01), Self.c(3, 5), Self.c(5, 7)]))
        #expect(PlaceGeometry.lineString(line).simplified(tolerance: 0) == .lineString(line))
        #expect(PlaceGeometry.lineString(line).simplified(tolerance: -1) == .lineString(line))
        #expect(PlaceGeometry.lineString(line).simplified(tolerance: 100) == .lineString([Self.c(0, 0), Self.c(5, 7)]))
        // A square with a point on each side: the side points go, the corners stay, at any tolerance.
        let square = [Self.c(0, 0), Self.c(1, 0), Self.c(2, 0), Self.c(2, 1), Self.c(2, 2), Self.c(1, 2), Self.c(0, 2), Self.c(0, 1), Self.c(0, 0)]
        let corners = [Self.c(0, 0), Self.c(2, 0), Self.c(2, 2), Self.c(0, 2), Self.c(0, 0)]
        #expect(PlaceGeometry.polygon([square]).simplified(tolerance: 0.5) == .polygon([corners]))
        guard case .multiPolygon(let parts) = PlaceGeometry.multiPolygon([[square]]).simplified(tolerance: 999) else {
            Issue.record("a multipolygon stays one"); return
        }
        #expect(parts[0][0].count == 4)
        #expect(parts[0][0].first == parts[0][0].last)
        #expect(PlaceGeometry.point(Self.c(1, 2)).simplified(tolerance: 5) == .point(Self.c(1, 2)))
    }

    @Test("layers parse from Nominatim's names in any case; another name is refused naming the known ones")
    func layers() throws {
        #expect(try PlaceLayer.layers(parsing: "address,POI, natural") == [.address, .poi, .natural])
        #expect(try PlaceLayer.layers(parsing: "") == [])
        #expect(throws: PindropError.self) { try PlaceLayer.layers(parsing: "address,sea") }
        #expect(FeatureType.city.ranks == 14...16)
        #expect(FeatureType.settlement.ranks == 8...20)
    }

    @Test("an object's layer by its class and address rank, as Nominatim's layer filter reads them",
          arguments: [("amenity", 30, PlaceLayer.poi), ("place", 30, .address), ("building", 30, .address), ("highway", 26, .address),
                      ("boundary", 16, .address), ("railway", 0, .railway), ("natural", 0, .natural), ("waterway", 0, .natural),
                      ("water", 0, .natural), ("man_made", 0, .manmade), ("leisure", 0, .manmade)])
    func layerOf(osmClass: String, rank: Int, layer: PlaceLayer) {
        #expect(PlaceLayer.of(osmClass: osmClass, addressRank: rank) == layer)
    }
}
