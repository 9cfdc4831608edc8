import Foundation
import PindropCore
import PindropImport
import PindropTesting
import Testing

@Suite("OSM feature extraction")
struct OSMFeatureExtractorTests {
    // MARK: The real Helsinki extract

    @Test("a street finds each of its nodes wherever its id lies among thousands (gaps, unsorted input), and leaves out those the file lacks")
    func wayNodesAmongMany() {
        // 5,000 nodes with ids spaced unevenly (runs and gaps), given in reverse order; a street through some of them,
        // across the lookup's runs of 64, through ids below the first, between two, and above the last.
        var nodes: [OSMNode] = []
        var id: Int64 = 1_000
        for i in 0..<5_000 {
            id += i % 97 == 0 ? 10_000 : Int64(1 + i % 3)
            nodes.append(OSMNode(id: id, coordinate: Coordinate(latitude: 60 + Double(i) * 1e-5, longitude: 24 + Double(i % 50) * 1e-5)))
        }
        let byID = Dictionary(uniqueKeysWithValues: nodes.map { ($0.id, $0.coordinate) })
        let wanted = [nodes[0].id, 999, nodes[63].id, nodes[64].id, nodes[65].id, nodes[64].id + 5_000, nodes[2_500].id,
                      nodes[4_998].id, nodes[4_999].id, nodes[4_999].id + 1]
        let street = OSMWay(id: 7, nodeIDs: wanted, tags: ["highway": "residential", "name": "Testikatu"])
        let features = OSMFeatureExtractor().extract(from: OSMData(nodes: nodes.reversed(), ways: [street]))
        // Locations are kept to OpenStreetMap's 10⁻⁷ degrees.
        let expected = wanted.compactMap { byID[$0] }, found = features.streets.first?.points ?? []
        #expect(expected.count == 7 && found.count == expected.count)
        #expect(zip(found, expected).allSatisfy { abs($0.latitude - $1.latitude) < 1e-7 && abs($0.longitude - $1.longitude) < 1e-7 })
    }

    @Test("tags: a key's value is found, replaced in place or removed, and tags compare as dictionaries do")
    func tags() {
        var tags: OSMTags = ["name": "Testikahvila", "amenity": "cafe"]
        tags["name"] = "Kahvila"
        #expect(tags["name"] == "Kahvila" && tags.count == 2)
        tags["amenity"] = "restaurant"
        tags["shop"] = nil
        tags["addr:street"] = "Testikatu"
        #expect(tags.map(\.key) == ["name", "amenity", "addr:street"])
        tags["name"] = nil
        #expect(tags == ["addr:street": "Testikatu", "amenity": "restaurant"] && tags != ["amenity": "restaurant"])
        #expect(OSMTags(["b": "2", "a": "1"]) == ["a": "1", "b": "2"] && OSMTags().isEmpty)
    }

    @Test("feature counts of the Helsinki extract")
    func helsinkiCounts() throws {
        let features = try OSMTestData.helsinkiFeatures()
        // 1,470 objects carry addr:housenumber; the 17 that name no street take the nearest one, all within 200 m.
        #expect(features.addressPoints.count == 1_470)
        #expect(features.streets.count == 807)
        #expect(Set(features.streets.map(\.name)).count == 100)
        let places = try FeatureFixture.rows("helsinki", "places.tsv")
        #expect(features.venues.count == places.count)
        #expect(features.buildings.count == 488)
        #expect(Set(features.venues.map(\.id)).count == features.venues.count)
        // The one-call path from a file, which decodes only the tags and relations the extraction reads, gives the same.
        let fromFile = try OSMFeatureExtractor.extract(fromFileAt: OSMTestData.helsinkiPath)
        #expect(fromFile.addressPoints == features.addressPoints && fromFile.venues == features.venues)
        #expect(fromFile.streets == features.streets && fromFile.buildings == features.buildings)
        #expect(fromFile.entrances == features.entrances && fromFile.interpolations == features.interpolations)
    }

    @Test("Liechtenstein read from disk with only the tags and relations the extraction reads gives the features of the whole file decoded")
    func filteredReadingLosesNothing() throws {
        let whole = OSMFeatureExtractor().extract(from: try OSMPBFReader.read(contentsOfFile: ConformanceData.liechtensteinExtract))
        let streamed = try OSMFeatureExtractor.extract(fromFileAt: ConformanceData.liechtensteinExtract)
        #expect(streamed.addressPoints == whole.addressPoints && streamed.venues == whole.venues)
        #expect(streamed.streets == whole.streets && streamed.buildings == whole.buildings)
        #expect(streamed.areas == whole.areas && streamed.skippedAreas == whole.skippedAreas)
        #expect(streamed.interpolations == whole.interpolations && streamed.entrances == whole.entrances)
        let places = try FeatureFixture.rows("liechtenstein", "places.tsv")
        #expect(whole.areas.count == 18 && whole.venues.count == places.count)
    }

    @Test("a file in any order gives the same features: ways before their nodes, relations first, read from disk in two passes")
    func anyBlockOrder() throws {
        let blocks = OSMTestPBF.blocks(of: OSMTestData.helsinkiBytes)
        let data = blocks.filter { $0.type == "OSMData" }
        #expect(data.count > 2)
        let reordered = OSMTestPBF.headerBlock()
            + data.reversed().flatMap { OSMTestPBF.fileBlock(type: "OSMData", blob: OSMTestPBF.rawBlob($0.content)) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pindrop-reversed-\(UUID().uuidString).osm.pbf").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(reordered)))
        defer { try? FileManager.default.removeItem(atPath: path) }

        let sorted = try OSMTestData.helsinkiFeatures()
        let fromReversed = try OSMFeatureExtractor.extract(fromFileAt: path)
        // The same objects; their order follows the file's.
        #expect(Set(fromReversed.streets) == Set(sorted.streets))
        #expect(Set(fromReversed.buildings) == Set(sorted.buildings))
        #expect(Set(fromReversed.addressPoints) == Set(sorted.addressPoints))
        #expect(Set(fromReversed.venues) == Set(sorted.venues))
        #expect(sorted.buildings.contains { $0.id.hasPrefix("osm:relation/") }, "multipolygon outlines come from the second pass's ways")
    }

    @Test("place types are counted as in the data: 213 restaurants, 26 hotels, shop=yes under its key")
    func helsinkiCategories() throws {
        let counts = Dictionary(grouping: try OSMTestData.helsinkiFeatures().venues, by: \.category).mapValues(\.count)
        let expected = Dictionary(grouping: try FeatureFixture.rows("helsinki", "places.tsv"), by: { $0[3] }).mapValues(\.count)
        #expect(counts == expected)
        #expect(counts["restaurant"] == 213 && counts["hotel"] == 26 && counts["museum"] == 6)
        #expect(counts["shop"] == 34)  // shop=yes falls back to the key
        #expect(counts["yes"] == nil)
    }

    @Test("Stockmann: a department store way, located at its outline's centroid, with its tagged address")
    func helsinkiStockmann() throws {
        let features = try OSMTestData.helsinkiFeatures()
        let stockmann = try #require(features.venues.first { $0.id == "osm:way/122595241" })
        #expect(stockmann.name == "Stockmann")
        #expect(stockmann.category == "department_store")
        #expect(stockmann.categoryKey == "shop")
        #expect(stockmann.address == Address(houseNumber: "52", street: "Aleksanterinkatu", postcode: "00100", town: "Helsinki"))
        #expect(stockmann.addressIsTagged)
        let outline = try #require(features.buildings.first { $0.id == "osm:way/122595241" })
        #expect(outline.kind == "retail")
        #expect(outline.outlines.count == 1 && outline.outlines[0].count == 18)
        let box = try #require(BoundingBox(covering: outline.outlines[0]))
        #expect(box.contains(stockmann.coordinate))
        #expect(abs(stockmann.coordinate.latitude - 60.16829) < 1e-4 && abs(stockmann.coordinate.longitude - 24.94216) < 1e-4)
    }

    @Test("venues from nodes, ways and multipolygons")
    func helsinkiVenues() throws {
        let venues = try OSMTestData.helsinkiFeatures().venues
        let roof = try #require(venues.first { $0.id == "osm:node/6049453017" })
        #expect(roof.name == "Stockmann Roof" && roof.category == "bar")
        let ateneum = try #require(venues.first { $0.id == "osm:way/8033120" })
        #expect(ateneum.name == "Ateneum" && ateneum.category == "museum")
        #expect(ateneum.address == Address(houseNumber: "2", street: "Kaivokatu", postcode: "00100", town: "Helsinki"))
        let marski = try #require(venues.first { $0.id == "osm:relation/5608" })
        #expect(marski.name == "Marski by Scandic" && marski.category == "hotel")
        #expect(marski.address?.street == "Mannerheimintie" && marski.address?.houseNumber == "10")
        // Street relations tagged shop=yes are not venues.
        #expect(!venues.contains { $0.name == "Yrjönkatu" })
    }

    @Test("a venue without an address borrows its building's, else the nearest address point's")
    func helsinkiBorrowedAddress() throws {
        let features = try OSMTestData.helsinkiFeatures()
        let hotel = try #require(features.venues.first { $0.id == "osm:node/56431685" })
        #expect(hotel.name == "Holiday Inn")
        #expect(!hotel.addressIsTagged)
        #expect(hotel.address == Address(houseNumber: "5", street: "Elielinaukio", postcode: "00100", town: "Helsinki"))
        let borrowed = features.venues.filter { !$0.addressIsTagged && $0.address?.street != nil && $0.address?.houseNumber != nil }
        #expect(borrowed.count > 500)
        // The borrowed address is a real address point within 100 m, or the address of the building the venue is in.
        let outlines = Dictionary(features.buildings.map { ($0.id, $0.outlines) }, uniquingKeysWith: { first, _ in first })
        for venue in borrowed {
            let lenders = features.addressPoints.filter { $0.address == venue.address }
            let near = lenders.map { $0.coordinate.distance(to: venue.coordinate) }.min() ?? .infinity
            let holder = lenders.contains { lender in
                outlines[lender.id].flatMap { BoundingBox(covering: $0.joined()) }?.contains(venue.coordinate) ?? false
            }
            #expect(near <= 100 || holder, "\(venue.id) \(venue.name)")
        }
    }

    @Test("address points: nodes, building ways and multipolygons")
    func helsinkiAddressPoints() throws {
        let points = try OSMTestData.helsinkiFeatures().addressPoints
        let node = try #require(points.first { $0.id == "osm:node/317574802" })
        #expect(node.address == Address(houseNumber: "5", street: "Mannerheimintie", town: "Helsinki"))
        #expect(abs(node.coordinate.latitude - 60.1694433) < 1e-7 && abs(node.coordinate.longitude - 24.9397734) < 1e-7)
        #expect(points.contains { $0.id == "osm:way/224711434" && $0.address.street == "Mannerheimintie" && $0.address.houseNumber == "5" })
        // 86 building ways name their street; one more takes the street it stands on.
        #expect(points.filter { $0.id.hasPrefix("osm:way/") }.count == 87)
        #expect(points.filter { $0.id.hasPrefix("osm:relation/") }.count == 6)
        #expect(points.allSatisfy { $0.address.houseNumber != nil && ($0.address.street != nil || $0.address.place != nil) })
        let box = BoundingBox(south: 60.16, west: 24.93, north: 60.18, east: 24.96)
        #expect(points.allSatisfy { box.contains($0.coordinate) })
    }

    @Test("streets: Mannerheimintie and Aleksanterinkatu as polylines")
    func helsinkiStreets() throws {
        let streets = try OSMTestData.helsinkiFeatures().streets
        let segment = try #require(streets.first { $0.id == "osm:way/24449353" })
        #expect(segment.name == "Mannerheimintie" && segment.highway == "primary" && segment.points.count == 3)
        #expect(streets.filter { $0.name == "Mannerheimintie" }.count == 48)
        // Way 22906934 (Mannerheimintie) has one of its two nodes outside the extract: no line left.
        #expect(!streets.contains { $0.id == "osm:way/22906934" })
        let aleksi = try #require(streets.first { $0.id == "osm:way/14601899" })
        #expect(aleksi.name == "Aleksanterinkatu" && aleksi.points.count == 10)
        #expect(abs(aleksi.points[0].latitude - 60.1684813) < 1e-7 && abs(aleksi.points[0].longitude - 24.9408376) < 1e-7)
        #expect(streets.allSatisfy { $0.points.count >= 2 })
    }

    @Test("buildings are closed rings, multipolygons included")
    func helsinkiBuildings() throws {
        let buildings = try OSMTestData.helsinkiFeatures().buildings
        #expect(buildings.filter { $0.id.hasPrefix("osm:relation/") }.count == 66)
        #expect(buildings.allSatisfy { $0.outlines.allSatisfy { $0.count >= 4 && $0.first == $0.last } })
        let archives = try #require(buildings.first { $0.id == "osm:relation/6066" })
        #expect(archives.name == "Kansallisarkisto" && archives.outlines.count == 1)
    }

    // MARK: The hand-made file

    @Test("the hand-made file: address points at node and centroid, a street, a cafe with a borrowed address")
    func handMade() throws {
        let data = try OSMPBFReader(bytes: OSMPBFReaderTests.handMadeFile()).readAll()
        let features = OSMFeatureExtractor().extract(from: data)
        let testikatu7 = Address(houseNumber: "7", street: "Testikatu")
        #expect(features.addressPoints.map(\.id) == ["osm:node/4", "osm:way/10"])
        #expect(features.addressPoints.allSatisfy { $0.address == testikatu7 })
        let centroid = features.addressPoints[1].coordinate
        #expect(abs(centroid.latitude - (60.17001 * 2 + 60.17002) / 3) < 1e-9)
        #expect(abs(centroid.longitude - (24.94 + 24.94002 + 24.94001) / 3) < 1e-9)
        #expect(features.streets == [OSMStreet(id: "osm:way/11", name: "Testikatu", highway: "residential",
                                               points: [data.nodes[0].coordinate, data.nodes[2].coordinate])])
        #expect(features.venues.count == 1)
        let cafe = try #require(features.venues.first)
        #expect(cafe.id == "osm:node/1" && cafe.name == "Testikahvila" && cafe.category == "cafe")
        #expect(cafe.address == testikatu7 && !cafe.addressIsTagged)
        #expect(features.buildings.map(\.id) == ["osm:way/10"])  // relation 20 has no building tag

        // Too far from a house to borrow its address, the cafe still lies on Testikatu.
        let strict = OSMFeatureExtractor(venueAddressRadiusMeters: 1).extract(from: data)
        #expect(strict.venues.first?.address == Address(street: "Testikatu"))
    }

    @Test("degenerate rings fall back to the mean of their vertices")
    func degenerateRing() throws {
        let nodes = [OSMNode(id: 1, coordinate: Coordinate(latitude: 60, longitude: 24)),
                     OSMNode(id: 2, coordinate: Coordinate(latitude: 60.001, longitude: 24.001)),
                     OSMNode(id: 3, coordinate: Coordinate(latitude: 60.002, longitude: 24.002))]
        let line = OSMWay(id: 5, nodeIDs: [1, 2, 3, 1], tags: ["building": "yes", "addr:housenumber": "1", "addr:street": "Viiva"])
        let features = OSMFeatureExtractor().extract(from: OSMData(nodes: nodes, ways: [line]))
        let point = try #require(features.addressPoints.first)
        #expect(abs(point.coordinate.latitude - 60.001) < 1e-9 && abs(point.coordinate.longitude - 24.001) < 1e-9)
    }

    @Test("multipolygons made of several outer ways are joined into one ring")
    func splitOuterRing() throws {
        let corners = [(1, 60.0, 24.0), (2, 60.0, 24.002), (3, 60.002, 24.002), (4, 60.002, 24.0)]
        let nodes = corners.map { OSMNode(id: Int64($0.0), coordinate: Coordinate(latitude: $0.1, longitude: $0.2)) }
        let ways = [OSMWay(id: 1, nodeIDs: [1, 2, 3]), OSMWay(id: 2, nodeIDs: [1, 4, 3])]  // second one reversed
        let relation = OSMRelation(id: 9, members: [OSMRelationMember(type: .way, id: 1, role: "outer"),
                                                    OSMRelationMember(type: .way, id: 2, role: "outer")],
                                   tags: ["type": "multipolygon", "building": "yes", "name": "Kortteli", "tourism": "museum"])
        let features = OSMFeatureExtractor().extract(from: OSMData(nodes: nodes, ways: ways, relations: [relation]))
        let building = try #require(features.buildings.first)
        #expect(building.outlines.count == 1 && building.outlines[0].count == 5)
        let museum = try #require(features.venues.first)
        #expect(museum.id == "osm:relation/9" && museum.category == "museum")
        #expect(abs(museum.coordinate.latitude - 60.001) < 1e-9 && abs(museum.coordinate.longitude - 24.001) < 1e-9)
    }

    @Test("categories: the value, the key for 'yes', the first of a list")
    func categories() {
        func category(_ tags: [String: String]) -> String? {
            let node = OSMNode(id: 1, coordinate: Coordinate(latitude: 0, longitude: 0), tags: OSMTags(tags.merging(["name": "X"]) { a, _ in a }))
            return OSMFeatureExtractor().extract(from: OSMData(nodes: [node])).venues.first?.category
        }
        #expect(category(["amenity": "cafe"]) == "cafe")
        #expect(category(["shop": "yes"]) == "shop")
        #expect(category(["amenity": "nightclub;restaurant"]) == "nightclub")
        #expect(category(["office": "Company"]) == "company")
        #expect(category(["amenity": "restaurant", "shop": "deli"]) == "restaurant")
        #expect(category(["shop": "no", "craft": "shoemaker"]) == "shoemaker")
        #expect(category(["highway": "bus_stop"]) == "bus_stop")
        #expect(category(["highway": "crossing"]) == nil)
    }
}
