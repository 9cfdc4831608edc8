import Foundation
import PindropCore
import PindropImport
import PindropTesting
import Testing
@testable import PindropIndex

/// Issue 4's targets on the real Helsinki extract: every tagged address, venue and street is a test case.
@Suite("Street level (OpenStreetMap, central Helsinki)")
struct StreetLevelTests {
    /// A point `meters` from `c` in direction `bearing` (radians).
    func offset(_ c: Coordinate, meters: Double, bearing: Double) -> Coordinate {
        let dLat = meters * cos(bearing) / 111_320
        let dLon = meters * sin(bearing) / (111_320 * cos(c.latitude * .pi / 180))
        return Coordinate(latitude: c.latitude + dLat, longitude: c.longitude + dLon)
    }

    /// The share of tagged address points for which a point `meters` away (in a spread of directions)
    /// reverse-geocodes to that point's street and house number.
    func reverseRate(meters: Double) throws -> Double {
        let index = try SharedIndex.index
        let points = try SharedIndex.helsinkiFeatures.get().addressPoints
        var right = 0
        for (n, a) in points.enumerated() {
            let probe = offset(a.coordinate, meters: meters, bearing: Double(n) * 2.399)
            let address = (try index.reverse(ReverseRequest(coordinate: probe)) as [PlaceResult]).first?.place.address
            if address?.street == a.address.street && address?.houseNumber == a.address.houseNumber { right += 1 }
        }
        return Double(right) / Double(points.count)
    }

    @Test("reverse a few metres from a tagged address gives its street and house number", arguments: [(2.0, 0.97), (5.0, 0.92)])
    func reverseToAddress(meters: Double, atLeast: Double) throws {
        let rate = try reverseRate(meters: meters)
        #expect(rate >= atLeast, "reverse \(meters) m from an address: right for \(rate * 100)%")
    }

    /// Whether `c` is inside a ring (even-odd rule, lat/lon as a plane: fine at building size).
    func inside(_ c: Coordinate, _ ring: [Coordinate]) -> Bool {
        var result = false
        for (a, b) in zip(ring, ring.dropFirst() + ring.prefix(1))
        where (a.latitude > c.latitude) != (b.latitude > c.latitude)
            && c.longitude < a.longitude + (b.longitude - a.longitude) * (c.latitude - a.latitude) / (b.latitude - a.latitude) {
            result.toggle()
        }
        return result
    }

    // Issue 4: "the right street and house number for points within 15 m of a tagged address: ≥ 95%". The right
    // address of a spot is the one on its door: inside a building, the nearest address tagged in that building;
    // elsewhere the nearest address point. Found here by brute force over the extracted features, not the index.
    // (Judged instead by the address each probe was drawn around, no method can pass ~84%: half the addresses
    // have another within 15 m. scripts/eval-reverse-address.py measures both with an independent OSM reader.)
    @Test("reverse within 15 m of a tagged address gives the address of that spot (≥ 95%)")
    func reverseWithin15Meters() throws {
        let index = try SharedIndex.index
        let features = try SharedIndex.helsinkiFeatures.get()
        let points = features.addressPoints
        func nearest(_ c: Coordinate, among: some Sequence<Int>) -> Address? {
            among.min { points[$0].coordinate.distance(to: c) < points[$1].coordinate.distance(to: c) }.map { points[$0].address }
        }
        let buildings = features.buildings.compactMap { building -> (box: BoundingBox, outlines: [[Coordinate]], points: [Int])? in
            guard let box = BoundingBox(covering: building.outlines.joined()) else { return nil }
            let within = points.indices.filter { i in box.contains(points[i].coordinate) && building.outlines.contains { inside(points[i].coordinate, $0) } }
            return within.isEmpty ? nil : (box, building.outlines, within)
        }
        var random = SplitMix64(seed: 4)
        var right = 0, own = 0, total = 0, misses: [String] = [], inBuildings = 0, rightInBuildings = 0
        for a in points {
            for _ in 0..<3 {
                let probe = offset(a.coordinate, meters: 15 * random.unit().squareRoot(), bearing: 2 * .pi * random.unit())
                let building = buildings.first { $0.box.contains(probe) && $0.outlines.contains { inside(probe, $0) } }
                let truth = nearest(probe, among: building?.points ?? Array(points.indices))
                let answer = (try index.reverse(ReverseRequest(coordinate: probe)) as [PlaceResult]).first?.place.address
                total += 1
                if building != nil { inBuildings += 1 }
                if answer?.street == truth?.street && answer?.houseNumber == truth?.houseNumber {
                    right += 1
                    if building != nil { rightInBuildings += 1 }
                } else { misses.append("\(probe): \(answer?.street ?? "-") \(answer?.houseNumber ?? "-") for \(truth?.street ?? "-") \(truth?.houseNumber ?? "-")") }
                if answer?.street == a.address.street && answer?.houseNumber == a.address.houseNumber { own += 1 }
            }
        }
        #expect(Double(right) / Double(total) >= 0.95, "\(right) of \(total) probes got the address of their spot; \(misses.prefix(10))")
        // Inside a building its outline decides, not the raw distance to the nearest shop across a party wall.
        #expect(Double(rightInBuildings) / Double(inBuildings) >= 0.98, "\(rightInBuildings) of \(inBuildings) probes inside buildings")
        #expect(Double(own) / Double(total) >= 0.75, "\(own) of \(total) probes got the address they were drawn around")
    }

    @Test("reverse away from any address but on a street names the street; far from streets, the town")
    func reverseFallbacks() throws {
        let index = try SharedIndex.index
        // On the Esplanadi park path area, no house number within 50 m but streets around.
        let streets = try SharedIndex.helsinkiFeatures.get().streets
        let mannerheimintie = try #require(streets.first { $0.name == "Mannerheimintie" && $0.points.count >= 2 })
        let onStreet = mannerheimintie.points[0]
        let results: [PlaceResult] = try index.reverse(ReverseRequest(coordinate: onStreet, limit: 2))
        #expect(results.first?.place.address?.street != nil)
        #expect(results.count == 2 && results[1].place.id.hasPrefix("geonames:"))
        // Out at sea south of Helsinki: no street within 100 m, so the nearest town answers.
        let sea: [PlaceResult] = try index.reverse(ReverseRequest(coordinate: Coordinate(latitude: 60.10, longitude: 24.95)))
        #expect(sea.first?.place.id.hasPrefix("geonames:") == true)
    }

    @Test("address search: \"Street 12\" finds that address first (≥ 98% of tagged addresses)")
    func addressSearch() throws {
        let index = try SharedIndex.index
        var seen = Set<String>(), total = 0, right = 0, misses: [String] = []
        for a in try SharedIndex.helsinkiFeatures.get().addressPoints {
            guard let street = a.address.street, let number = a.address.houseNumber,
                  seen.insert("\(street) \(number)").inserted else { continue }
            total += 1
            let first = (try index.search(SearchRequest(text: "\(street) \(number)")) as [PlaceResult]).first?.place
            if first.map({ TextFolding.fold($0.displayName).hasPrefix(TextFolding.fold("\(street) \(number)")) }) == true { right += 1 }
            else { misses.append("\(street) \(number) → \(first?.displayName ?? "nothing")") }
        }
        #expect(Double(right) / Double(total) >= 0.98, "\(right) of \(total) addresses first; misses: \(misses.prefix(15))")
        let qualified = try #require(try index.firstSearch("Aleksanterinkatu 52, Helsinki"))
        #expect(qualified.address?.street == "Aleksanterinkatu" && qualified.address?.houseNumber == "52")
    }

    @Test("venue by exact name first (≥ 98%), venue and street prefixes of 5+ letters in the top 5 (≥ 90%)")
    func venueAndStreetSearch() throws {
        let index = try SharedIndex.index
        let features = try SharedIndex.helsinkiFeatures.get()
        let venues = features.venues
        // As a person in Helsinki searches: near where they are (the web app sends the map's centre).
        let helsinki = Coordinate(latitude: 60.17, longitude: 24.94)
        var exact = 0, misses: [String] = []
        for v in venues {
            let first = try index.firstSearch(v.name, near: helsinki)
            if first.map({ TextFolding.fold($0.name) == TextFolding.fold(v.name) }) == true { exact += 1 } else { misses.append("\(v.name) → \(first?.displayName ?? "nothing")") }
        }
        #expect(Double(exact) / Double(venues.count) >= 0.98, "\(exact) of \(venues.count) venues first by exact name; misses: \(misses.prefix(15))")
        var prefixHits = 0, prefixTotal = 0
        let named = Dictionary(grouping: venues.map(\.name) + features.streets.map(\.name)) { $0 }.keys.sorted()
        for name in named where name.count >= 8 {
            prefixTotal += 1
            let prefix = String(name.prefix(max(5, name.count * 2 / 3)))
            let top: [PlaceResult] = try index.suggest(SuggestRequest(text: prefix, near: Coordinate(latitude: 60.17, longitude: 24.94), limit: 5))
            if top.contains(where: { $0.place.name == name }) { prefixHits += 1 }
        }
        #expect(Double(prefixHits) / Double(prefixTotal) >= 0.90, "\(prefixHits) of \(prefixTotal) prefixes in the top 5")
        #expect(try index.firstSearch("Stockmann")?.category == "department_store")
    }

    @Test("nearby venues: within the radius, nearest first, category filter, with address and category")
    func nearbyVenues() throws {
        let index = try SharedIndex.index
        let centre = Coordinate(latitude: 60.1699, longitude: 24.9384)
        let cafes: [PlaceResult] = try index.nearby(NearbyRequest(coordinate: centre, radiusMeters: 1000, limit: 100, category: "cafe"))
        #expect(cafes.count >= 20)
        #expect(cafes.allSatisfy { $0.place.category == "cafe" && ($0.distanceMeters ?? .infinity) <= 1000 })
        let distances = cafes.compactMap(\.distanceMeters)
        #expect(distances == distances.sorted())
        #expect(cafes.filter { $0.place.address?.street != nil }.count >= cafes.count * 9 / 10)
        #expect(cafes.allSatisfy { $0.place.id.hasPrefix("osm:") })
        let everything: [PlaceResult] = try index.nearby(NearbyRequest(coordinate: centre, radiusMeters: 1000, limit: 100))
        #expect(everything.count == 100)
        #expect(try index.nearby(NearbyRequest(coordinate: centre, radiusMeters: 1000, category: "no-such-category")).isEmpty)
    }

    @Test("ids, lookup, attribution and the street map for a box")
    func lookupAndMap() throws {
        let index = try SharedIndex.index
        let stockmann = try #require(index.place(id: "osm:way/122595241") as Place?)
        #expect(stockmann.name == "Stockmann")
        #expect(stockmann.address?.houseNumber == "52")
        #expect(index.attribution.contains { $0.contains("OpenStreetMap contributors") })
        let box = BoundingBox(south: 60.166, west: 24.936, north: 60.171, east: 24.946)
        let shapes = index.streetMap(in: box, limit: 10_000)
        #expect(shapes.contains { $0.kind == .street && $0.name == "Aleksanterinkatu" })
        #expect(shapes.contains { $0.kind == .building })
        #expect(index.streetMap(in: BoundingBox(south: 10, west: 10, north: 11, east: 11), limit: 100).isEmpty)
    }
}
