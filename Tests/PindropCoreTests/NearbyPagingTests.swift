import PindropCore
import PindropTesting
import Synchronization
import Testing

/// Nearby as pages: every place inside the radius once, in the stable order, through the facade's cursors.
@Suite("nearby pages")
struct NearbyPagingTests {
    static let centre = Coordinate(latitude: 60.17, longitude: 24.94)

    /// 400 places on a grid around the centre, each spot holding two (a tie of distance the ids break), and some
    /// outside a 1 km radius.
    static let places: [Place] = (0..<200).flatMap { n -> [Place] in
        let spot = Coordinate(latitude: centre.latitude + Double(n / 20 - 10) * 0.001, longitude: centre.longitude + Double(n % 20 - 10) * 0.002)
        return ["b", "a"].map { letter in
            Place(id: "test:\(n)\(letter)", name: "Spot \(n)\(letter)", displayName: "Spot \(n)\(letter)", coordinate: spot, category: n % 3 == 0 ? "cafe" : "shop")
        }
    }
    let service = try! PlaceService(store: FakeStore(places: places))

    /// Follows `next` from the first page to the last.
    func allPages(_ first: NearbyRequest) async throws -> (results: [PlaceResult], totals: Set<Int?>, pages: Int) {
        var answer = try await service.nearby(first)
        var results = answer.results, totals: Set<Int?> = [answer.page?.total], pages = 1
        while let next = answer.page?.next {
            answer = try await service.nearby(try NearbyRequest(coordinate: first.coordinate, radiusMeters: first.radiusMeters,
                                                                limit: first.limit, category: first.category, cursor: next))
            results += answer.results
            totals.insert(answer.page?.total)
            pages += 1
        }
        return (results, totals, pages)
    }

    @Test("pages of any size join into every place within the radius once, nearest first and ties by id", arguments: [1, 7, 50, 1000])
    func pagesJoin(size: Int) async throws {
        let inside = Self.places.filter { $0.coordinate.distance(to: Self.centre) <= 1000 }
        #expect(inside.count > 100 && inside.count < Self.places.count)
        let (results, totals, pages) = try await allPages(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: size))
        #expect(totals == [inside.count], "every page tells the same total")
        #expect(results.count == inside.count && Set(results.map(\.place.id)) == Set(inside.map(\.id)), "no repeats, no gaps")
        #expect(pages == (inside.count + size - 1) / size)
        let positions = results.map(NearbyPosition.init)
        #expect(zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 })
        #expect(results.allSatisfy { ($0.distanceMeters ?? .infinity) <= 1000 })
    }

    @Test("the category is counted and paged too; an empty circle has a total of 0 and no next page")
    func categoryAndEmpty() async throws {
        let cafes = try await allPages(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: 9, category: "cafe"))
        #expect(cafes.results.allSatisfy { $0.place.category == "cafe" } && cafes.totals == [cafes.results.count])
        let empty = try await service.nearby(try NearbyRequest(coordinate: Coordinate(latitude: 0, longitude: 0), radiusMeters: 1000))
        #expect(empty.results.isEmpty && empty.page == ResultPage(total: 0, next: nil))
    }

    @Test("the last page, and a page that ends exactly at the end, have no next")
    func lastPage() async throws {
        let whole = try await service.nearby(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: 1000))
        let total = try #require(whole.page?.total)
        #expect(whole.page?.next == nil && whole.results.count == total)
        let exact = try await service.nearby(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: total))
        #expect(exact.page?.next == nil)
        let short = try await service.nearby(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: total - 1))
        #expect(short.page?.next != nil && short.results.count == total - 1)
    }

    @Test("collecting gathers up to a count, or all, page by page")
    func collecting() async throws {
        let first = try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: 10)
        let all = try await service.nearby(first, collecting: nil, pageSize: 10)
        let some = try await service.nearby(first, collecting: 123, pageSize: 10)
        #expect(all.results.count == all.page?.total && all.page?.next == nil)
        #expect(some.results.map(\.place.id) == Array(all.results.prefix(123)).map(\.place.id) && some.page?.next != nil)
        let whole = try await service.nearby(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: 1000))
        #expect(all.results.map(\.place.id) == whole.results.map(\.place.id) && all.results.count > 100)
    }

    @Test("a cursor that is not a page's next is refused with one clear sentence", arguments: [
        "", "abc", "7ff0000000000000~test:1a", "fff0000000000000~test:1a", "8000000000000000~test:1a", "4059000000000000",
        "4059000000000000~", "4059000000000000-test:1a", "405900000000000G~test:1a", "4059000000000000~" + String(repeating: "x", count: 201),
    ])
    func badCursor(_ cursor: String) {
        #expect(throws: PindropError.invalidInput("\"cursor\" must be the \"next\" of an earlier page, got \"\(cursor.prefix(60))\"")) {
            try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, cursor: cursor)
        }
    }

    @Test("a cursor round-trips exactly and is echoed; the limit is 1 to 1000")
    func cursorAndLimit() async throws {
        let first = try await service.nearby(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: 3))
        let next = try #require(first.page?.next)
        let second = try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: 3, cursor: next)
        #expect(second.after == NearbyPosition(first.results[2]))
        #expect(second.echo.last.map { $0.0 == "cursor" && $0.1 == .text(next) } == true)
        #expect(throws: PindropError.invalidInput("limit must be between 1 and 1000, got 1001")) {
            try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: 1001)
        }
        #expect(throws: PindropError.self) { try NearbyRequest(coordinate: Self.centre, radiusMeters: 50_001) }
    }

    @Test("a remote provider answers one page with no total and no next; a cursor goes to the store alone")
    func remoteProvider() async throws {
        let remote = OnePageProvider()
        let service = try PlaceService(store: FakeStore(places: Self.places), remote: [remote],
                                       chains: [.nearby: ["venues", "embedded"]])
        let first = try await service.nearby(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: 5))
        #expect(first.provider == "venues" && first.page == ResultPage(total: nil, next: nil))
        let fromStore = try await service.nearby(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: 5), provider: "embedded")
        let next = try #require(fromStore.page?.next)
        let second = try await service.nearby(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, limit: 5, cursor: next),
                                              provider: "venues")
        #expect(second.provider == "embedded" && second.results.count == 5 && remote.calls == 1)
        let collected = try await service.nearby(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000), collecting: 500)
        #expect(collected.provider == "venues" && collected.results.count == 1)
        let noStore = try PlaceService(store: nil, remote: [remote], chains: [.nearby: ["venues"]])
        await #expect(throws: PindropError.self) {
            try await noStore.nearby(try NearbyRequest(coordinate: Self.centre, radiusMeters: 1000, cursor: next))
        }
    }
}

/// A remote nearby provider that answers one venue, whatever the page asked.
final class OnePageProvider: PlaceProvider, NearbySearching {
    let name = "venues", displayName = "Venues", attribution = "Test data"
    let cacheLifetime: Duration = .zero
    private let count = Mutex(0)
    var calls: Int { count.withLock { $0 } }

    func nearby(_ request: NearbyRequest) async throws -> [PlaceResult] {
        count.withLock { $0 += 1 }
        return [PlaceResult(place: NearbyPagingTests.places[0], distanceMeters: 10)]
    }
}
