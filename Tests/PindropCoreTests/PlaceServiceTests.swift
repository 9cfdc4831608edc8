import PindropCore
import PindropTesting
import Synchronization
import Testing

/// A scripted remote provider: answers every capability with its places, or fails as told; counts calls.
final class ScriptedProvider: PlaceProvider, PlaceSearching, Autocompleting, ReverseGeocoding, PlaceLookup {
    let name: String
    let displayName: String
    let attribution = "Test data"
    let cacheLifetime: Duration
    let places: [Place]
    private let state = Mutex<(failure: (any Error)?, calls: Int)>((nil, 0))

    init(_ name: String, places: [Place] = [SamplePlaces.parisFrance], cacheLifetime: Duration = .seconds(60),
         failure: PindropError? = nil) {
        self.name = name
        self.displayName = name.capitalized
        self.places = places
        self.cacheLifetime = cacheLifetime
        state.withLock { $0.failure = failure }
    }

    var calls: Int { state.withLock { $0.calls } }
    func fail(with error: PindropError?) { state.withLock { $0.failure = error } }
    /// Fails with an error that is not a `PindropError`.
    func fail(withForeign error: any Error) { state.withLock { $0.failure = error } }

    private func answer() throws -> [PlaceResult] {
        let failure = state.withLock { s -> (any Error)? in s.calls += 1; return s.failure }
        if let failure { throw failure }
        return places.map { PlaceResult(place: $0) }
    }

    func search(_ request: SearchRequest) async throws -> [PlaceResult] { try answer() }
    func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] { try answer() }
    func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] { try answer() }
    func place(id: String) async throws -> Place? { try answer().first?.place }
}

@Suite("The facade: provider chain, fallback, cache, lookup")
struct PlaceServiceTests {
    let paris = try! SearchRequest(text: "Paris")
    let store = FakeStore(places: [SamplePlaces.parisFrance, SamplePlaces.helsinki])

    /// The facade over `remote` providers (and the store, when `withStore`), with `search` as the chain of
    /// search, suggest and reverse.
    func service(_ remote: [any PlaceProvider], withStore: Bool = false, search: [String],
                 cache: ResponseCache = ResponseCache(), breaker: CircuitBreaker = CircuitBreaker()) throws -> PlaceService {
        try PlaceService(store: withStore ? store : nil, remote: remote,
                         chains: [.search: search, .suggest: search, .reverse: search], cache: cache, breaker: breaker)
    }

    @Test("the first provider of the chain answers, and every result names it as its source")
    func firstAnswers() async throws {
        let photon = ScriptedProvider("photon", places: [SamplePlaces.parisFrance, SamplePlaces.parisTexas])
        let answer = try await service([photon], withStore: true, search: ["photon", "embedded"]).search(paris, provider: nil)
        #expect(answer.provider == "photon")
        #expect(!answer.isFallback)
        #expect(answer.results.map(\.place.id) == ["geonames:2988507", "geonames:4717560"])
        #expect(answer.results.allSatisfy { $0.place.source == "photon" })
    }

    @Test("a failing provider never fails the request when a fallback exists", arguments: [
        PindropError.upstream(provider: "Photon", message: "could not connect to http://127.0.0.1:1 (connection refused)"),
        PindropError.rateLimited(provider: "Photon", message: "too many requests (HTTP 429)"),
        PindropError.upstream(provider: "Photon", message: "did not answer within 5 s"),
    ])
    func fallsBack(error: PindropError) async throws {
        let photon = ScriptedProvider("photon", failure: error)
        let answer = try await service([photon], withStore: true, search: ["photon", "embedded"]).search(paris, provider: nil)
        #expect(answer.provider == "embedded")
        #expect(answer.isFallback)
        #expect(answer.failures == [ProviderFailure(provider: "photon", error: error)])
        #expect(answer.results.first?.place.name == "Paris")
        #expect(answer.results.allSatisfy { $0.place.source == "embedded" })
    }

    @Test("a request the user got wrong is not retried elsewhere")
    func invalidInputStops() async throws {
        let photon = ScriptedProvider("photon", failure: .invalidInput("the search text is empty"))
        let backup = ScriptedProvider("backup")
        await #expect(throws: PindropError.invalidInput("the search text is empty")) {
            try await service([photon, backup], search: ["photon", "backup"]).search(paris, provider: nil)
        }
        #expect(backup.calls == 0)
    }

    @Test("with no fallback the provider's own error reaches the user")
    func singleFailure() async throws {
        let error = PindropError.upstream(provider: "Photon", message: "did not answer within 5 s (http://127.0.0.1:9)")
        let photon = ScriptedProvider("photon", failure: error)
        await #expect(throws: error) { try await service([photon], search: ["photon"]).search(paris, provider: nil) }
    }

    @Test("when every provider fails, one error names each failure")
    func everyProviderFails() async throws {
        let a = ScriptedProvider("photon", failure: .upstream(provider: "Photon", message: "answered HTTP 503"))
        let b = ScriptedProvider("nominatim", failure: .rateLimited(provider: "Nominatim", message: "too many requests (HTTP 429)"))
        do {
            _ = try await service([a, b], search: ["photon", "nominatim"]).search(paris, provider: nil)
            Issue.record("expected an error")
        } catch let error as PindropError {
            #expect(error.code == "upstream_failed")
            #expect(error.message.contains("Photon: answered HTTP 503"))
            #expect(error.message.contains("Nominatim is rate-limiting us"))
        }
    }

    @Test("a named provider is asked first, then the rest of the chain")
    func preferredFirst() async throws {
        let photon = ScriptedProvider("photon")
        let google = ScriptedProvider("google", failure: .upstream(provider: "Google", message: "refused the API key"))
        let service = try self.service([photon, google], withStore: true, search: ["photon", "embedded"])
        #expect(try service.chain(for: .search, preferring: "google") == ["google", "photon", "embedded"])
        let answer = try await service.search(paris, provider: "google")
        #expect(answer.provider == "photon")
        #expect(answer.failures.map(\.provider) == ["google"])
    }

    @Test("unknown, unconfigured and unsuitable providers are refused with a sentence")
    func refusals() throws {
        let unconfigured = ProviderDescription(name: "mapbox", displayName: "Mapbox", capabilities: [.search],
                                               attribution: "© Mapbox", unavailableReason: "set PINDROP_MAPBOX_API_KEY")
        let service = try PlaceService(store: store, remote: [ScriptedProvider("photon")], unavailable: [unconfigured],
                                       chains: [.search: ["embedded"]])
        #expect(throws: PindropError.invalidInput("unknown provider \"bing\"; known providers: embedded, photon, mapbox")) {
            try service.chain(for: .search, preferring: "bing")
        }
        #expect(throws: PindropError.invalidInput("the provider \"mapbox\" is not configured: set PINDROP_MAPBOX_API_KEY")) {
            try service.chain(for: .search, preferring: "mapbox")
        }
        #expect(throws: PindropError.invalidInput("the provider \"photon\" does not answer nearby requests; it answers: search, suggest, reverse")) {
            try service.chain(for: .nearby, preferring: "photon")
        }
        #expect(throws: PindropError.invalidInput("the provider \"mapbox\" is not configured: set PINDROP_MAPBOX_API_KEY")) {
            try PlaceService(store: store, unavailable: [unconfigured], chains: [.search: ["mapbox"]])
        }
        #expect(service.descriptions.map(\.name) == ["embedded", "photon", "mapbox"])
        #expect(service.descriptions.map(\.isConfigured) == [true, true, false])
        #expect(service.descriptions[1].capabilities == [.search, .suggest, .reverse])
    }

    @Test("a cached answer does not ask the provider again")
    func cacheHit() async throws {
        let photon = ScriptedProvider("photon")
        let service = try self.service([photon], search: ["photon"])
        let first = try await service.search(paris, provider: nil)
        let second = try await service.search(try SearchRequest(text: "  PARIS "), provider: nil)
        #expect(photon.calls == 1)
        #expect(!first.fromCache)
        #expect(second.fromCache)
        #expect(second.results == first.results)
    }

    @Test("a cached answer expires after the provider's lifetime")
    func cacheExpiry() async throws {
        let clock = VirtualClock()
        let photon = ScriptedProvider("photon", cacheLifetime: .seconds(60))
        let service = try self.service([photon], search: ["photon"], cache: ResponseCache(clock: clock))
        _ = try await service.search(paris, provider: nil)
        clock.advance(by: .seconds(59))
        _ = try await service.search(paris, provider: nil)
        #expect(photon.calls == 1)
        clock.advance(by: .seconds(2))
        let refreshed = try await service.search(paris, provider: nil)
        #expect(photon.calls == 2)
        #expect(!refreshed.fromCache)
    }

    @Test("while the first provider is down, the fallback's cached answer saves its budget")
    func fallbackCached() async throws {
        let photon = ScriptedProvider("photon", failure: .upstream(provider: "Photon", message: "answered HTTP 502"))
        let nominatim = ScriptedProvider("nominatim")
        let service = try self.service([photon, nominatim], search: ["photon", "nominatim"])
        _ = try await service.search(paris, provider: nil)
        let again = try await service.search(paris, provider: nil)
        #expect(nominatim.calls == 1)
        #expect(again.fromCache && again.isFallback && again.provider == "nominatim")
    }

    @Test("different questions are cached apart; the embedded store is never cached")
    func cacheKeys() async throws {
        let photon = ScriptedProvider("photon")
        let cache = ResponseCache()
        let service = try self.service([photon], withStore: true, search: ["photon"], cache: cache)
        _ = try await service.search(paris, provider: nil)
        _ = try await service.search(try SearchRequest(text: "Paris", limit: 3), provider: nil)
        _ = try await service.search(try SearchRequest(text: "Paris", countryCode: "US"), provider: nil)
        _ = try await service.search(paris, provider: "embedded")
        _ = try await service.search(paris, provider: "embedded")
        #expect(photon.calls == 3)
        #expect(cache.count == 3)
    }

    @Test("the cache is bounded: the least recently used answer goes first")
    func cacheBound() throws {
        let clock = VirtualClock()
        let cache = ResponseCache(capacity: 2, clock: clock)
        let result = [PlaceResult(place: SamplePlaces.helsinki)]
        func key(_ text: String) -> ResponseCache.Key { ResponseCache.Key(provider: "photon", request: text) }
        cache.store(result, for: key("a"), lifetime: .seconds(60))
        cache.store(result, for: key("b"), lifetime: .seconds(60))
        _ = cache.results(for: key("a"))
        cache.store(result, for: key("c"), lifetime: .seconds(60))
        #expect(cache.count == 2)
        #expect(cache.results(for: key("a")) == result)
        #expect(cache.results(for: key("b")) == nil)
        #expect(cache.results(for: key("c")) == result)
    }

    @Test("suggestions below the minimum length ask nobody")
    func shortSuggestion() async throws {
        let photon = ScriptedProvider("photon")
        let answer = try await service([photon], search: ["photon"]).suggest(try SuggestRequest(text: "Pa", minChars: 4), provider: nil)
        #expect(answer.results.isEmpty)
        #expect(photon.calls == 0)
    }

    @Test("a place id is looked up by the provider its prefix names, others by the embedded store")
    func lookupRouting() async throws {
        let google = ScriptedProvider("google", places: [SamplePlaces.zurich])
        let service = try self.service([google], withStore: true, search: ["embedded"])
        #expect(try await service.lookup(id: "google:ChIJabc").name == "Zürich")
        #expect(try await service.lookup(id: "google:ChIJabc").source == "google")
        #expect(try await service.lookup(id: "geonames:658225").name == "Helsinki")
        #expect(try await service.lookup(id: "geonames:658225").source == "embedded")
        await #expect(throws: PindropError.notFound("no place has the id \"geonames:1\"")) { try await service.lookup(id: "geonames:1") }
    }

    @Test("with no providers configured every verb asks the store alone; with no store, a clear error")
    func storeAlone() async throws {
        let service = try PlaceService(store: store)
        for capability in ProviderCapability.allCases { #expect(service.chains[capability] == ["embedded"]) }
        #expect(try await service.search(try SearchRequest(text: "Helsinki")).results.map(\.place.id) == ["geonames:658225"])
        let near = try await service.nearby(try NearbyRequest(coordinate: SamplePlaces.helsinki.coordinate, radiusMeters: 1000))
        #expect(near.provider == "embedded" && near.results.map(\.place.id) == ["geonames:658225"])
        #expect(try await service.status().placeCount == 2)
        let none = try PlaceService(store: nil)
        #expect(none.descriptions.map(\.name) == ["embedded"] && none.descriptions[0].isConfigured == false)
        for ask in [{ _ = try await none.search(self.paris) }, { _ = try await none.status() }] as [() async throws -> Void] {
            await #expect(throws: PindropError.indexUnavailable("no index is open; run `pindrop import geonames <file-or-folder>` first")) {
                try await ask()
            }
        }
    }

    @Test("a fallback answer's JSON says who answered and why the first provider did not")
    func answerJSON() async throws {
        let photon = ScriptedProvider("photon", failure: .upstream(provider: "Photon", message: "did not answer within 5 s"))
        let answer = try await service([photon], withStore: true, search: ["photon", "embedded"]).search(paris, provider: nil)
        let json = WireEncoding.document(query: [("text", .text("Paris"))], answer: answer, format: .json).string
        #expect(json.hasPrefix(#"{"query":{"text":"Paris"},"provider":"embedded","fallback":true,"fromCache":false,"failures":[{"provider":"photon","code":"upstream_failed","message":"Photon: did not answer within 5 s"}],"results":[{"id":"geonames:2988507""#))
        #expect(json.contains(#""source":"embedded""#))
        let geojson = WireEncoding.document(query: [], answer: answer, format: .geojson).string
        #expect(geojson.hasPrefix(#"{"type":"FeatureCollection","query":{},"provider":"embedded","fallback":true"#))
        #expect(geojson.contains(#""features":[{"type":"Feature""#))
    }

    @Test("the provider list's JSON shows every provider, configured or not, and the chains")
    func providersJSON() throws {
        let unconfigured = ProviderDescription(name: "google", displayName: "Google", capabilities: [.search, .suggest, .reverse],
                                               attribution: "Powered by Google", unavailableReason: "set PINDROP_GOOGLE_API_KEY")
        let service = try PlaceService(store: store, unavailable: [unconfigured], chains: [.search: ["embedded"]])
        let json = WireEncoding.providersDocument(service).string
        #expect(json == #"{"providers":[{"name":"embedded","displayName":"Embedded index (offline)","configured":true,"capabilities":["search","suggest","reverse","nearby"],"attribution":"Test data"},{"name":"google","displayName":"Google","configured":false,"capabilities":["search","suggest","reverse"],"attribution":"Powered by Google","unavailableReason":"set PINDROP_GOOGLE_API_KEY"}],"chains":{"search":["embedded"],"suggest":[],"reverse":[],"nearby":[]}}"#)
    }

    // MARK: The circuit breaker

    @Test("only failures in a row open the breaker; once open, the provider is skipped, its kind of failure kept")
    func breakerCountsInARow() async throws {
        let limited = PindropError.rateLimited(provider: "Photon", message: "too many requests (HTTP 429)")
        let photon = ScriptedProvider("photon", failure: limited)
        let service = try self.service([photon], withStore: true, search: ["photon", "embedded"],
                                       breaker: CircuitBreaker(clock: VirtualClock()))
        func ask(_ n: Int) async throws -> ProviderAnswer { try await service.search(try SearchRequest(text: "Paris", limit: n)) }
        _ = try await ask(1); _ = try await ask(2)
        photon.fail(with: nil)
        _ = try await ask(3)
        photon.fail(with: limited)
        for n in 4...8 { _ = try await ask(n) }
        #expect(photon.calls == 6, "two failures, a success, then three failures before the skips")
        let skipped = try await ask(9).failures
        #expect(skipped == [ProviderFailure(provider: "photon", error: .rateLimited(
            provider: "Photon", message: "skipped without asking, as it failed 3 times in a row; it is asked again in 30 s"))])
        #expect(try await ask(3).fromCache, "an answer already cached is still given while the breaker is open")
    }

    @Test("a probe that ends in the user's own mistake says nothing of the provider: the next question probes")
    func probeGivenBack() async throws {
        let clock = VirtualClock()
        let photon = ScriptedProvider("photon", failure: .upstream(provider: "Photon", message: "is failing on its side (HTTP 503)"))
        let service = try self.service([photon], withStore: true, search: ["photon", "embedded"], breaker: CircuitBreaker(clock: clock))
        for n in 1...4 { _ = try await service.search(try SearchRequest(text: "Paris", limit: n)) }
        #expect(photon.calls == 3, "open after three failures")
        clock.advance(by: .seconds(30))
        photon.fail(with: .invalidInput("the country code \"XX\" is unknown"))
        await #expect(throws: PindropError.self) { try await service.search(self.paris) }
        photon.fail(with: nil)
        #expect(try await service.search(try SearchRequest(text: "Paris", limit: 5)).provider == "photon")
        #expect(photon.calls == 5)
    }

    @Test("an error of an unknown type is named by its type alone, never by its description")
    func unknownErrorNamed() async throws {
        struct LeakyError: Error, CustomStringConvertible {
            var description: String { "GET https://api.example.org/v1?key=SECRET failed" }
        }
        let photon = ScriptedProvider("photon")
        photon.fail(withForeign: LeakyError())
        let answer = try await service([photon], withStore: true, search: ["photon", "embedded"]).search(paris)
        #expect(answer.failures.first?.error == .upstream(provider: "Photon", message: "failed unexpectedly (LeakyError)"))
    }
}
