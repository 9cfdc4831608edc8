import Foundation
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

/// `/v1/music/places` against the local MusicBrainz-compatible server, time-scaled so its one-request-per-second
/// rule runs at one request per few dozen milliseconds.
@Suite("Music places as Server-Sent Events")
struct MusicEndpointTests {
    @Test("events come in order: progress, then places and progress per page, then done with the summary")
    func eventsInOrder() async throws {
        let server = try await MusicTestServer.start(places: 300, timeScale: 0.02)
        let (contentType, body) = try await server.test { client in
            let response = try await client.get("/v1/music/places?q=Copenhagen&mode=polite")
            #expect(response.status == .ok)
            return (response.headers[.contentType], String(buffer: response.body))
        }
        let events = try ReceivedEvent.parse(body)
        #expect(contentType?.hasPrefix("text/event-stream") == true)
        #expect(events.map(\.name) == ["progress", "places", "progress", "places", "progress", "places", "progress", "done"])
        #expect(events.first?.data["pagesDone"] as? Int == 0)

        let pages = events.filter { $0.name == "places" }
        #expect(pages.map { $0.data["page"] as? Int } == [0, 1, 2])
        #expect(pages.map { $0.data["offset"] as? Int } == [0, 100, 200])
        let places = pages.flatMap { $0.data["places"] as? [[String: Any]] ?? [] }
        let summary = try #require(events.last?.data)
        #expect(summary["status"] as? String == "finished")
        #expect(summary["pages"] as? Int == 3 && summary["places"] as? Int == 300)
        #expect(summary["kept"] as? Int == places.count && !places.isEmpty)
        #expect(summary["rateLimited"] as? Int == 0)
        for place in places {
            let year = try #require(place["openYear"] as? Int)
            #expect(year >= 1990)
            #expect(place["lifespanSeconds"] as? Int == year - 1990)
            #expect(place["latitude"] is Double && place["longitude"] is Double)
        }
        // The progress after the last page agrees with the summary.
        let lastProgress = try #require(events.dropLast().last?.data)
        #expect(lastProgress["pagesDone"] as? Int == 3 && lastProgress["pagesTotal"] as? Int == 3)
    }

    @Test("since moves the cut-off year and the pins' lifespans")
    func sinceYear() async throws {
        let server = try await MusicTestServer.start(places: 100, timeScale: 0.02)
        let events = try ReceivedEvent.parse(try await server.test { client in
            String(buffer: try await client.get("/v1/music/places?q=Oslo&since=2010").body)
        })
        let places = events.filter { $0.name == "places" }.flatMap { $0.data["places"] as? [[String: Any]] ?? [] }
        #expect(!places.isEmpty)
        #expect(places.allSatisfy { ($0["openYear"] as? Int ?? 0) >= 2010 })
        #expect(places.allSatisfy { $0["lifespanSeconds"] as? Int == ($0["openYear"] as? Int ?? 0) - 2010 })
    }

    @Test("pages reach the client as they arrive, long before the search ends")
    func pagesStream() async throws {
        // A 150 ms rule second and 6 pages: the search takes at least 750 ms.
        let server = try await MusicTestServer.start(places: 600, timeScale: 0.15)
        try await server.test { client in
            let connection = try StreamingConnection(port: try #require(client.port), path: "/v1/music/places?q=Berlin&mode=fixed")
            defer { connection.hangUp() }
            // The end may come late on a machine busy with the other suites; what is tested is when the pages came.
            #expect(try await connection.wait(timeout: .seconds(90)) { $0.contains("done") })
            let first = try #require(connection.arrival(of: "places"))
            let done = try #require(connection.arrival(of: "done"))
            #expect(done - first >= .milliseconds(600))
            #expect(connection.eventNames.filter { $0 == "places" }.count == 6)
        }
    }

    @Test("a client that hangs up cancels the upstream fetching: the MusicBrainz request count stops growing")
    func hangUpCancels() async throws {
        // 40 pages at one request per 100 ms: about 4 s if nobody stopped it.
        let server = try await MusicTestServer.start(places: 4000, timeScale: 0.1)
        try await server.test { client in
            let connection = try StreamingConnection(port: try #require(client.port), path: "/v1/music/places?q=Copenhagen")
            #expect(try await connection.wait { names in names.filter { $0 == "places" }.count >= 2 })
            connection.hangUp()
            // A loaded machine may notice the hang-up late: wait until the count holds still for a second.
            var last = server.fake.statistics.requests, stableSince = ContinuousClock.now
            let deadline = ContinuousClock.now + .seconds(20)
            while ContinuousClock.now < deadline, ContinuousClock.now - stableSince < .seconds(1) {
                try await Task.sleep(for: .milliseconds(100))
                let now = server.fake.statistics.requests
                if now != last { (last, stableSince) = (now, .now) }
            }
            #expect(ContinuousClock.now - stableSince >= .seconds(1), "the MusicBrainz request count never stopped growing")
            #expect(last < 40, "all 40 pages were fetched: the hang-up cancelled nothing")
        }
    }

    @Test("bad input is a 400 with the JSON error shape, and nothing is asked of MusicBrainz",
          arguments: ["/v1/music/places", "/v1/music/places?q=", "/v1/music/places?q=%20%20",
                      "/v1/music/places?q=Oslo&mode=turbo", "/v1/music/places?q=Oslo&since=abc",
                      "/v1/music/places?q=Oslo&since=99", "/v1/music/places?q=" + String(repeating: "x", count: 300)])
    func badInput(uri: String) async throws {
        let server = try await MusicTestServer.start(places: 100, timeScale: 0.02)
        try await server.test { client in
            let response = try await client.get(uri)
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(try response.errorCode == "invalid_input")
        }
        #expect(server.fake.statistics.requests == 0)
    }

    @Test("without a music service the endpoint says so with a 503, not a crash")
    func notConfigured() async throws {
        try await TestServer().test { client in
            let response = try await client.get("/v1/music/places?q=Oslo")
            #expect(response.status == .serviceUnavailable)
            #expect(try response.errorCode == "not_configured")
            #expect(String(buffer: response.body).contains("music search is not configured"))
        }
    }

    @Test("a MusicBrainz failure ends the stream with an error event that explains it")
    func upstreamFailure() async throws {
        let server = try await MusicTestServer.start(places: 100, timeScale: 0.02, failure: .status(500))
        let events = try ReceivedEvent.parse(try await server.test { client in
            String(buffer: try await client.get("/v1/music/places?q=Oslo").body)
        })
        #expect(events.map(\.name) == ["progress", "error"])
        let error = try #require(events.last?.data["error"] as? [String: Any])
        #expect(error["code"] as? String == "upstream_failed")
        #expect((error["message"] as? String)?.contains("500") == true)
        #expect(events.last?.data["status"] as? String == "failed")
    }
}
