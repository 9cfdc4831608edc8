import Foundation
import PindropCore
import PindropProviders
import PindropTesting
import Testing

/// Runs `body` against a fresh fake of `kind` accepting `apiKey`, stopping it afterwards.
func withFake<T>(_ kind: FakeProviderKind, apiKey: String = FakeProviderServer.defaultAPIKey,
                 _ body: (FakeProviderServer) async throws -> T) async throws -> T {
    let server = try await FakeProviderServer.start(kind, apiKey: apiKey)
    do {
        let value = try await body(server)
        await server.stop()
        return value
    } catch {
        await server.stop()
        throw error
    }
}

/// Runs `body` with a client made by `make` for a fresh fake of `kind` (its base URL + `path`), stopping it afterwards.
func withClient<Client>(_ kind: FakeProviderKind, path: String = "", make: (ProviderConfiguration) throws -> Client,
                        _ body: (Client, FakeProviderServer) async throws -> Void) async throws {
    try await withFake(kind) { server in try await body(try make(try configuration(for: server, path: path)), server) }
}

/// A configuration pointing at the fake, with its key and a timeout with room for a fake that answers late while every
/// other suite starts its servers at once (the tests of timeouts give their own).
func configuration(for server: FakeProviderServer, path: String = "", key: String? = nil,
                   timeout: Duration = .seconds(30)) throws -> ProviderConfiguration {
    try ProviderConfiguration(name: server.kind.rawValue, baseURL: server.baseURL + path, apiKey: key ?? server.apiKey,
                              timeout: timeout)
}

/// The one question each provider is asked in the behaviour tests: search, or nearby for Foursquare.
func askOnce(_ server: FakeProviderServer, key: String? = nil, timeout: Duration = .seconds(30)) async throws -> [PlaceResult] {
    let config = try configuration(for: server, key: key, timeout: timeout)
    let search = try SearchRequest(text: "Berlin")
    switch server.kind {
    case .nominatim: return try await NominatimClient(configuration: config).search(search)
    case .photon: return try await PhotonClient(configuration: config).search(search)
    case .google: return try await GoogleClient(configuration: config).search(search)
    case .mapbox: return try await MapboxClient(configuration: config).search(search)
    case .foursquare:
        let nearby = try NearbyRequest(coordinate: Coordinate(latitude: 37.7763, longitude: -122.4232), radiusMeters: 1000)
        return try await FoursquareClient(configuration: config).nearby(nearby)
    }
}

/// The `PindropError` thrown by `body`, or a recorded issue when it throws nothing or something else.
func pindropError(_ body: () async throws -> some Any) async -> PindropError? {
    do {
        _ = try await body()
        Issue.record("expected a PindropError, got an answer")
    } catch let error as PindropError {
        return error
    } catch {
        Issue.record("expected a PindropError, got \(error)")
    }
    return nil
}

/// A port on 127.0.0.1 where nothing listens.
func closedPortURL() async throws -> String {
    try await FakeProviderServer.closedPortURL()
}
