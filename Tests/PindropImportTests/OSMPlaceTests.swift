import Foundation
import PindropCore
import PindropImport
import PindropTesting
import Testing

/// Every named object that is a place of its own, held to what pyosmium and Nominatim's import style make of the same
/// file (Tests/Fixtures/features, scripts/feature-expectations.py).
@Suite("OSM places: every named object with its class and type, as Nominatim reads them")
struct OSMPlaceTests {
    static let extracts = ["liechtenstein", "helsinki"]

    static func features(_ extract: String) throws -> OSMFeatures {
        extract == "liechtenstein" ? try OSMLiechtenstein.features() : try OSMTestData.helsinkiFeatures()
    }

    @Test("exactly the places the fixture lists, each with its class, type and name", arguments: extracts)
    func samePlaces(extract: String) throws {
        let venues = try Self.features(extract).venues
        let rows = try FeatureFixture.rows(extract, "places.tsv")
        let expected = Dictionary(uniqueKeysWithValues: rows.map { (FeatureFixture.id($0[0], $0[1]), $0) })
        let found = Dictionary(venues.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(found.count == venues.count, "one place per object")
        let missing = Set(expected.keys).subtracting(found.keys), extra = Set(found.keys).subtracting(expected.keys)
        #expect(missing.isEmpty, "not read: \(missing.sorted().prefix(10).map { "\($0) \(expected[$0]!.dropFirst(2).prefix(3))" })")
        #expect(extra.isEmpty, "not places: \(extra.sorted().prefix(10).map { "\($0) \(found[$0]!.categoryKey)=\(found[$0]!.category)" })")
        var wrong: [String] = []
        for (id, row) in expected {
            guard let venue = found[id] else { continue }
            if venue.categoryKey != row[2] || venue.category != row[3] || venue.name != row[4] {
                wrong.append("\(id): \(venue.categoryKey)=\(venue.category) \"\(venue.name)\", expected \(row[2])=\(row[3]) \"\(row[4])\"")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.sorted().prefix(10))")
        #expect(rows.count > 1_500)
    }

    @Test("a node is a place at its point; a way or relation at a point of its box, the box its nodes' ", arguments: extracts)
    func pointsAndBoxes(extract: String) throws {
        let found = Dictionary(try Self.features(extract).venues.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var wrong: [String] = []
        for row in try FeatureFixture.rows(extract, "places.tsv") {
            let id = FeatureFixture.id(row[0], row[1])
            guard let venue = found[id] else { continue }
            let c = venue.coordinate
            if let lat = Double(row[5]), let lon = Double(row[6]) {
                // A node exactly; a way's centroid or midpoint as shapely computes it.
                let tolerance = row[0] == "n" ? 1e-7 : 1e-6
                if abs(c.latitude - lat) > tolerance || abs(c.longitude - lon) > tolerance { wrong.append("\(id) at \(c), expected \(lat),\(lon)") }
            }
            guard row[0] != "n" else {
                if venue.box != nil { wrong.append("\(id): a node with a box") }
                continue
            }
            let edges = row[7...10].compactMap(Double.init)
            guard let box = venue.box, edges.count == 4 else { wrong.append("\(id): no box"); continue }
            if zip([box.south, box.west, box.north, box.east], edges).contains(where: { abs($0 - $1) > 1e-7 }) {
                wrong.append("\(id): box \(box), expected \(edges)")
            }
            // The centroid of a concave outline may lie outside it, never outside its box.
            let slack = BoundingBox(south: box.south - 1e-9, west: box.west - 1e-9, north: box.north + 1e-9, east: box.east + 1e-9)
            if !slack.contains(c) { wrong.append("\(id): point \(c) outside its box") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.prefix(10))")
    }

    @Test("Liechtenstein's peaks, rivers, streams, place nodes and bus stops are places of their class")
    func liechtensteinClasses() throws {
        let venues = try OSMLiechtenstein.features().venues
        let rows = try FeatureFixture.rows("liechtenstein", "places.tsv")
        for (key, category) in [("natural", "peak"), ("waterway", "river"), ("waterway", "stream"), ("place", "village"),
                                ("place", "hamlet"), ("highway", "bus_stop"), ("landuse", "cemetery"), ("natural", "water")] {
            let expected = Set(rows.filter { $0[2] == key && $0[3] == category }.map { FeatureFixture.id($0[0], $0[1]) })
            let found = Set(venues.filter { $0.categoryKey == key && $0.category == category }.map(\.id))
            #expect(!expected.isEmpty && found == expected, "\(key)=\(category): \(found.count) of \(expected.count)")
        }
        let vaduz = try #require(venues.first { $0.categoryKey == "place" && $0.name == "Vaduz" })
        #expect(vaduz.category == "town" && vaduz.id.hasPrefix("osm:node/") && vaduz.box == nil)
    }

    @Test("boundaries and towns drawn as areas are areas, not places of this kind", arguments: extracts)
    func areasAreNotPlaces(extract: String) throws {
        let ids = Set(try Self.features(extract).venues.map(\.id))
        let areas = try FeatureFixture.rows(extract, "areas-not-places.tsv").map { FeatureFixture.id($0[0], $0[1]) }
        #expect(!areas.isEmpty)
        #expect(ids.isDisjoint(with: areas))
    }

    @Test("a place keeps its names in every language and form and its extra tags, and nothing else", arguments: extracts)
    func namesAndExtraTags(extract: String) throws {
        let found = Dictionary(try Self.features(extract).venues.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let places = Dictionary(try FeatureFixture.rows(extract, "places.tsv").map { (FeatureFixture.id($0[0], $0[1]), $0[2]) },
                                uniquingKeysWith: { first, _ in first })
        let tagRows = try FeatureFixture.rows(extract, "tags.tsv")
        let byObject = Dictionary(grouping: tagRows) { FeatureFixture.id($0[0], $0[1]) }
        var wrong: [String] = [], withLanguages = 0
        for (id, rows) in byObject where !["bridge", "tunnel"].contains(places[id]) {
            let expected = Dictionary(rows.filter { $0[2] != "name" && (PlaceTags.isName($0[2]) || PlaceTags.extraKeys.contains($0[2])) }
                .map { ($0[2], $0[3]) }, uniquingKeysWith: { first, _ in first })
            if expected.keys.contains(where: { $0.hasPrefix("name:") }) { withLanguages += 1 }
            if found[id]?.tags != expected { wrong.append("\(id): \(found[id]?.tags ?? [:]) expected \(expected)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) of \(byObject.count) wrong: \(wrong.prefix(5))")
        #expect(withLanguages > 10)
    }

    @Test("Liechtenstein's name:de and alt_name are in the tags of the places that have them")
    func liechtensteinNames() throws {
        let venues = try OSMLiechtenstein.features().venues
        let rows = try FeatureFixture.rows("liechtenstein", "tags.tsv")
        for key in ["name:de", "alt_name"] {
            let tagged = rows.filter { $0[2] == key }
            #expect(!tagged.isEmpty)
            for row in tagged {
                let id = FeatureFixture.id(row[0], row[1])
                guard let venue = venues.first(where: { $0.id == id }) else { continue }
                #expect(venue.tags[key] == row[3], "\(id) \(key)")
            }
        }
    }
}
