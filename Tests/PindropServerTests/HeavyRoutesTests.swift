import Foundation
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropTesting
import Synchronization
import Testing
@testable import PindropServer

/// A store whose street maps hold a thread for `seconds`, as a large one keeps a core busy; the rest is the sample
/// places'.
struct BusyStore: PlaceStore {
    let inner = FakeStore(places: SamplePlaces.all)
    let seconds: Double
    var attribution: [String] { inner.attribution }
    var streetAttribution: [String] { inner.streetAttribution }
    func search(_ request: SearchRequest) async throws -> [PlaceResult] { try await inner.search(request) }
    func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] { try await inner.suggest(request) }
    func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] { try await inner.reverse(request) }
    func nearbyPage(_ request: NearbyRequest) async throws -> NearbyPage { try await inner.nearbyPage(request) }
    func place(id: String) async throws -> Place? { try await inner.place(id: id) }
    func status() async throws -> StoreStatus { try await inner.status() }
    func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) async throws -> [MapFeature] {
        usleep(UInt32(seconds * 1_000_000))  // holds the thread, as work does
        return []
    }
    func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) async throws -> [MapLabel] { [] }
}

@Suite("heavy routes: health answers while every core is busy, the rest is 503 beyond the cores")
struct HeavyRoutesTests {
    static let cores = ProcessInfo.processInfo.activeProcessorCount
    static let streetMap = "/v1/streetmap?bbox=24.93,60.16,24.95,60.17"

    /// Sends `count` street map requests at once, and meanwhile (once they hold the server) times `probe`.
    static func busy(_ client: some TestClientProtocol, streetMaps count: Int, probe: String)
        async throws -> (statuses: [TestResponse], probe: TestResponse, probeSeconds: Double) {
        try await withThrowingTaskGroup(of: TestResponse?.self) { group in
            for _ in 0..<count { group.addTask { try await client.get(Self.streetMap) } }
            try await Task.sleep(for: .milliseconds(300))
            let started = Date()
            let answer = try await client.get(probe)
            let seconds = Date().timeIntervalSince(started)
            var statuses: [TestResponse] = []
            for try await response in group { if let response { statuses.append(response) } }
            return (statuses, answer, seconds)
        }
    }

    @Test("/healthz, /readyz and a search answer at once while every core makes a street map", arguments: ["/healthz", "/readyz", "/v1/search?q=Paris"])
    func healthUnderLoad(_ probe: String) async throws {
        var server = TestServer()
        server.store = BusyStore(seconds: 1.5)
        try await server.test { client async throws in
            let (answers, health, seconds) = try await Self.busy(client, streetMaps: 2 * Self.cores, probe: probe)
            #expect(health.status == .ok)
            // A street map holds its core 1.5 s; on the async pool the probe waited for one to end.
            #expect(seconds < 0.5, "\(probe) took \(seconds) s")
            #expect(answers.allSatisfy { $0.status == .ok }, "\(answers.map(\.status))")
        }
    }

    @Test("street maps beyond one a core running and one a core waiting are 503 overloaded with Retry-After: 1")
    func overloaded() async throws {
        var server = TestServer()
        server.store = BusyStore(seconds: 1)
        try await server.test { client async throws in
            let (answers, _, _) = try await Self.busy(client, streetMaps: 4 * Self.cores, probe: "/healthz")
            let refused = answers.filter { $0.status == .serviceUnavailable }
            #expect(answers.filter { $0.status == .ok }.count == 2 * Self.cores)
            #expect(refused.count == 2 * Self.cores)
            for response in refused {
                #expect(response.headers[.retryAfter] == "1")
                #expect(try response.errorCode == "overloaded")
            }
            // Once they are done, there is room again.
            #expect(try await client.get(Self.streetMap).status == .ok)
        }
    }

    @Test("the whole world's basemap is made once a zoom; others each time")
    func worldBasemapsKept() async throws {
        let world = WorldBasemaps(), made = Atomic<Int>(0)
        let globe = BoundingBox(south: -90, west: -180, north: 90, east: 180), half = BoundingBox(south: -90, west: 0, north: 90, east: 180)
        let make: @Sendable () async throws -> ByteBuffer = { made.add(1, ordering: .relaxed); return ByteBuffer(string: "answer") }
        try await withThrowingTaskGroup(of: ByteBuffer.self) { group in
            for _ in 0..<16 { group.addTask { try await world.answer(box: globe, zoom: 2, make) } }
            for try await answer in group { #expect(String(buffer: answer) == "answer") }
        }
        #expect(made.load(ordering: .relaxed) == 1)
        _ = try await world.answer(box: globe, zoom: 3, make)
        _ = try await world.answer(box: half, zoom: 2, make)
        _ = try await world.answer(box: half, zoom: 2, make)
        #expect(made.load(ordering: .relaxed) == 4)
    }
}
