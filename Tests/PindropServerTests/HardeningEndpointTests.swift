import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

/// What the server refuses or bounds before any route answers: growth of the user's lists, writes
/// from other web sites, host names it does not serve, non-JSON bodies, and paths that leave the web folder.
/// (The connection-level limits are exercised over real sockets in Tests/browser/test_hardening.py.)
@Suite("Hardening")
struct HardeningEndpointTests {
    static func place(_ n: Int) -> String {
        #"{"name":"Place \#(n)","latitude":60.1\#(n),"longitude":24.9}"#
    }

    @Test("saved places come a page at a time, newest first, and the pages join up to the whole list")
    func savedPaging() async throws {
        try await TestServer().test { client async throws in
            for n in 1...7 { #expect(try await client.send(.put, "/v1/saved/p\(n)", json: Self.place(n)).status == .created) }
            let (ids, pages, totals) = try await client.followPages("/v1/saved?limit=3")
            #expect(totals == [7, 7, 7])
            #expect(pages == 3)
            #expect(ids == (1...7).reversed().map { "p\($0)" })
            try await client.expectInvalidInput("/v1/saved?cursor=abc")
            try await client.expectInvalidInput("/v1/saved?limit=501")
        }
    }

    @Test("the saved list stops at its cap with a 409 until a place is removed; re-saving one is fine")
    func savedCap() async throws {
        try await TestServer { $0.maxSavedPlaces = 3 }.test { client async throws in
            for n in 1...3 { #expect(try await client.send(.put, "/v1/saved/p\(n)", json: Self.place(n)).status == .created) }
            let full = try await client.send(.put, "/v1/saved/p4", json: Self.place(4))
            #expect(full.status == .conflict)
            #expect(try full.errorCode == "limit_reached")
            #expect(try await client.send(.put, "/v1/saved/p2", json: Self.place(2)).status == .ok)
            #expect(try await client.send(.delete, "/v1/saved/p1").status == .noContent)
            #expect(try await client.send(.put, "/v1/saved/p4", json: Self.place(4)).status == .created)
        }
    }

    @Test("a saved place's size is capped by its fields: a 201-character name or a 501-character display name is 400")
    func savedSizeCap() async throws {
        try await TestServer().test { client async throws in
            let longName = #"{"name":"\#(String(repeating: "x", count: 201))","latitude":1,"longitude":2}"#
            let longDisplay = #"{"name":"A","displayName":"\#(String(repeating: "x", count: 501))","latitude":1,"longitude":2}"#
            for body in [longName, longDisplay] {
                #expect(try await client.send(.put, "/v1/saved/a", json: body).status == .badRequest)
            }
            #expect(try await client.get("/v1/saved").results.isEmpty)
        }
    }

    @Test("writes beyond the per-minute limit are 429 with Retry-After; reads are not limited")
    func writeRateLimit() async throws {
        // 3 a minute: a burst of 1, then one every 20 s, so even a slow, loaded machine sends the ten writes
        // long before a second one is allowed.
        try await TestServer { $0.writesPerMinute = 3 }.test { client async throws in
            var statuses: [Int] = []
            for _ in 1...10 {
                let response = try await client.send(.post, "/v1/recent", json: #"{"id":"geonames:658225"}"#)
                statuses.append(Int(response.status.code))
                if response.status == .tooManyRequests {
                    #expect(try response.errorCode == "too_many_requests")
                    #expect(Int(response.headers[.retryAfter] ?? "") ?? 0 >= 1)
                }
            }
            #expect(statuses.first == 201)
            #expect(statuses.filter { $0 == 429 }.count >= 8, "\(statuses)")
            #expect(try await client.get("/v1/recent").status == .ok)
        }
    }

    @Test("a Host the server does not serve is 403 (DNS rebinding); loopback names and allowed hosts are served")
    func hostAllowList() async throws {
        try await TestServer().test { client async throws in
            let host = HTTPField.Name("Host")!
            let rebound = try await client.executeRequest(uri: "/v1/saved", method: .get, headers: [host: "evil.example"], body: nil)
            #expect(rebound.status == .forbidden)
            #expect(try rebound.errorCode == "forbidden")
            for name in ["localhost:8080", "127.0.0.1", "[::1]:8080", "app.localhost"] {
                #expect(try await client.executeRequest(uri: "/v1/saved", method: .get, headers: [host: name], body: nil).status == .ok, "\(name)")
            }
        }
        try await TestServer { $0.allowedHosts = ["maps.example.com"] }.test { client async throws in
            let host = HTTPField.Name("Host")!
            #expect(try await client.executeRequest(uri: "/v1/saved", method: .get, headers: [host: "Maps.Example.com:443"], body: nil).status == .ok)
            #expect(try await client.executeRequest(uri: "/v1/saved", method: .get, headers: [host: "evil.example"], body: nil).status == .forbidden)
        }
    }

    @Test("writes from another web site are 403 unless CORS allows it; its preflight then says so")
    func crossSiteWrites() async throws {
        let body = ByteBuffer(string: #"{"id":"geonames:658225"}"#)
        let json: HTTPFields = [.contentType: "application/json"]
        try await TestServer().test { client async throws in
            var headers = json
            headers[.origin] = "http://evil.example"
            let forged = try await client.executeRequest(uri: "/v1/recent", method: .post, headers: headers, body: body)
            #expect(forged.status == .forbidden)
            headers[.origin] = "http://127.0.0.1:8080"
            headers[HTTPField.Name("Host")!] = "127.0.0.1:8080"
            #expect(try await client.executeRequest(uri: "/v1/recent", method: .post, headers: headers, body: body).status == .created)
            let preflight = try await client.executeRequest(uri: "/v1/recent", method: .options,
                                                            headers: [.origin: "http://evil.example", .accessControlRequestMethod: "POST"], body: nil)
            #expect(preflight.status == .forbidden)
        }
        try await TestServer { $0.corsOrigins = ["https://maps.example.com"] }.test { client async throws in
            var headers = json
            headers[.origin] = "https://maps.example.com"
            let allowed = try await client.executeRequest(uri: "/v1/recent", method: .post, headers: headers, body: body)
            #expect(allowed.status == .created)
            #expect(allowed.headers[.accessControlAllowOrigin] == "https://maps.example.com")
            let preflight = try await client.executeRequest(uri: "/v1/recent", method: .options,
                                                            headers: [.origin: "https://maps.example.com", .accessControlRequestMethod: "POST"], body: nil)
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowMethods]?.contains("POST") == true)
            #expect(preflight.headers[.accessControlAllowHeaders]?.contains("Authorization") == true, "a page may send a user's token")
        }
    }

    @Test("a write body that is not JSON is 415, so a form cannot post it cross-site without a preflight",
          arguments: ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
    func jsonOnly(_ type: String) async throws {
        try await TestServer().test { client async throws in
            let response = try await client.executeRequest(uri: "/v1/recent", method: .post, headers: [.contentType: type],
                                                           body: ByteBuffer(string: #"{"id":"geonames:658225"}"#))
            #expect(response.status == .unsupportedMediaType)
            #expect(try response.errorCode == "unsupported_media_type")
            #expect(try await client.get("/v1/recent").results.isEmpty)
        }
    }

    @Test("paths with NUL or control characters, or going up with .., are 400", arguments: [
        "/app.js%00.html", "/index.html%0a", "/%2e%2e/%2e%2e/etc/passwd", "/v1/../openapi.json",
    ])
    func badPaths(_ uri: String) async throws {
        try await TestServer().test { client async throws in
            let response = try await client.get(uri)
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
        }
    }

    @Test("the OpenAPI document lists, for each question, the providers this server can be asked")
    func providerEnum() async throws {
        try await TestServer().test { client async throws in
            let document = try await client.getJSON("/openapi.json")
            let search = try #require((document["paths"] as? [String: Any])?["/v1/search"] as? [String: Any])
            let parameters = try #require((search["get"] as? [String: Any])?["parameters"] as? [[String: Any]])
            let provider = try #require(parameters.first { $0["name"] as? String == "provider" })
            #expect((provider["schema"] as? [String: Any])?["enum"] as? [String] == ["", "embedded"])
        }
    }
}
