import Foundation
import HummingbirdTesting
import PindropCore
import PindropProviders
import PindropServer
import PindropTesting
import Testing

/// The server over a facade built by `ProviderSetup` from `environment`, with `store` (the sample places unless
/// told otherwise) as "embedded", and the fake providers on 127.0.0.1.
private func withProviderServer<Value: Sendable>(
    _ environment: [String: String], store: any PlaceStore = FakeStore(places: SamplePlaces.all),
    _ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
    let services = ServerServices(places: try ProviderSetup.service(store: store, environment: environment),
                                  users: InMemoryUserAccounts())
    return try await buildApplication(configuration: ServerConfiguration(), services: services).test(.router, body)
}

/// Runs `body` with fakes of `kinds` started (and stopped afterwards, whatever happens).
private func withFakes<Value>(_ kinds: [FakeProviderKind], apiKey: String = "fake-key-0123456789",
                              _ body: ([FakeProviderKind: FakeProviderServer]) async throws -> Value) async throws -> Value {
    var fakes: [FakeProviderKind: FakeProviderServer] = [:]
    do {
        for kind in kinds { fakes[kind] = try await FakeProviderServer.start(kind, apiKey: apiKey) }
        let value = try await body(fakes)
        for fake in fakes.values { await fake.stop() }
        return value
    } catch {
        for fake in fakes.values { await fake.stop() }
        throw error
    }
}

@Suite("provider= on the place endpoints, and /v1/providers")
struct ProvidersEndpointTests {
    @Test("/v1/providers lists every provider, configured or not with why, its capabilities, attribution and the default chains")
    func providersShape() async throws {
        try await withFakes([.photon]) { fakes in
            let environment = ["PINDROP_PHOTON_URL": fakes[.photon]!.baseURL, "PINDROP_SEARCH_PROVIDERS": "photon,embedded"]
            try await withProviderServer(environment) { client in
                let json = try await client.getJSON("/v1/providers")
                let providers = try #require(json["providers"] as? [[String: Any]])
                let byName = Dictionary(uniqueKeysWithValues: providers.map { ($0["name"] as? String ?? "", $0) })
                #expect(Set(byName.keys) == ["embedded", "nominatim", "photon", "google", "mapbox", "foursquare"])
                let photon = try #require(byName["photon"])
                #expect(photon["configured"] as? Bool == true)
                #expect(photon["capabilities"] as? [String] == ["search", "suggest", "reverse"])
                #expect((photon["attribution"] as? String)?.contains("OpenStreetMap") == true)
                #expect(photon["unavailableReason"] == nil)
                let google = try #require(byName["google"])
                #expect(google["configured"] as? Bool == false)
                #expect(google["unavailableReason"] as? String == "set PINDROP_GOOGLE_API_KEY")
                #expect(byName["foursquare"]?["capabilities"] as? [String] == ["nearby"])
                #expect(byName["embedded"]?["attribution"] as? String == "Test data")
                let chains = try #require(json["chains"] as? [String: [String]])
                #expect(chains == ["search": ["photon", "embedded"], "suggest": ["embedded"], "reverse": ["embedded"],
                                   "nearby": ["embedded"]])
            }
        }
    }

    @Test("provider=photon is answered by the fake Photon, and the answer and each result say so")
    func providerParameter() async throws {
        try await withFakes([.photon]) { fakes in
            let photon = fakes[.photon]!
            try await withProviderServer(["PINDROP_PHOTON_URL": photon.baseURL]) { client in
                let response = try await client.get("/v1/search?q=Berlin&limit=5&provider=Photon")
                #expect(response.status == .ok)
                let json = try response.json
                #expect(json["provider"] as? String == "photon")
                #expect(json["fallback"] as? Bool == false)
                #expect(try response.resultIDs == ["photon:way/518071791", "photon:relation/62422"])
                #expect(try response.results.allSatisfy { $0["source"] as? String == "photon" })

                let reverse = try await client.get("/v1/reverse?lat=52.5163&lon=13.3777&provider=photon")
                #expect(try reverse.json["provider"] as? String == "photon")
                let address = try #require(try reverse.results.first?["address"] as? [String: Any])
                #expect(address["street"] as? String == "Pariser Platz")
            }
            let asked = photon.requests.map(\.path)
            #expect(asked == ["/api", "/reverse"])
            #expect(photon.requests.first?.query["q"] == "Berlin")
        }
    }

    @Test("without provider=, the default chain answers with the engine's results, marked as the embedded provider")
    func defaultPath() async throws {
        try await withFakes([.photon]) { fakes in
            try await withProviderServer(["PINDROP_PHOTON_URL": fakes[.photon]!.baseURL]) { client in
                let response = try await client.get("/v1/search?q=Paris")
                #expect(try response.resultIDs == ["geonames:2988507", "geonames:4717560", "geonames:6099250"])
                #expect(try response.json["provider"] as? String == "embedded")
                #expect(try response.json["fallback"] as? Bool == false)
            }
            #expect(fakes[.photon]!.requests.isEmpty)
        }
    }

    @Test("a failing provider is answered by the fallback, marked as such with the failure", arguments: [
        FakeProviderBehavior.httpStatus(503), .httpStatus(429), .malformedJSON,
    ])
    func fallbackMarked(_ behavior: FakeProviderBehavior) async throws {
        try await withFakes([.photon]) { fakes in
            fakes[.photon]!.setBehavior(behavior)
            try await withProviderServer(["PINDROP_PHOTON_URL": fakes[.photon]!.baseURL]) { client in
                let response = try await client.get("/v1/search?q=Paris&provider=photon")
                #expect(response.status == .ok)
                let json = try response.json
                #expect(json["provider"] as? String == "embedded")
                #expect(json["fallback"] as? Bool == true)
                let failures = try #require(json["failures"] as? [[String: Any]])
                #expect(failures.map { $0["provider"] as? String } == ["photon"])
                #expect((failures.first?["message"] as? String)?.hasPrefix("Photon") == true)
                #expect(try response.resultIDs.first == "geonames:2988507")
            }
        }
    }

    @Test("an unreachable provider with no fallback is a 502 JSON error naming it")
    func failureWithoutFallback() async throws {
        let environment = ["PINDROP_NOMINATIM_URL": "http://127.0.0.1:1", "PINDROP_SEARCH_PROVIDERS": "nominatim"]
        try await withProviderServer(environment) { client in
            let response = try await client.get("/v1/search?q=Paris")
            #expect(response.status == .badGateway)
            #expect(try response.errorCode == "upstream_failed")
            let message = try #require(try (response.json["error"] as? [String: Any])?["message"] as? String)
            #expect(message.contains("Nominatim") && message.contains("connection refused"))
        }
    }

    @Test("an unknown, unconfigured or unsuitable provider is a 400 that says why", arguments: [
        ("/v1/search?q=Paris&provider=bing", "unknown provider \"bing\""),
        ("/v1/suggest?q=Paris&provider=google", "set PINDROP_GOOGLE_API_KEY"),
        ("/v1/nearby?lat=48.85&lon=2.35&provider=photon", "does not answer nearby"),
        ("/v1/reverse?lat=48.85&lon=2.35&provider=foursquare", "not configured"),
    ])
    func badProvider(_ uri: String, _ reason: String) async throws {
        try await withProviderServer([:]) { client in
            let message = try await client.expectInvalidInput(uri)
            #expect(message.contains(reason))
        }
    }

    @Test("a repeated question to a remote provider comes from the cache, without asking it again")
    func cachedAnswer() async throws {
        try await withFakes([.photon]) { fakes in
            try await withProviderServer(["PINDROP_PHOTON_URL": fakes[.photon]!.baseURL]) { client in
                let first = try await client.get("/v1/suggest?q=berl&provider=photon")
                let second = try await client.get("/v1/suggest?q=Berl&provider=photon")
                #expect(try first.json["fromCache"] as? Bool == false)
                #expect(try second.json["fromCache"] as? Bool == true)
                #expect(try second.resultIDs == first.resultIDs)
            }
            #expect(fakes[.photon]!.requests.count == 1)
        }
    }

    @Test("no API key appears in any response, whether the provider accepts it, refuses it or echoes it back")
    func keysNeverSent() async throws {
        let key = "sk-live-SECRET-4f9a0c7d21"
        for acceptedKey in [key, "another-key-the-fakes-accept"] {
            try await withFakes([.google, .mapbox, .foursquare], apiKey: acceptedKey) { fakes in
                let environment = [
                    "PINDROP_GOOGLE_URL": fakes[.google]!.baseURL, "PINDROP_GOOGLE_API_KEY": key,
                    "PINDROP_MAPBOX_URL": fakes[.mapbox]!.baseURL, "PINDROP_MAPBOX_API_KEY": key,
                    "PINDROP_FOURSQUARE_URL": fakes[.foursquare]!.baseURL, "PINDROP_FOURSQUARE_API_KEY": key,
                    "PINDROP_NEARBY_PROVIDERS": "foursquare,embedded",
                ]
                try await withProviderServer(environment) { client in
                    for uri in ["/v1/providers", "/v1/config", "/v1/status", "/openapi.json", "/", "/app.js",
                                "/v1/search?q=Berlin&provider=google", "/v1/reverse?lat=37.42&lon=-122.08&provider=google",
                                "/v1/suggest?q=Amphi&provider=google", "/v1/search?q=Berlin&provider=mapbox",
                                "/v1/suggest?q=Berl&provider=mapbox", "/v1/nearby?lat=37.7763&lon=-122.4232",
                                "/v1/nearby?lat=37.7763&lon=-122.4232&provider=foursquare&format=geojson",
                                "/v1/search?q=Berlin&provider=google&format=geojson"] {
                        let response = try await client.get(uri)
                        #expect(response.status.code < 500, "\(uri)")
                        #expect(!String(buffer: response.body).contains(key), "\(uri) sent the key")
                    }
                }
            }
        }
    }

    @Test("a provider's hostile answers reach the JSON only as our sentences: no key in any form, no URL, a bounded Retry-After")
    func hostileAnswersCleaned() async throws {
        let key = FakeProviderLeaks.key
        let dead = try await FakeProviderServer.closedPortURL()
        try await withFakes([.google, .mapbox, .foursquare], apiKey: key) { fakes in
            let environment = [
                "PINDROP_GOOGLE_URL": fakes[.google]!.baseURL, "PINDROP_GOOGLE_API_KEY": key,
                "PINDROP_MAPBOX_URL": fakes[.mapbox]!.baseURL, "PINDROP_MAPBOX_API_KEY": key,
                "PINDROP_FOURSQUARE_URL": fakes[.foursquare]!.baseURL, "PINDROP_FOURSQUARE_API_KEY": key,
                "PINDROP_PHOTON_URL": dead, "PINDROP_SEARCH_PROVIDERS": "photon,embedded",
            ]
            let uris: [FakeProviderKind: String] = [.google: "/v1/search?q=Paris&provider=google",
                                                    .mapbox: "/v1/search?q=Paris&provider=mapbox",
                                                    .foursquare: "/v1/nearby?lat=48.85&lon=2.35&provider=foursquare"]
            for (kind, uri) in uris {
                for behavior in FakeProviderLeaks.behaviors(kind, echoing: key) {
                    fakes[kind]!.setBehavior(behavior)
                    // A fresh server each time, so that the circuit breaker never skips the provider under test.
                    try await withProviderServer(environment) { client in
                        let response = try await client.get(uri)
                        #expect(response.status == .ok, "\(uri)")
                        let body = String(buffer: response.body)
                        let messages = try #require(try response.json["failures"] as? [[String: Any]]).compactMap { $0["message"] as? String }
                        #expect(messages.count == (kind == .foursquare ? 1 : 2), "\(messages)")
                        for text in [body] + messages {
                            for form in FakeProviderLeaks.forms(of: key) { #expect(!text.contains(form), "\(uri) \(behavior): \(form)") }
                            for url in [dead, fakes[kind]!.baseURL, "127.0.0.1"] { #expect(!text.contains(url), "\(uri): \(url)") }
                        }
                        #expect(messages.allSatisfy { $0.count <= 160 && !$0.contains("retry after") && !$0.contains("xxxx") }, "\(messages)")
                    }
                }
            }
            fakes[.mapbox]!.setBehavior(.raw(status: 429, body: "{}", retryAfter: "99999"))
            try await withProviderServer(environment) { client in
                let failures = try #require(try await client.getJSON("/v1/search?q=Paris&provider=mapbox")["failures"] as? [[String: Any]])
                #expect(failures.first?["code"] as? String == "rate_limited")
                #expect(failures.first?["message"] as? String == "Mapbox is rate-limiting us: too many requests (HTTP 429); retry after 3600 s")
            }
        }
    }

    @Test("after three failures the breaker skips a provider: the fallback answers at once, the failure says why")
    func breakerSkips() async throws {
        try await withFakes([.photon]) { fakes in
            let photon = fakes[.photon]!
            photon.setBehavior(.slow(.seconds(10)))
            let environment = ["PINDROP_PHOTON_URL": photon.baseURL, "PINDROP_SEARCH_PROVIDERS": "photon,embedded",
                               "PINDROP_PROVIDER_TIMEOUT": "2"]
            try await withProviderServer(environment) { client in
                for limit in 1...3 { _ = try await client.get("/v1/search?q=Paris&limit=\(limit)") }
                let response = try await client.get("/v1/search?q=Paris&limit=4")
                let json = try response.json
                #expect(json["provider"] as? String == "embedded" && json["fallback"] as? Bool == true)
                let failure = try #require((json["failures"] as? [[String: Any]])?.first)
                #expect(failure["code"] as? String == "upstream_failed")
                #expect((failure["message"] as? String)?.hasPrefix("Photon: skipped without asking, as it failed 3 times in a row") == true)
            }
            #expect(photon.requests.count == 3)
        }
    }

    @Test("the store never trips: however often it fails, it is asked first every time")
    func storeNeverSkipped() async throws {
        try await withFakes([.photon]) { fakes in
            let environment = ["PINDROP_PHOTON_URL": fakes[.photon]!.baseURL, "PINDROP_SEARCH_PROVIDERS": "embedded,photon"]
            try await withProviderServer(environment, store: FailingStore()) { client in
                for limit in 1...5 {
                    let json = try await client.getJSON("/v1/search?q=Paris&limit=\(limit)")
                    #expect(json["provider"] as? String == "photon")
                    let failures = try #require(json["failures"] as? [[String: Any]])
                    #expect(failures.map { $0["message"] as? String } == ["the index file is missing"])
                }
            }
        }
    }
}
