import Foundation
import PindropCore
import PindropImport
import Testing

/// Nominatim's import rules on small hand-made objects: which tag wins, what is no place, how addresses, interpolation
/// lines, entrances and boundaries read.
@Suite("OSM import rules, on hand-made objects")
struct OSMNominatimRulesTests {
    static let origin = Coordinate(latitude: 47.14, longitude: 9.52)

    /// The place a named node with these tags is: "key=type", or nil.
    static func place(_ tags: [String: String], name: String? = "X") -> String? {
        var tags = tags
        if let name { tags["name"] = name }
        let node = OSMNode(id: 1, coordinate: origin, tags: OSMTags(tags))
        return OSMFeatureExtractor().extract(from: OSMData(nodes: [node])).venues.first.map { "\($0.categoryKey)=\($0.category)" }
    }

    @Test("the first main key in key order wins; a fallback only alone, a building's last")
    func precedence() {
        #expect(Self.place(["amenity": "restaurant", "tourism": "hotel"]) == "amenity=restaurant")
        #expect(Self.place(["tourism": "museum", "leisure": "park"]) == "leisure=park")
        #expect(Self.place(["historic": "castle", "building": "yes"]) == "historic=castle")
        #expect(Self.place(["tourism": "attraction", "man_made": "tower"]) == "man_made=tower")
        #expect(Self.place(["building": "church"]) == "building=church")
        #expect(Self.place(["shop": "yes"]) == "shop=shop")
        #expect(Self.place(["shop": "no", "craft": "shoemaker"]) == "craft=shoemaker")
        #expect(Self.place(["amenity": "nightclub;restaurant"]) == "amenity=nightclub")
    }

    @Test("natural features, waterways, railways, place nodes and bus stops are places; a name is needed")
    func kinds() {
        #expect(Self.place(["natural": "peak"]) == "natural=peak")
        #expect(Self.place(["natural": "peak"], name: nil) == nil)
        #expect(Self.place(["natural": "water"]) == "natural=water")
        #expect(Self.place(["natural": "water", "water": "lake"]) == "water=lake")
        #expect(Self.place(["natural": "water", "water": "river"]) == nil)
        #expect(Self.place(["railway": "station"]) == "railway=station")
        #expect(Self.place(["railway": "rail"]) == nil)
        #expect(Self.place(["place": "village"]) == "place=village")
        #expect(Self.place(["highway": "bus_stop"]) == "highway=bus_stop")
        #expect(Self.place(["amenity": "parking_space"]) == nil)
        #expect(Self.place(["natural": "coastline"]) == nil)
        #expect(Self.place(["tourism": "information", "information": "guidepost"]) == "information=guidepost")
        #expect(Self.place(["amenity": "bench"], name: nil) == nil)
        // Named by another of its names: "brand" for a shop with no name of its own.
        let brand = OSMNode(id: 2, coordinate: Self.origin, tags: ["shop": "supermarket", "brand": "Spar"])
        #expect(OSMFeatureExtractor().extract(from: OSMData(nodes: [brand])).venues.first?.name == "Spar")
    }

    /// A square of nodes 1–4 around the origin (about 75 m a side) and a closed way 10 through them with `tags`.
    static func square(_ tags: OSMTags, more: [OSMNode] = []) -> OSMData {
        let corners = [(0.0, 0.0), (0.0, 0.001), (0.0005, 0.001), (0.0005, 0.0)]
        let nodes = corners.enumerated().map { i, c in
            OSMNode(id: Int64(i + 1), coordinate: Coordinate(latitude: origin.latitude + c.0, longitude: origin.longitude + c.1))
        }
        return OSMData(nodes: nodes + more, ways: [OSMWay(id: 10, nodeIDs: [1, 2, 3, 4, 1], tags: tags)])
    }

    @Test("a street is a street, a town drawn as a polygon an area; a bridge goes by its bridge:name")
    func waysThatAreNoPlaces() throws {
        let roundabout = OSMFeatureExtractor().extract(from: Self.square(["highway": "primary", "junction": "roundabout", "name": "Ring"]))
        #expect(roundabout.venues.isEmpty && roundabout.streets.count == 1)
        let village = OSMFeatureExtractor().extract(from: Self.square(["place": "village", "name": "Dorf"]))
        #expect(village.venues.isEmpty && village.areas.count == 1)
        let island = OSMFeatureExtractor().extract(from: Self.square(["place": "islet", "name": "Insel"]))
        #expect(island.venues.first?.category == "islet")
        let bridge = OSMFeatureExtractor().extract(from: Self.square(["highway": "primary", "bridge": "yes", "name": "Landstrasse",
                                                                      "bridge:name": "Rheinbrücke", "bridge:name:fr": "Pont du Rhin"]))
        let venue = try #require(bridge.venues.first)
        #expect(venue.name == "Rheinbrücke" && venue.categoryKey == "bridge" && venue.tags["name:fr"] == "Pont du Rhin")
        let box = try #require(venue.box)
        let edges = [box.south - Self.origin.latitude, box.west - Self.origin.longitude, box.north - Self.origin.latitude,
                     box.east - Self.origin.longitude]
        #expect(zip(edges, [0, 0, 0.0005, 0.001]).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    @Test("a stream is placed halfway along its line, not at the mean of its bends")
    func streamMidpoint() throws {
        let nodes = [(1, 0.0, 0.0), (2, 0.0, 0.001), (3, 0.0, 0.002), (4, 0.0, 0.003), (5, 0.004, 0.003)].map {
            OSMNode(id: Int64($0.0), coordinate: Coordinate(latitude: Self.origin.latitude + $0.1, longitude: Self.origin.longitude + $0.2))
        }
        let stream = OSMWay(id: 7, nodeIDs: [1, 2, 3, 4, 5], tags: ["waterway": "stream", "name": "Bach"])
        let venue = try #require(OSMFeatureExtractor().extract(from: OSMData(nodes: nodes, ways: [stream])).venues.first)
        // 7 thousandths of a degree long: halfway is 0.0005 up the last leg.
        #expect(abs(venue.coordinate.latitude - (Self.origin.latitude + 0.0005)) < 1e-9)
        #expect(abs(venue.coordinate.longitude - (Self.origin.longitude + 0.003)) < 1e-9)
    }

    @Test("a house number list is one point with each number, 0 is a number, addr:place stands for a street, addr:country a code")
    func addresses() {
        let tags: [(Int64, [String: String])] = [
            (1, ["addr:housenumber": "1;3, 5", "addr:street": "Gasse", "addr:postcode": "9490"]),
            (2, ["addr:housenumber": "0", "addr:street": "Gasse", "addr:country": "li"]),
            (3, ["addr:housenumber": "6", "addr:place": "Silum", "addr:suburb": "Oberdorf"]),
            (4, ["addr:housenumber": "7"]),
        ]
        let nodes = tags.map { OSMNode(id: $0.0, coordinate: Self.origin, tags: OSMTags($0.1)) }
        let points = OSMFeatureExtractor().extract(from: OSMData(nodes: nodes)).addressPoints
        #expect(points.map(\.address.houseNumber) == ["1;3, 5", "0", "6"])
        #expect(points[0].address.houseNumbers == ["1", "3", "5"] && points[0].address.postcode == "9490")
        #expect(points[1].address.houseNumbers == ["0"] && points[1].countryCode == "LI")
        #expect(points[2].address == Address(houseNumber: "6", suburb: "Oberdorf", place: "Silum"))
        #expect(Address(houseNumber: " 2, 2;").houseNumbers == ["2"] && Address(houseNumber: ";").houseNumbers.isEmpty)
    }

    @Test("a shop without an address takes its building's before a nearer address point's")
    func buildingAddress() throws {
        let inside = Coordinate(latitude: Self.origin.latitude + 0.0001, longitude: Self.origin.longitude + 0.0001)
        let more = [OSMNode(id: 20, coordinate: inside, tags: ["shop": "bakery", "name": "Beck"]),
                    OSMNode(id: 21, coordinate: Coordinate(latitude: inside.latitude, longitude: inside.longitude - 0.0002),
                            tags: ["addr:housenumber": "2", "addr:street": "Nebengasse"])]
        let data = Self.square(["building": "yes", "addr:housenumber": "5", "addr:street": "Hauptgasse"], more: more)
        let features = OSMFeatureExtractor().extract(from: data)
        let shop = try #require(features.venues.first { $0.name == "Beck" })
        #expect(shop.address?.street == "Hauptgasse" && shop.address?.houseNumber == "5" && !shop.addressIsTagged)
        // Outside the building, the nearest address point lends its address, as before.
        var outside = data
        outside.nodes[4].coordinate = Coordinate(latitude: inside.latitude, longitude: inside.longitude - 0.00025)
        let borrowed = try #require(OSMFeatureExtractor().extract(from: outside).venues.first { $0.name == "Beck" })
        #expect(borrowed.address?.street == "Nebengasse")
    }

    @Test("interpolation lines: each scheme, stops with the way's street, an unknown scheme left out")
    func interpolationSchemes() throws {
        let nodes = [OSMNode(id: 1, coordinate: Self.origin, tags: ["addr:housenumber": "2"]),
                     OSMNode(id: 2, coordinate: Coordinate(latitude: Self.origin.latitude, longitude: Self.origin.longitude + 0.001)),
                     OSMNode(id: 3, coordinate: Coordinate(latitude: Self.origin.latitude, longitude: Self.origin.longitude + 0.002),
                             tags: ["addr:housenumber": "12", "addr:street": "Eigene"])]
        let schemes = ["even", "odd", "all", "3", "alphabetic", "some"]
        let ways = schemes.enumerated().map { i, scheme in
            OSMWay(id: Int64(10 + i), nodeIDs: [1, 2, 3, 99], tags: ["addr:interpolation": scheme, "addr:street": "Weg", "addr:postcode": "9490"])
        }
        let lines = OSMFeatureExtractor().extract(from: OSMData(nodes: nodes, ways: ways)).interpolations
        #expect(lines.map(\.scheme) == [.even, .odd, .all, .step(3), .alphabetic])
        let line = try #require(lines.first)
        #expect(line.points.count == 3 && line.stops.map(\.point) == [0, 2])
        #expect(line.stops[0].address == Address(houseNumber: "2", street: "Weg", postcode: "9490"))
        #expect(line.stops[1].address == Address(houseNumber: "12", street: "Eigene", postcode: "9490"))
    }

    @Test("an entrance on a building's outline belongs to it; a boundary keeps its postal_code and its label node")
    func entrancesAndBoundaries() throws {
        var data = Self.square(["building": "yes"])
        data.nodes[1].tags = ["entrance": "main", "wheelchair": "yes", "note": "ring"]
        let entrance = try #require(OSMFeatureExtractor().extract(from: data).entrances.first)
        #expect(entrance.id == "osm:node/2" && entrance.kind == "main" && entrance.ways == ["osm:way/10"])
        #expect(entrance.tags == ["wheelchair": "yes"])
        var boundary = Self.square([:])
        boundary.nodes.append(OSMNode(id: 9, coordinate: Self.origin, tags: ["place": "village", "name": "Dorf"]))
        boundary.relations = [OSMRelation(id: 5, members: [OSMRelationMember(type: .way, id: 10, role: "outer"),
                                                           OSMRelationMember(type: .node, id: 9, role: "label")],
                                          tags: ["type": "boundary", "boundary": "administrative", "admin_level": "8", "name": "Dorf",
                                                 "postal_code": "9490"])]
        let area = try #require(OSMFeatureExtractor().extract(from: boundary).areas.first)
        #expect(area.postcode == "9490")
        #expect(area.label == "osm:node/9" && area.level == .city)
    }
}
