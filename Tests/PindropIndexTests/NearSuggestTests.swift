import Foundation
import PindropCore
import Testing
@testable import PindropIndex

/// Search as you type near the user: on GeoNames and central Helsinki in one index, what is near
/// counts for more than a big place far away, while a big city still wins where nothing near matches.
@Suite("Suggestions near the user")
struct NearSuggestTests {
    func suggest(_ text: String, near: Coordinate?, limit: Int = 8) throws -> [PlaceResult] {
        try SharedIndex.index.suggest(SuggestRequest(text: text, near: near, limit: limit, minChars: 1))
    }

    func coordinate(of name: String) throws -> Coordinate {
        try #require(try SharedIndex.index.search(SearchRequest(text: name, limit: 1)).first?.place.coordinate)
    }

    @Test("at Helsinki's centre, the first 3 letters of a venue nearby find it (or a same-named one as near) in the top 5")
    func venueNearTheCentre() throws {
        let centre = try coordinate(of: "Helsinki")
        let venues = try SharedIndex.index.nearby(NearbyRequest(coordinate: centre, radiusMeters: 400, limit: 200))
            .filter { $0.place.id.hasPrefix("osm:") && $0.place.category != nil && $0.place.name.count >= 3 }
            .prefix(10)
        #expect(venues.count == 10)
        for venue in venues {
            let text = String(venue.place.name.prefix(3))
            let top = try suggest(text, near: centre).prefix(5)
            let found = top.contains {
                $0.place.name == venue.place.name && $0.place.coordinate.distance(to: centre) <= venue.place.coordinate.distance(to: centre) + 1
            }
            #expect(found, "\(text) for \(venue.place.name) → \(top.map(\.label))")
        }
    }

    @Test("\"Par\" with no Par… venue near the user finds Paris first; without a location \"Hel\" is Helsinki")
    func bigCitiesStillWin() throws {
        let tampere = try coordinate(of: "Tampere")
        #expect(try suggest("Par", near: tampere).first?.place.name == "Paris")
        #expect(try suggest("Hel", near: nil).first?.place.name == "Helsinki")
        #expect(try suggest("Hel", near: try coordinate(of: "Helsinki")).first?.place.name == "Helsinki")
    }

    @Test("near the centre a street comes before its addresses, which show once the text reaches the number")
    func addressesFoldUnderTheirStreet() throws {
        let centre = try coordinate(of: "Helsinki")
        let street = try suggest("Mannerheimintie", near: centre)
        #expect(street.first?.place.name == "Mannerheimintie", "\(street.map(\.label))")
        // An address row is named "Street Number" (a venue may be named after the street: "Mannerheimintie kaupunkipyöräasema").
        func isAddress(_ r: PlaceResult) -> Bool { r.place.name.range(of: #"^Mannerheimintie \d"#, options: .regularExpression) != nil }
        #expect(!street.contains(where: isAddress), "\(street.map(\.label))")
        let addresses = try suggest("Mannerheimintie 1", near: centre)
        #expect(addresses.contains(where: isAddress), "\(addresses.map(\.label))")
    }

    @Test("a street is as near as its nearest point: at one end of a long street, five letters find it first")
    func streetDistanceAlongIt() throws {
        let index = try SharedIndex.index
        // The street with the most points laid along it, stood on at its point farthest from its label point.
        let first = index.contents.firstStreetLevelRow
        let streets = (first..<index.contents.places.count).filter { index.contents.places.rowKind($0) == .street }
        let lookups = index.contents.street.stored.lookups
        func points(_ row: Int) -> Range<Int> { Int(lookups.pointStart[row - first])..<Int(lookups.pointStart[row - first + 1]) }
        let longest = try #require(streets.max { points($0).count < points($1).count })
        let slots = points(longest).map { Int(lookups.pointSlots[$0]) }
        let label = Coordinate(latitude: index.contents.places.latitude[longest], longitude: index.contents.places.longitude[longest])
        let along = slots.map { slot in
            let p = index.contents.street.stored.streetPoints.nodes[slot]
            return Coordinate(latitude: asin(p.z) * 180 / .pi, longitude: atan2(p.y, p.x) * 180 / .pi)
        }
        let end = try #require(along.max { $0.distance(to: label) < $1.distance(to: label) })
        #expect(end.distance(to: label) > 300)
        #expect(Ranking(contents: index.contents).streetLevelDistance(longest, end) < 1)
        let name = index.contents.places.name(longest)
        #expect(try suggest(String(name.prefix(5)), near: end).prefix(5).contains { $0.place.name == name }, "\(name)")
    }
}
