import Foundation
import PindropCore

extension UserAccountsConformance {
    /// A place with every field a client may send or the engine may answer: what a store must give back whole.
    static let wholePlace: Place = {
        var place = Place(
            id: "osm:node/49872651", name: "Kunstmuseum Liechtenstein", displayName: "Kunstmuseum Liechtenstein, Städtle 32, 9490 Vaduz",
            coordinate: Coordinate(latitude: 47.1393681, longitude: 9.5219839), countryCode: "LI", admin1: "Vaduz", population: 5_000,
            category: "museum",
            address: Address(houseNumber: "32", street: "Städtle", postcode: "9490", town: "Vaduz", suburb: "Zentrum", county: "Oberland",
                             state: "Vaduz", country: "Liechtenstein", neighbourhood: "Städtle", place: "Mitteldorf", townKind: "town"),
            source: "embedded", boundingBox: BoundingBox(south: 47.1391, west: 9.5216, north: 47.1396, east: 9.5223),
            kind: .venue, categoryKey: "tourism")
        place.tags = ["name:de": "Kunstmuseum Liechtenstein", "wikidata": "Q1792451", "website": "https://kunstmuseum.li"]
        return place
    }()

    /// The checks of saved places: kept whole, capped in the same transaction as the insert, paged by position.
    static let savedPlaceChecks: [Check] = [
        Check(description: "a saved place and a recent one come back whole, every field as saved") { store in
            let (alice, _) = try await twoUsers(store)
            try await alice.save(wholePlace)
            try await alice.remember(wholePlace)
            let saved = try await alice.page(after: nil, limit: 1).places.first
            try require(saved == wholePlace, "the saved place reads back whole: \(String(describing: saved))")
            let recent = try await alice.recent(offset: 0, limit: 1).first
            try require(recent == wholePlace, "the recent place reads back whole: \(String(describing: recent))")
            var bare = wholePlace
            bare.address = nil; bare.boundingBox = nil; bare.kind = nil; bare.categoryKey = nil; bare.tags = nil
            try await alice.save(bare)
            try require(try await alice.page(after: nil, limit: 1).places == [bare], "saving again refreshes every field, to none")
        },
        Check(description: "200 saves at once with a cap of 10 keep exactly 10, the other 190 refused as over the cap") { store in
            let (alice, _) = try await twoUsers(store)
            let refused = try await withThrowingTaskGroup(of: Bool.self) { group in
                for n in 0..<200 {
                    group.addTask {
                        do {
                            try await alice.save(Place(id: "point:\(n)", name: "Point \(n)", displayName: "Point \(n)",
                                                       coordinate: Coordinate(latitude: 47, longitude: Double(n) / 1000)), cap: 10)
                            return false
                        } catch PindropError.limitReached { return true }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            let count = try await alice.count()
            try require(count == 10, "the cap holds: \(count) saved")
            try require(refused == 190, "the saves past the cap are refused: \(refused)")
            // At the cap, saving one already there again is a refresh, not a new place.
            let kept = try await alice.page(after: nil, limit: 1).places[0]
            try require(try await alice.save(kept, cap: 10) == false, "a saved place saved again at the cap is kept, not new")
        },
        Check(description: "pages follow each other by position: saves and removals in between move no place to another page") { store in
            let (alice, _) = try await twoUsers(store)
            func point(_ n: Int) -> Place {
                Place(id: "point:\(n)", name: "Point \(n)", displayName: "Point \(n)", coordinate: Coordinate(latitude: 1, longitude: Double(n)))
            }
            for n in 0..<7 { try await alice.save(point(n)) }
            let first = try await alice.page(after: nil, limit: 3)
            try require(first.places.map(\.id) == ["point:6", "point:5", "point:4"], "the newest three first")
            // A new save and the removal of a place already listed: an offset would skip point:3 and repeat point:4.
            try await alice.save(point(7))
            try require(try await alice.remove(id: "point:5"), "point:5 is removed")
            let second = try await alice.page(after: first.next, limit: 3)
            try require(second.places.map(\.id) == ["point:3", "point:2", "point:1"], "the next three: \(second.places.map(\.id))")
            let last = try await alice.page(after: second.next, limit: 3)
            try require(last.places.map(\.id) == ["point:0"] && last.next == nil, "the last page ends the list")
        },
    ]
}
