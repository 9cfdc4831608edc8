import Foundation
import PindropCore
import PindropProviders
import PindropTesting
import Testing

/// The client against the local MusicBrainz-compatible server, time-scaled so the 1 request/s rule runs
/// at one request per 20 ms. Loopback only; every test is bounded to a few dozen requests.
@Suite("MusicBrainz client against the local fake server")
struct MusicBrainzServerTests {
    static let timeScale = 0.02
    static let contact = "tests@pindrop.invalid"

    static func startServer(places: Int = 1000, timeScale: Double = timeScale, responseDelay: Duration = .zero,
                            failure: FakeMusicBrainzServer.Failure? = nil) async throws -> FakeMusicBrainzServer {
        try await FakeMusicBrainzServer.start(.init(catalog: FakeMusicBrainzCatalog(defaultPlaceCount: places),
                                                    timeScale: timeScale, responseDelay: responseDelay, failure: failure))
    }

    static func client(_ server: FakeMusicBrainzServer, geocoder: (any PlaceSearching)? = nil) throws -> MusicBrainzClient {
        MusicBrainzClient(configuration: try MusicBrainzConfiguration(
            baseURL: server.baseURL, contact: contact,
            requestInterval: .seconds(server.configuration.timeScale), requestTimeout: .seconds(10)), geocoder: geocoder)
    }

    static func run(_ client: MusicBrainzClient, _ text: String = "Copenhagen", mode: RequestSchedulingMode,
                    pageSize: Int = 100) async throws -> (places: [MusicPlace], last: PagedSearchEvent<MusicPlace>?) {
        let search = client.searchMusicPlaces(try MusicSearchRequest(text: text, mode: mode), pageSize: pageSize,
                                              clock: ContinuousPagingClock())
        var places: [MusicPlace] = []
        var last: PagedSearchEvent<MusicPlace>?
        for await event in search {
            if case .page(let page) = event { places += page.items }
            last = event
        }
        return (places, last)
    }

    /// A whole search in `mode` against a fresh server of `places`: what it found, its final counters
    /// (required to have finished), and what the server saw.
    static func finishedRun(_ mode: RequestSchedulingMode, places: Int = 1000, timeScale: Double = timeScale) async throws
        -> (places: [MusicPlace], final: PagingProgress, server: FakeMusicBrainzServer.Statistics) {
        let server = try await startServer(places: places, timeScale: timeScale)
        defer { Task { await server.stop() } }
        let (found, last) = try await run(try client(server), mode: mode)
        let finished: PagingProgress? = if case .finished(let final) = last { final } else { nil }
        return (found, try #require(finished, "expected finished, got \(String(describing: last))"), server.statistics)
    }

    @Test("polite: every page, zero 503s, and the User-Agent names Pindrop and the contact")
    func polite() async throws {
        let (places, final, server) = try await Self.finishedRun(.polite)
        #expect(final.pagesDone == 10 && final.placesFetched == 1000 && final.rateLimited == 0)
        #expect(server.rateLimited == 0 && server.requests == 10)
        #expect(server.servedOffsets == Array(stride(from: 0, to: 1000, by: 100)))
        #expect(server.lastUserAgent == "Pindrop/\(MusicBrainzConfiguration.clientVersion) ( \(Self.contact) )")
        #expect(places.count == final.placesShown && !places.isEmpty)
    }

    @Test("fixed: every page and zero 503s")
    func fixed() async throws {
        let (_, final, server) = try await Self.finishedRun(.fixed)
        #expect(final.pagesDone == 10 && final.rateLimited == 0 && server.rateLimited == 0)
    }

    @Test("adaptive: gets 503s from the server, recovers, and still fetches every page")
    func adaptive() async throws {
        // The real one-second rule, so "as fast as possible" is surely faster than the rule even on a busy machine.
        let (_, final, server) = try await Self.finishedRun(.adaptive, places: 600, timeScale: 1)
        #expect(final.pagesDone == 6 && final.placesFetched == 600)
        #expect(final.rateLimited > 0 && final.rateLimited == server.rateLimited)
        #expect(server.served == 6)
    }

    @Test("what the server generated is what the user gets: kept, filtered and skipped match the data")
    func keptAndSkippedMatchTheData() async throws {
        let server = try await Self.startServer(places: 300)
        defer { Task { await server.stop() } }
        let (places, last) = try await Self.run(try Self.client(server), mode: .polite)
        let final = try #require(last?.finalProgress)
        let truth = FakeMusicBrainzCatalog(defaultPlaceCount: 300).places(for: "Copenhagen", offset: 0, limit: 300)
        let qualifying = truth.filter { ($0.openYear ?? 0) >= 1990 }
        #expect(places.map(\.id) == qualifying.filter { $0.latitude != nil }.map { "musicbrainz:\($0.id)" })
        #expect(final.placesSkipped == qualifying.filter { $0.latitude == nil }.count && final.placesSkipped > 0)
        #expect(places.allSatisfy { $0.lifespanSeconds == $0.openYear - 1990 && $0.area == "Copenhagen" })
    }

    @Test("100 places per request needs 5x fewer requests than the original app's 20")
    func pageSizeComparison() async throws {
        let server = try await Self.startServer(places: 1000, timeScale: 0.005)
        defer { Task { await server.stop() } }
        let client = try Self.client(server)
        let (_, hundred) = try await Self.run(client, mode: .polite, pageSize: 100)
        let (_, twenty) = try await Self.run(client, mode: .polite, pageSize: 20)
        #expect(hundred?.finalProgress?.requests == 10 && twenty?.finalProgress?.requests == 50)
        #expect(hundred?.finalProgress?.placesShown == twenty?.finalProgress?.placesShown)
    }

    @Test("cancelling the task ends the search with cancelled, and the server sees no request after it")
    func cancellationStopsRequests() async throws {
        let server = try await Self.startServer(places: 5000, timeScale: 0.05)
        defer { Task { await server.stop() } }
        let search = try Self.client(server).searchMusicPlaces(try MusicSearchRequest(text: "Berlin", mode: .polite))
        let (pages, pageStream) = AsyncStream.makeStream(of: Int.self)
        let consumer = Task {
            var last: PagedSearchEvent<MusicPlace>?
            for await event in search {
                if case .page(let page) = event { pageStream.yield(page.pageIndex) }
                last = event
            }
            pageStream.finish()
            return last
        }
        for await index in pages where index == 1 { break }
        consumer.cancel()
        let last = await consumer.value
        guard case .cancelled(let final) = last else { Issue.record("expected cancelled, got \(String(describing: last))"); return }
        let requestsAtCancel = server.statistics.requests
        #expect(final.pagesDone <= 3 && requestsAtCancel <= 4)
        try await Task.sleep(for: .milliseconds(400))   // eight rule intervals
        #expect(server.statistics.requests == requestsAtCancel, "no request after cancellation")
    }

    @Test("cancelling during a slow answer stops at once, without waiting for it")
    func cancellationInFlight() async throws {
        let server = try await Self.startServer(responseDelay: .seconds(10))
        defer { Task { await server.stop() } }
        let search = try Self.client(server).searchMusicPlaces(try MusicSearchRequest(text: "Paris"))
        let clock = ContinuousClock()
        let started = clock.now
        let consumer = Task { () -> PagedSearchEvent<MusicPlace>? in
            var last: PagedSearchEvent<MusicPlace>?
            for await event in search { last = event }
            return last
        }
        try await Task.sleep(for: .milliseconds(300))
        consumer.cancel()
        let last = await consumer.value
        guard case .cancelled(let final) = last else { Issue.record("expected cancelled, got \(String(describing: last))"); return }
        #expect(final.pagesDone == 0)
        #expect(clock.now - started < .seconds(5), "stopped at the cancel, not after the 10 s answer")
    }

    @Test("a server error, a refusal, unreadable JSON and a closed port each give a clear error")
    func failures() async throws {
        for (failure, expected) in [(FakeMusicBrainzServer.Failure.status(500), "answered HTTP 500"),
                                    (.status(400), "refused the request with HTTP 400"),
                                    (.malformedJSON, "answered with JSON that is not a place search result")] {
            let server = try await Self.startServer(failure: failure)
            let (_, last) = try await Self.run(try Self.client(server), mode: .polite)
            await server.stop()
            guard case .failed(let error, _) = last else { Issue.record("expected failed for \(failure)"); continue }
            #expect(error.code == "upstream_failed")
            #expect(error.message.hasPrefix("MusicBrainz: " + expected) && !error.message.contains("The fake"), "\(error.message)")
        }

        let closed = try await Self.startServer()
        let client = try Self.client(closed)
        await closed.stop()
        let (_, last) = try await Self.run(client, mode: .polite)
        guard case .failed(let error, _) = last else { Issue.record("expected failed for a closed port"); return }
        #expect(error.message.contains("could not connect to \(closed.baseURL)"), "\(error.message)")
    }

    @Test("a server that answers only 503 ends the search with a rate-limit error after a bounded number of retries")
    func persistentRateLimit() async throws {
        let server = try await Self.startServer(failure: .alwaysRateLimited)
        defer { Task { await server.stop() } }
        let (_, last) = try await Self.run(try Self.client(server), mode: .polite)
        guard case .failed(let error, let final) = last else { Issue.record("expected failed"); return }
        #expect(error.code == "rate_limited" && error.message.contains("MusicBrainz is rate-limiting us"))
        #expect(final.requests == 6 && server.statistics.requests == 6)
    }

    @Test("the fake enforces the rule itself: two quick requests, the second is a real 503 with the headers")
    func fakeServerRule() async throws {
        // A five-second rule "second", so the second request is surely inside it even on a busy machine.
        let server = try await Self.startServer(timeScale: 5)
        defer { Task { await server.stop() } }
        let client = try Self.client(server)
        let first = try await client.fetchPlaces(query: "Helsinki", page: PageRequest(offset: 0, limit: 100))
        let second = try await client.fetchPlaces(query: "Helsinki", page: PageRequest(offset: 100, limit: 100))
        guard case .page(let page) = first, case .rateLimited(let advice) = second else {
            Issue.record("expected a page then a 503"); return
        }
        #expect(page.records.count == 100 && page.totalCount == 1000)
        #expect(page.advice.limit == 1 && page.advice.remaining == 0)
        let retryAfter = try #require(advice.retryAfter)
        #expect(retryAfter > .zero && retryAfter <= .seconds(5))
        #expect(try #require(advice.resetAfter) <= .seconds(5))
    }
}
