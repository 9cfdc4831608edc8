import Foundation
import PindropCore
import PindropImport
import PindropTesting
import Testing

/// Addresses, house-number interpolation lines and entrances, held to what pyosmium reads of the same file
/// (Tests/Fixtures/features, scripts/feature-expectations.py).
@Suite("OSM addresses, interpolation lines and entrances, as Nominatim reads them")
struct OSMAddressReadingTests {
    static let extracts = ["liechtenstein", "helsinki"]

    @Test("one address point per object with a house number and a street or a place, its parts as tagged", arguments: extracts)
    func addressPoints(extract: String) throws {
        let points = try OSMPlaceTests.features(extract).addressPoints
        let rows = try FeatureFixture.rows(extract, "addresses.tsv")
        let kept = rows.filter { $0[13] == "kept" }
        let expected = Dictionary(uniqueKeysWithValues: kept.map { (FeatureFixture.id($0[0], $0[1]), $0) })
        let found = Dictionary(points.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(found.count == points.count, "one point per object")
        let unplaced = Set(rows.filter { $0[13] == "no-street" }.map { FeatureFixture.id($0[0], $0[1]) })
        let missing = Set(expected.keys).subtracting(found.keys), extra = Set(found.keys).subtracting(expected.keys).subtracting(unplaced)
        #expect(missing.isEmpty && extra.isEmpty, "missing: \(missing.sorted().prefix(10)); not expected: \(extra.sorted().prefix(10))")
        var wrong: [String] = []
        for (id, row) in expected {
            guard let point = found[id] else { continue }
            let a = point.address
            let parts = [a.houseNumber, a.street, a.place, a.postcode, a.town, a.suburb, a.neighbourhood, a.county, a.state, point.countryCode]
            if parts.map({ $0 ?? "" }) != [row[2]] + Array(row[4...12]) { wrong.append("\(id): \(parts), expected \(row)") }
            if a.houseNumbers != (try FeatureFixture.json(row[3]) as? [String]) { wrong.append("\(id): numbers \(a.houseNumbers), expected \(row[3])") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.sorted().prefix(5))")
        // A house number without a street or a place takes the nearest named street within 200 m, as Nominatim
        // parents it: checked on every 25th such object against the distance to every street's segments.
        let streets = try OSMPlaceTests.features(extract).streets
        var misplaced: [String] = []
        for id in unplaced.sorted().enumerated().filter({ $0.offset % 25 == 0 }).map(\.element) {
            guard let point = found[id] else { continue }
            let distances = streets.map { ($0.name, Self.metres(point.coordinate, to: $0.points)) }
            let nearest = distances.map(\.1).min() ?? .infinity
            // Points along the streets 10 m apart stand for them: a street as near within that is as right.
            let right = Set(distances.filter { $0.1 <= nearest + 10 }.map(\.0))
            if !right.contains(point.address.street ?? "") { misplaced.append("\(id): \(point.address.street ?? "-"), nearest \(right)") }
        }
        #expect(!unplaced.isEmpty && misplaced.isEmpty, "\(misplaced.prefix(5))")
        #expect(unplaced.contains { found[$0] != nil }, "numbers without a street are addresses on the nearest one")
    }

    /// Metres from a point to a line, by its nearest segment (flat within a segment: a street's are short).
    static func metres(_ c: Coordinate, to line: [Coordinate]) -> Double {
        let scale = cos(c.latitude * .pi / 180) * 111_320
        func xy(_ p: Coordinate) -> (Double, Double) { ((p.longitude - c.longitude) * scale, (p.latitude - c.latitude) * 110_540) }
        var best = Double.infinity
        for (a, b) in zip(line, line.dropFirst()) {
            let (ax, ay) = xy(a), (bx, by) = xy(b), dx = bx - ax, dy = by - ay
            let t = dx == 0 && dy == 0 ? 0 : max(0, min(1, -(ax * dx + ay * dy) / (dx * dx + dy * dy)))
            best = min(best, ((ax + t * dx) * (ax + t * dx) + (ay + t * dy) * (ay + t * dy)).squareRoot())
        }
        return best
    }

    @Test("Liechtenstein: house number 0, a house with addr:place and no street, postcodes and lists kept")
    func liechtensteinAddresses() throws {
        let points = try OSMLiechtenstein.features().addressPoints
        let rows = try FeatureFixture.rows("liechtenstein", "addresses.tsv").filter { $0[13] == "kept" }
        // Nominatim's test data: node 4 is Gnalpstrasse 0, node 3 is house 6 of the place Silum.
        #expect(points.contains { $0.id == "osm:node/4" && $0.address.houseNumber == "0" && $0.address.street == "Gnalpstrasse" })
        let silum = try #require(points.first { $0.id == "osm:node/3" })
        #expect(silum.address.houseNumber == "6" && silum.address.place == "Silum" && silum.address.street == nil)
        let withPostcode = rows.filter { !$0[6].isEmpty }.count
        let tagged = Set(rows.map { FeatureFixture.id($0[0], $0[1]) })
        let taggedPoints = points.filter { tagged.contains($0.id) }
        #expect(withPostcode > 1_000 && taggedPoints.filter { $0.address.postcode != nil }.count == withPostcode)
        #expect(taggedPoints.filter { $0.countryCode == "LI" }.count == rows.filter { $0[12] == "LI" }.count)
        // A building tagged "15;17;19" is one address found by each of its numbers.
        let three = try #require(points.first { $0.id == "osm:way/243055707" })
        #expect(three.address.houseNumber == "15;17;19" && three.address.houseNumbers == ["15", "17", "19"])
    }

    @Test("every addr:interpolation way is a line with its numbered nodes, in order, at their points", arguments: extracts)
    func interpolations(extract: String) throws {
        let lines = try OSMPlaceTests.features(extract).interpolations
        let rows = try FeatureFixture.rows(extract, "interpolations.tsv")
        #expect(lines.count == rows.count)
        for row in rows {
            let line = try #require(lines.first { $0.id == "osm:way/\(row[0])" })
            #expect(line.scheme.tagValue == row[1] && line.points.count == Int(row[2]))
            let stops = try #require(try FeatureFixture.json(row[3]) as? [[String: Any]])
            #expect(line.stops.count == stops.count)
            for (stop, expected) in zip(line.stops, stops) {
                #expect(stop.point == expected["point"] as? Int && stop.address.houseNumber == expected["number"] as? String)
                if expected["street"] as? String == nil, expected["place"] as? String == nil {
                    // A line that names no street takes the one nearest its middle, for every number on it.
                    #expect(stop.address.street != nil && stop.address.street == line.stops.first?.address.street && stop.address.place == nil)
                } else {
                    #expect(stop.address.street == expected["street"] as? String && stop.address.place == expected["place"] as? String)
                }
                #expect(stop.address.postcode == expected["postcode"] as? String && stop.address.town == expected["city"] as? String)
            }
        }
    }

    @Test("Liechtenstein: Nominatim's interpolation line from 1001 to 1051, odd numbers")
    func liechtensteinInterpolation() throws {
        let line = try #require(try OSMLiechtenstein.features().interpolations.first { $0.id == "osm:way/1" })
        #expect(line.scheme == .odd && line.points.count == 2)
        #expect(line.stops.map(\.point) == [0, 1] && line.stops.map(\.address.houseNumber) == ["1001", "1051"])
        // Neither the line nor its nodes name a street: Grosssteg runs beside it, as Nominatim parents the line.
        #expect(line.stops.allSatisfy { $0.address.street == "Grosssteg" })
    }

    @Test("every entrance node, its kind and point, and the buildings, places and addressed ways holding it", arguments: extracts)
    func entrances(extract: String) throws {
        let entrances = try OSMPlaceTests.features(extract).entrances
        let rows = try FeatureFixture.rows(extract, "entrances.tsv")
        #expect(entrances.count == rows.count && !rows.isEmpty)
        let found = Dictionary(entrances.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var wrong: [String] = []
        for row in rows {
            guard let entrance = found["osm:node/\(row[0])"] else { wrong.append("\(row[0]) missing"); continue }
            let ways = Set(row[4].split(separator: ";").map { "osm:way/\($0)" })
            let tags = try #require(try FeatureFixture.json(row[5]) as? [String: String])
            if entrance.kind != row[1] || Set(entrance.ways) != ways || entrance.ways.count != ways.count { wrong.append("\(row[0]): \(entrance)") }
            if abs(entrance.coordinate.latitude - Double(row[2])!) > 1e-7 || abs(entrance.coordinate.longitude - Double(row[3])!) > 1e-7 {
                wrong.append("\(row[0]) at \(entrance.coordinate)")
            }
            // Its own tags, never its kind's.
            if entrance.tags.contains(where: { tags[$0.key] != $0.value || $0.key == "entrance" }) { wrong.append("\(row[0]) tags \(entrance.tags)") }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
        #expect(entrances.contains { !$0.ways.isEmpty })
    }
}
