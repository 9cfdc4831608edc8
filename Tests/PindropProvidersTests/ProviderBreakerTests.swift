import Foundation
import PindropCore
import PindropProviders
import PindropTesting
import Synchronization
import Testing

/// A clock that moves only when a test sleeps on it.
final class StoppedClock: PagingClock {
    private let time = Mutex(Duration.zero)
    var now: Duration { time.withLock { $0 } }
    func sleep(for duration: Duration) async throws { time.withLock { $0 += duration } }
}

/// The facade's circuit breaker against real fakes: a provider that keeps failing stops being asked (and stops
/// costing its timeout), is probed once after the cool-down, and is used again once it answers.
@Suite("Circuit breaker with real providers")
struct ProviderBreakerTests {
    let store = FakeStore(places: SamplePlaces.all)

    /// The facade with `photon` first for search (at `url`), the store after it, and a breaker on `clock`.
    func service(photon url: String, clock: StoppedClock, extra: [String: String] = [:]) throws -> PlaceService {
        try ProviderSetup.service(store: store, environment: ["PINDROP_PHOTON_URL": url, "PINDROP_SEARCH_PROVIDERS": "photon,embedded"]
                                    .merging(extra) { $1 },
                                  breaker: CircuitBreaker(failureThreshold: 3, coolDown: .seconds(30), clock: clock))
    }

    /// A search whose limit differs each time, so that no answer comes from the cache.
    func search(_ service: PlaceService, _ n: Int) async throws -> ProviderAnswer {
        try await service.search(try SearchRequest(text: "Paris", limit: n + 1), provider: nil)
    }

    @Test("a dead provider is skipped after three failures: the fallback answers without trying it")
    func deadSkipped() async throws {
        let service = try self.service(photon: try await closedPortURL(), clock: StoppedClock())
        for n in 0..<3 {
            let answer = try await search(service, n)
            #expect(answer.failures.first?.error.message == "Photon: could not connect (connection refused)")
        }
        let skipped = try await search(service, 3)
        #expect(skipped.provider == "embedded" && skipped.isFallback)
        #expect(skipped.failures.map(\.provider) == ["photon"])
        #expect(skipped.failures.first?.error.message
                == "Photon: skipped without asking, as it failed 3 times in a row; it is asked again in 30 s")
        #expect(skipped.failures.first?.error.code == "upstream_failed")
    }

    @Test("a provider that times out stops costing its timeout once the breaker is open")
    func timeoutSpared() async throws {
        try await withFake(.photon) { server in
            server.setBehavior(.slow(.seconds(10)))
            let service = try self.service(photon: server.baseURL, clock: StoppedClock(), extra: ["PINDROP_PROVIDER_TIMEOUT": "2"])
            for n in 0..<3 { _ = try await search(service, n) }
            let answer = try await search(service, 3)
            #expect(answer.provider == "embedded")
            #expect(server.requests.count == 3)
        }
    }

    @Test("after the cool-down one probe is let through: its failure re-opens, its success closes")
    func halfOpenProbe() async throws {
        try await withFake(.photon) { server in
            server.setBehavior(.httpStatus(503))
            let clock = StoppedClock()
            let service = try self.service(photon: server.baseURL, clock: clock)
            for n in 0..<5 { _ = try await search(service, n) }
            #expect(server.requests.count == 3, "asked until the breaker opened, then skipped")

            try await clock.sleep(for: .seconds(30))
            let probe = try await search(service, 5)
            #expect(server.requests.count == 4 && probe.failures.first?.error.message == "Photon: is failing on its side (HTTP 503)")
            _ = try await search(service, 6)
            #expect(server.requests.count == 4, "the failed probe re-opened the breaker")
            #expect(service.breaker.state(of: "photon") == .open(until: .seconds(60)))

            server.setBehavior(.success)
            try await clock.sleep(for: .seconds(30))
            let recovered = try await search(service, 7)
            #expect(recovered.provider == "photon" && !recovered.isFallback)
            let next = try await search(service, 8)
            #expect(next.provider == "photon" && server.requests.count == 6, "a recovered provider is used again")
            #expect(service.breaker.state(of: "photon") == .closed(failures: 0))
        }
    }
}
