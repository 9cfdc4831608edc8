import Foundation
import PindropCore
import PindropProviders
import PindropTesting
import Testing

@Suite("The facade's providers from the environment")
struct ProviderSetupTests {
    let store = FakeStore(places: [SamplePlaces.parisFrance, SamplePlaces.helsinki])

    @Test("without keys the keyed providers are listed as unconfigured, with what to set")
    func listing() throws {
        let service = try ProviderSetup.service(store: store, environment: [:])
        let byName = Dictionary(uniqueKeysWithValues: service.descriptions.map { ($0.name, $0) })
        #expect(service.descriptions.map(\.name) == ["embedded", "nominatim", "photon", "google", "mapbox", "foursquare"])
        #expect(byName["embedded"]?.capabilities == [.search, .suggest, .reverse, .nearby])
        #expect(byName["nominatim"]?.capabilities == [.search, .reverse])
        #expect(byName["photon"]?.isConfigured == true)
        #expect(byName["google"]?.unavailableReason == "set PINDROP_GOOGLE_API_KEY")
        #expect(byName["mapbox"] == ProviderDescription(name: "mapbox", displayName: "Mapbox", capabilities: [.search, .suggest, .reverse],
                                                        attribution: "© Mapbox", unavailableReason: "set PINDROP_MAPBOX_API_KEY"))
        #expect(byName["google"]?.attribution == "Powered by Google" && byName["google"]?.displayName == "Google")
        #expect(byName["foursquare"]?.capabilities == [.nearby])
        #expect(byName["foursquare"]?.attribution == "Venue data © Foursquare")
        #expect(byName["nominatim"]?.attribution.contains("OpenStreetMap contributors") == true)
        for capability in ProviderCapability.allCases { #expect(service.chains[capability] == ["embedded"]) }
    }

    @Test("with keys every provider is configured and answers from its URL")
    func everyProviderConfigured() async throws {
        let kinds = FakeProviderKind.allCases
        var servers: [FakeProviderServer] = []
        for kind in kinds { servers.append(try await FakeProviderServer.start(kind)) }
        var environment: [String: String] = ["PINDROP_NEARBY_PROVIDERS": "foursquare"]
        for server in servers {
            let prefix = "PINDROP_\(server.kind.rawValue.uppercased())"
            environment[prefix + "_URL"] = server.baseURL
            environment[prefix + "_API_KEY"] = server.apiKey
        }
        let service = try ProviderSetup.service(store: store, environment: environment)
        #expect(service.descriptions.allSatisfy { $0.isConfigured })
        let search = try SearchRequest(text: "Berlin")
        for name in ["nominatim", "photon", "google", "mapbox"] {
            let answer = try await service.search(search, provider: name)
            #expect(answer.provider == name && !answer.isFallback)
            #expect(answer.results.allSatisfy { $0.place.source == name && $0.place.id.hasPrefix(name + ":") })
        }
        let venues = try await service.nearby(try NearbyRequest(coordinate: Coordinate(latitude: 37.7763, longitude: -122.4232),
                                                                 radiusMeters: 1000), provider: nil)
        #expect(venues.provider == "foursquare" && venues.results.count == 2)
        for server in servers { await server.stop() }
    }

    @Test("a provider that answers past the timeout falls back to the embedded index in time")
    func slowFallsBack() async throws {
        try await withFake(.photon) { server in
            server.setBehavior(.slow(.seconds(8)))
            let service = try ProviderSetup.service(
                store: store, environment: ["PINDROP_PHOTON_URL": server.baseURL, "PINDROP_SEARCH_PROVIDERS": "photon,embedded",
                              "PINDROP_PROVIDER_TIMEOUT": "0.3"])
            let started = ContinuousClock.now
            let answer = try await service.search(try SearchRequest(text: "Paris"), provider: nil)
            #expect(ContinuousClock.now - started < .seconds(4))
            #expect(answer.provider == "embedded" && answer.isFallback)
            #expect(answer.results.first?.place.id == "geonames:2988507")
            #expect(answer.failures.first?.error.message.contains("Photon: did not answer within 0.3 s") == true)
        }
    }

    @Test("with no fallback, a refused provider is a clear error within the timeout")
    func noFallback() async throws {
        let url = try await closedPortURL()
        let service = try ProviderSetup.service(
            store: store, environment: ["PINDROP_PHOTON_URL": url, "PINDROP_SEARCH_PROVIDERS": "photon"])
        let started = ContinuousClock.now
        let error = await pindropError { try await service.search(try SearchRequest(text: "Paris"), provider: nil) }
        #expect(ContinuousClock.now - started < .seconds(3), "a refused connection fails at once, not at the 5 s timeout")
        #expect(error == .upstream(provider: "Photon", message: "could not connect (connection refused)"))
    }

    @Test("a repeated question is answered from the cache without touching the network")
    func cacheHit() async throws {
        try await withFake(.mapbox) { server in
            let service = try ProviderSetup.service(
                store: store, environment: ["PINDROP_MAPBOX_URL": server.baseURL, "PINDROP_MAPBOX_API_KEY": server.apiKey,
                              "PINDROP_SUGGEST_PROVIDERS": "mapbox,embedded"])
            let first = try await service.suggest(try SuggestRequest(text: "Lincoln Mem"), provider: nil)
            server.setBehavior(.httpStatus(503))
            let second = try await service.suggest(try SuggestRequest(text: "lincoln mem"), provider: nil)
            #expect(server.requests.count == 1)
            #expect(second.fromCache && second.provider == "mapbox" && second.results == first.results)
        }
    }

    @Test("bad settings are refused with the variable's name")
    func badSettings() throws {
        #expect(throws: PindropError.invalidInput("the provider \"google\" is not configured: set PINDROP_GOOGLE_API_KEY")) {
            try ProviderSetup.service(store: store, environment: ["PINDROP_SEARCH_PROVIDERS": "google"])
        }
        #expect(throws: PindropError.invalidInput("PINDROP_PROVIDER_TIMEOUT must be a number of seconds between 0 and 600, got \"soon\"")) {
            try ProviderSetup.service(store: store, environment: ["PINDROP_PROVIDER_TIMEOUT": "soon"])
        }
        #expect(throws: PindropError.invalidInput("the provider \"foursquare\" is not configured: set PINDROP_FOURSQUARE_API_KEY")) {
            try ProviderSetup.service(store: store, environment: ["PINDROP_NEARBY_PROVIDERS": "foursquare,embedded"])
        }
        let noIndex = try ProviderSetup.service(store: nil, environment: [:])
        #expect(noIndex.descriptions.first { $0.name == "embedded" }?.isConfigured == false)
        #expect(noIndex.chains.isEmpty)
    }
}
