import Foundation
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropProviders
import PindropServer
import PindropTesting
import Testing

/// MusicBrainz allows one request a second from an address, and blocks an address that asks more, for every user
/// of it: a server's searches share one pace, take turns, run in the mode its operator allows, and are capped
/// in pages and in number, each cap said in the stream.
@Suite("Music places: one polite client per server", .serialized)
struct MusicPolitenessTests {
    @Test("six streams at once send one request per interval between them all, and take turns")
    func onePaceForAll() async throws {
        // A 100 ms "second" and 50 pages a search: no stream ends during the test. Adaptive runs fixed, as on the
        // public service.
        let server = try await MusicTestServer.start(places: 5000, timeScale: 0.1) { $0.mostEagerMode = .fixed }
        try await server.test { client in
            let port = try #require(client.port)
            let started = ContinuousClock.now
            let streams = try (0..<6).map { n in
                try StreamingConnection(port: port, path: "/v1/music/places?q=Stream\(n)&mode=\(["adaptive", "polite", "fixed"][n % 3])")
            }
            defer { for stream in streams { stream.hangUp() } }
            let deadline = ContinuousClock.now + .seconds(30)
            while streams.map({ $0.eventNames.filter { $0 == "places" }.count }).reduce(0, +) < 24, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            let requests = server.fake.statistics.requests, elapsed = (ContinuousClock.now - started).seconds
            // One request per 100 ms for the whole server (each stream alone would have sent that many).
            #expect(Double(requests) <= elapsed / 0.1 + 2, "\(requests) requests in \(elapsed) s")
            #expect(server.fake.statistics.rateLimited == 0)
            let pages = streams.map { $0.eventNames.filter { $0 == "places" }.count }
            #expect(pages.min()! >= 3 && pages.max()! - pages.min()! <= 2, "pages per stream: \(pages)")
        }
    }

    @Test("a client's mode is honoured within the operator's: adaptive asked of a polite server runs polite")
    func modeWithinTheOperators() async throws {
        let server = try await MusicTestServer.start(places: 200, timeScale: 0.02) { $0.mostEagerMode = .polite }
        let events = try ReceivedEvent.parse(try await server.test { client in
            String(buffer: try await client.get("/v1/music/places?q=Oslo&mode=adaptive").body)
        })
        #expect(events.first?.data["mode"] as? String == "polite")
        #expect(events.last?.data["mode"] as? String == "polite" && events.last?.data["status"] as? String == "finished")
        #expect(try MusicBrainzConfiguration(baseURL: "https://musicbrainz.org", contact: "ops@example.org").mostEagerMode == .fixed)
        #expect(RequestSchedulingMode.adaptive.within(.fixed) == .fixed && RequestSchedulingMode.polite.within(.fixed) == .polite)
    }

    @Test("a query the service counts 10 M places of fetches the cap's pages, and the stream says both")
    func pagesCapped() async throws {
        let server = try await MusicTestServer.start(places: 10_000_000, timeScale: 0.02) { $0.maxPagesPerSearch = 3 }
        let events = try ReceivedEvent.parse(try await server.test { client in
            String(buffer: try await client.get("/v1/music/places?q=Everything").body)
        })
        #expect(events.first?.data["pagesCap"] as? Int == 3)
        let summary = try #require(events.last?.data)
        #expect(summary["status"] as? String == "finished" && summary["pages"] as? Int == 3)
        #expect(summary["pagesCap"] as? Int == 3 && summary["pagesInAll"] as? Int == 100_000)
        #expect(server.fake.statistics.requests == 3)
        #expect(try MusicBrainzConfiguration(baseURL: "https://musicbrainz.org", contact: "ops@example.org").maxPagesPerSearch == 100)
    }

    @Test("streams beyond the pace's share are 503 overloaded, and there is room again once one ends")
    func streamsCapped() async throws {
        // A 2 s interval: 10 s of it serves 5 streams a page each.
        let server = try await MusicTestServer.start(places: 1000, timeScale: 2)
        try await server.test { client in
            let port = try #require(client.port)
            var streams = try (0..<5).map { n in try StreamingConnection(port: port, path: "/v1/music/places?q=Held\(n)") }
            for stream in streams { #expect(try await stream.wait(timeout: .seconds(10)) { $0.contains("progress") }) }
            let refused = try await client.get("/v1/music/places?q=OneMore")
            #expect(refused.status == .serviceUnavailable && refused.headers[.retryAfter] == "10")
            #expect(try refused.errorCode == "overloaded")
            #expect(String(buffer: refused.body).contains("5 music searches are running"))
            streams.removeFirst().hangUp()
            let deadline = ContinuousClock.now + .seconds(10)
            var admitted = false
            while !admitted, ContinuousClock.now < deadline {
                let again = try StreamingConnection(port: port, path: "/v1/music/places?q=Again")
                admitted = try await again.wait(timeout: .seconds(2)) { $0.contains("progress") }
                again.hangUp()
            }
            #expect(admitted)
            for stream in streams { stream.hangUp() }
        }
    }
}
