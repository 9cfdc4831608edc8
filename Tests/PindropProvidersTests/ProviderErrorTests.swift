import Foundation
import PindropCore
import PindropProviders
import PindropTesting
import Testing

/// Every client against its fake for every way a provider fails: each becomes one `PindropError` a
/// person understands, within the timeout, and none repeats the key.
@Suite("Provider failures")
struct ProviderErrorTests {
    /// A behaviour and what the user must be told.
    struct Case: Sendable, CustomTestStringConvertible {
        var behavior: FakeProviderBehavior
        var code: String
        var phrase: String
        var testDescription: String { "\(behavior) → \(code)" }
    }

    static let cases: [Case] = [
        Case(behavior: .httpStatus(401), code: "upstream_failed", phrase: "HTTP 401"),
        Case(behavior: .httpStatus(403), code: "upstream_failed", phrase: "HTTP 403"),
        Case(behavior: .httpStatus(429), code: "rate_limited", phrase: "HTTP 429"),
        Case(behavior: .httpStatus(500), code: "upstream_failed", phrase: "failing on its side (HTTP 500)"),
        Case(behavior: .httpStatus(503), code: "upstream_failed", phrase: "failing on its side (HTTP 503)"),
        Case(behavior: .malformedJSON, code: "upstream_failed", phrase: "not its documented JSON"),
    ]

    @Test("an error status or a broken body becomes a clear error", arguments: FakeProviderKind.allCases, cases)
    func failure(kind: FakeProviderKind, expected: Case) async throws {
        try await withFake(kind) { server in
            server.setBehavior(expected.behavior)
            let error = await pindropError { try await askOnce(server) }
            #expect(error?.code == expected.code)
            #expect(error?.message.contains(expected.phrase) == true, "\(error?.message ?? "")")
            #expect(error?.message.contains(server.apiKey) == false)
            #expect(server.requests.count == 1)
        }
    }

    @Test("the provider's own explanation is not passed on: the message is ours, with the status", arguments: FakeProviderKind.allCases)
    func explanation(kind: FakeProviderKind) async throws {
        try await withFake(kind) { server in
            server.setBehavior(.httpStatus(400))
            let error = await pindropError { try await askOnce(server) }
            #expect(error?.message.hasSuffix("refused the request (HTTP 400)") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("The fake answered") == false)
        }
    }

    @Test("a 429 tells when to retry", arguments: [FakeProviderKind.photon, .mapbox])
    func retryAfter(kind: FakeProviderKind) async throws {
        try await withFake(kind) { server in
            server.setBehavior(.httpStatus(429))
            let error = await pindropError { try await askOnce(server) }
            #expect(error?.message.contains("retry after 1 s") == true)
        }
    }

    @Test("a slow answer fails at the timeout, not later", arguments: FakeProviderKind.allCases)
    func timeout(kind: FakeProviderKind) async throws {
        try await withFake(kind) { server in
            // Far slower than the timeout, so "at the timeout" and "after the answer" cannot be confused on a busy machine.
            server.setBehavior(.slow(.seconds(8)))
            let started = ContinuousClock.now
            let error = await pindropError { try await askOnce(server, timeout: .milliseconds(300)) }
            let elapsed = ContinuousClock.now - started
            #expect(error?.code == "upstream_failed")
            #expect(error?.message.hasSuffix("did not answer within 0.3 s") == true, "no URL: \(error?.message ?? "")")
            #expect(elapsed < .seconds(4))
        }
    }

    @Test("an empty answer is no results, not an error", arguments: FakeProviderKind.allCases)
    func empty(kind: FakeProviderKind) async throws {
        try await withFake(kind) { server in
            server.setBehavior(.empty)
            let results = try await askOnce(server)
            #expect(results.isEmpty)
        }
    }

    @Test("a refused connection says so without the address (the operator's business, not the public's)")
    func refused() async throws {
        let url = try await closedPortURL()
        let client = PhotonClient(configuration: try ProviderConfiguration(name: "Photon", baseURL: url))
        let error = await pindropError { try await client.search(try SearchRequest(text: "Berlin")) }
        #expect(error == .upstream(provider: "Photon", message: "could not connect (connection refused)"))
    }

    @Test("a wrong key is refused in words that never repeat it", arguments: [FakeProviderKind.google, .mapbox, .foursquare])
    func wrongKey(kind: FakeProviderKind) async throws {
        let wrongKey = "sk-live-WRONG-do-not-print-987654321"
        try await withFake(kind) { server in
            let error = await pindropError { try await askOnce(server, key: wrongKey) }
            let message = error?.message ?? ""
            #expect(!message.isEmpty)
            #expect(!message.contains(wrongKey), "\(message)")
            #expect(!message.contains(server.apiKey))
            let variable = ["google": "PINDROP_GOOGLE_API_KEY", "mapbox": "PINDROP_MAPBOX_API_KEY",
                            "foursquare": "PINDROP_FOURSQUARE_API_KEY"][kind.rawValue]!
            #expect(message.contains(variable), "\(message)")
        }
    }

    @Test("a key never shows when a configuration is printed, dumped or reflected")
    func keyNeverPrinted() throws {
        let key = "pk.eyJ1IjoidGVzdCIsImEiOiJzZWNyZXQifQ.secret"
        let config = try ProviderConfiguration(name: "Mapbox", baseURL: "https://api.mapbox.com", apiKey: key)
        var dumped = ""
        dump(config, to: &dumped)
        #expect(config.apiKey?.value == key)
        for text in [String(describing: config), String(reflecting: config), dumped, "\(config.apiKey!)"] {
            #expect(!text.contains(key), "\(text)")
        }
    }

    @Test("a malformed URL or a missing key is refused when configured")
    func badConfiguration() throws {
        #expect(throws: PindropError.invalidInput("the Photon URL must look like https://example.org or http://127.0.0.1:8080, got \"photon.local\"")) {
            try ProviderConfiguration(name: "Photon", baseURL: "photon.local")
        }
        let keyless = try ProviderConfiguration(name: "Google", baseURL: GoogleClient.defaultBaseURL)
        #expect(throws: PindropError.invalidInput("Google needs an API key: set PINDROP_GOOGLE_API_KEY")) {
            try GoogleClient(configuration: keyless)
        }
        #expect(throws: PindropError.invalidInput("Mapbox needs an access token: set PINDROP_MAPBOX_API_KEY")) {
            try MapboxClient(configuration: keyless)
        }
        #expect(throws: PindropError.invalidInput("Foursquare needs an API key: set PINDROP_FOURSQUARE_API_KEY")) {
            try FoursquareClient(configuration: keyless)
        }
    }
}
