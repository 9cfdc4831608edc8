import Foundation
import PindropCore
import PindropImport
import PindropTesting
import Testing
@testable import PindropIndex

/// Liechtenstein's GeoNames places and its whole OSM extract, with the municipalities' boundaries.
enum LiechtensteinIndex {
    static let built: Result<PlaceIndex, any Error> = Result {
        let path = TestScratch.root + "/liechtenstein.sqlite"
        var records: [GeoNamesRecord] = []
        let files = try GeoNamesReader.locate(ConformanceData.geonamesFolder)
        // The country, its neighbours and the world's capitals: the towns around, and a quick build (the
        // nearest-place cells are cheap when places are spread over the globe, not all in the Alps).
        _ = try files.readPlaces(progress: nil) {
            if ["LI", "CH", "AT"].contains($0.countryCode) || $0.featureCode == "PPLC" { records.append($0) }
        }
        _ = try IndexBuilder.build(records: records, countries: try files.countries(), admin1Names: try files.admin1Names(),
                                   streets: OSMExtracts(files: [ConformanceData.liechtensteinExtract]), source: "test", to: path,
                                   progress: nil)
        return try PlaceIndex.open(at: path)
    }

    static var index: PlaceIndex { get throws { try built.get() } }
}

@Suite("Places inside places: answers from OSM boundaries (expectations from pyosmium + shapely)")
struct AreaAnswerTests {
    @Test("the Balzers exclave in the mountains answers Balzers at city level, with the chain above it")
    func balzersExclave() throws {
        let index = try LiechtensteinIndex.index
        let answer = try #require(try index.reverse(ReverseRequest(coordinate: Coordinate(latitude: 47.152407, longitude: 9.594155),
                                                                   level: .city)).first)
        #expect(answer.place.name == "Balzers")
        #expect(answer.place.displayName == "Balzers, Oberland, Liechtenstein")
        #expect(answer.place.address?.town == "Balzers" && answer.place.address?.county == "Oberland"
                && answer.place.address?.country == "Liechtenstein")
        // Its box covers the main part in the valley and the exclaves up on the mountain.
        let box = try #require(answer.place.boundingBox)
        #expect(box.contains(Coordinate(latitude: 47.152407, longitude: 9.594155)) && box.south < 47.06)
    }

    @Test("every seeded point in a municipality (590, in every exclave) answers that municipality at city level")
    func seededPoints() throws {
        let index = try LiechtensteinIndex.index
        let rows = try ConformanceData.areaFixture("liechtenstein/points.tsv")
        #expect(rows.count == 590)
        var wrong: [String] = []
        for row in rows {
            let c = Coordinate(latitude: Double(row[0])!, longitude: Double(row[1])!)
            let answer = try index.reverse(ReverseRequest(coordinate: c, level: .city)).first?.place.name
            if answer != row[2] { wrong.append("\(row[0]),\(row[1]) is in \(row[2]), answered \(answer ?? "nothing")") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.prefix(5))")
    }

    @Test("each level answers its own area, and a coarse level over a point in no area falls back")
    func levels() throws {
        let index = try LiechtensteinIndex.index
        let vaduz = Coordinate(latitude: 47.1410, longitude: 9.5215)
        func answer(_ level: ReverseLevel) throws -> String? { try index.reverse(ReverseRequest(coordinate: vaduz, level: level)).first?.place.name }
        #expect(try answer(.city) == "Vaduz")
        #expect(try answer(.suburb) == "Vaduz")  // no suburb areas here: the town
        #expect(try answer(.county) == "Oberland")
        #expect(try answer(.country) == "Liechtenstein")
        #expect(try answer(.state) == "Liechtenstein")  // no state level in Liechtenstein: the country
        // In Switzerland the extract's boundaries are cut: no area, so the town whose reach covers the point.
        let buchs = try index.reverse(ReverseRequest(coordinate: Coordinate(latitude: 47.1670, longitude: 9.4780), level: .city))
        #expect(buchs.first?.place.id.hasPrefix("geonames:") == true)
    }

    @Test("reverse asked by kind answers the nearest point of interest (node 1086214425, the alpine hut Guschg, 80 m off)")
    func reverseByKind() throws {
        let index = try LiechtensteinIndex.index
        let point = Coordinate(latitude: 47.12400621, longitude: 9.6047552), hut = Coordinate(latitude: 47.1246839, longitude: 9.6039388)
        var request = try ReverseRequest(coordinate: point, limit: 5, level: .building)
        request.layers = [.poi]
        let first = try #require(try index.reverse(request).first)
        #expect(first.place.id == "osm:node/1086214425" && first.place.name == "Guschg" && first.place.category == "alpine_hut")
        #expect(abs((first.distanceMeters ?? 0) - point.distance(to: hut)) < 1)
        // Asked for the address of the spot (the centre pin), no venue: nothing is within reach but the town's places.
        let plain = try #require(try index.reverse(ReverseRequest(coordinate: point, level: .building)).first)
        #expect(plain.place.kind != .venue)
        // On a house, the house comes first even asked by kind: the point is in its building.
        var onHouse = try ReverseRequest(coordinate: Coordinate(latitude: 47.1468657, longitude: 9.5117675), limit: 5, level: .building)
        onHouse.layers = [.address, .poi]
        #expect(try index.reverse(onHouse).first?.place.id == "osm:way/399332649")
    }

    @Test("addresses without addr:city get the municipality that holds them (898 objects; at least 99%)")
    func addressesWithoutCity() throws {
        let index = try LiechtensteinIndex.index
        let rows = try ConformanceData.areaFixture("liechtenstein/addresses-without-city.tsv")
        var townOfRow: [String: String] = [:]
        for i in index.contents.places.geonamesCount..<index.contents.places.count {
            if let extras = index.contents.places.extras(i) { townOfRow[extras.id] = extras.address.town ?? "-" }
        }
        var checked = 0, right = 0
        var wrong: [String] = []
        for row in rows {
            let id = "osm:\(["n": "node", "w": "way", "r": "relation"][row[0]]!)/\(row[1])"
            // One row per address: a second object with the same address is a point of the first's row.
            guard let town = townOfRow[id] else { continue }
            checked += 1
            if town == row[6] { right += 1 } else { wrong.append("\(id) \(row[5]) \(row[4]): \(town) not \(row[6])") }
        }
        #expect(checked >= 800)
        #expect(Double(right) >= 0.99 * Double(checked), "\(right) of \(checked); \(wrong.prefix(5))")
    }

    @Test("areas are found by name, with their box: a town's boundary lends Vaduz its box, a county is a place of its own")
    func areasByName() throws {
        let index = try LiechtensteinIndex.index
        let vaduz = try #require(try index.search(SearchRequest(text: "Vaduz", limit: 1)).first?.place)
        #expect(vaduz.id == "geonames:3042030")
        #expect(vaduz.boundingBox.map { $0.south < 47.09 && $0.north > 47.19 } == true)  // the municipality, up the mountain
        let oberland = try #require(try index.search(SearchRequest(text: "Oberland", limit: 1)).first?.place)
        #expect(oberland.id == "osm:relation/1156142" && oberland.displayName == "Oberland, Liechtenstein")
        #expect(oberland.boundingBox?.contains(Coordinate(latitude: 47.152407, longitude: 9.594155)) == true)
    }

    @Test("\"street, town\" finds that town's street, not a same-named one next door (307 queries; at least 95%)")
    func streetInTown() throws {
        let index = try LiechtensteinIndex.index
        let rows = try ConformanceData.areaFixture("liechtenstein/street-town.tsv")
        var wrong: [String] = []
        for row in rows {
            let top = try index.search(SearchRequest(text: row[0], limit: 1)).first?.place
            if top?.name != row[1] || top?.address?.town != row[2] { wrong.append("\(row[0]) → \(top?.displayName ?? "nothing")") }
        }
        #expect(Double(rows.count - wrong.count) >= 0.95 * Double(rows.count), "\(wrong.count) of \(rows.count) wrong: \(wrong.prefix(5))")
    }

    @Test("structured search keeps what lies inside: city=, county=, postcode=, state=")
    func structured() throws {
        let index = try LiechtensteinIndex.index
        func top(_ text: String, _ within: AreaFilter) throws -> [Place] {
            try index.search(SearchRequest(text: text, limit: 20, within: within)).map(\.place)
        }
        // Every answer for "Landstrasse" in Triesen is in Triesen; there are Landstrassen in other towns.
        let triesen = try top("Landstrasse", AreaFilter(city: "Triesen"))
        #expect(!triesen.isEmpty && triesen.allSatisfy { $0.address?.town == "Triesen" })
        #expect(try top("Landstrasse", .none).contains { $0.address?.town != "Triesen" })
        // A county holds its towns: Vaduz is in Oberland, not in Unterland.
        #expect(try top("Vaduz", AreaFilter(county: "Oberland")).first?.id == "geonames:3042030")
        #expect(try top("Vaduz", AreaFilter(county: "Unterland")).allSatisfy { $0.id != "geonames:3042030" })
        #expect(try top("Landstrasse", AreaFilter(postcode: "9495")).allSatisfy { $0.address?.postcode == "9495" })
        #expect(throws: PindropError.self) { try AreaFilter(city: "   ") }
    }

    @Test("central Helsinki, whose extract cuts every boundary: the answer names Helsinki and the district, Kamppi")
    func helsinkiCentre() throws {
        let index = try SharedIndex.index
        let point = Coordinate(latitude: 60.1687, longitude: 24.9310)
        let first = try #require(try index.reverse(ReverseRequest(coordinate: point)).first)
        #expect(first.place.displayName == "near Kamppi, Helsinki")
        #expect(try index.reverse(ReverseRequest(coordinate: point, level: .city)).first?.place.name == "Helsinki")
        // Inside the extract, an address names its town too.
        let address = try #require(try index.reverse(ReverseRequest(coordinate: Coordinate(latitude: 60.1687, longitude: 24.9410))).first)
        #expect(address.place.address?.town == "Helsinki")
    }
}
