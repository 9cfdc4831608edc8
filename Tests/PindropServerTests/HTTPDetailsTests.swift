import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

/// The HTTP details a careful server gets right, in-process (what needs a raw socket, the Host and HTTP/1.0
/// rules, is in Tests/browser/test_hardening.py).
@Suite("HTTP details: ranges, HEAD, headers, files, numbers and text")
struct HTTPDetailsTests {
    /// A web folder of two files, a folder and a link out of it (to a file beside it), for the static files.
    static func webFolder() throws -> String {
        let root = TestScratch.folder("web")
        try FileManager.default.createDirectory(atPath: root + "/public/sub", withIntermediateDirectories: true)
        try Data("<!doctype html><title>app</title>".utf8).write(to: URL(fileURLWithPath: root + "/public/index.html"))
        try Data("0123456789".utf8).write(to: URL(fileURLWithPath: root + "/public/ten.txt"))
        try Data("secret".utf8).write(to: URL(fileURLWithPath: root + "/secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: root + "/public/out.txt", withDestinationPath: root + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: root + "/public/in.txt", withDestinationPath: root + "/public/ten.txt")
        return root + "/public"
    }

    static func server() throws -> TestServer {
        let folder = try webFolder()
        return TestServer { $0.publicDirectory = folder }
    }

    static func range(_ client: some TestClientProtocol, _ value: String) async throws -> TestResponse {
        try await client.executeRequest(uri: "/ten.txt", method: .get, headers: [.range: value], body: nil)
    }

    @Test("a byte range: 206 with its bytes; past the end 416 with bytes */N; bytes=-1 is the last byte; several ranges get the file")
    func ranges() async throws {
        try await Self.server().test { client async throws in
            let middle = try await Self.range(client, "bytes=2-4")
            #expect(middle.status == .partialContent && String(buffer: middle.body) == "234")
            #expect(middle.headers[.contentRange] == "bytes 2-4/10" && middle.headers[.contentLength] == "3")
            let last = try await Self.range(client, "bytes=-1")
            #expect(last.status == .partialContent && String(buffer: last.body) == "9" && last.headers[.contentRange] == "bytes 9-9/10")
            let tail = try await Self.range(client, "bytes=7-")
            #expect(String(buffer: tail.body) == "789" && tail.headers[.contentRange] == "bytes 7-9/10")
            let clipped = try await Self.range(client, "bytes=8-1000")
            #expect(String(buffer: clipped.body) == "89" && clipped.headers[.contentRange] == "bytes 8-9/10")
            for outside in ["bytes=10-", "bytes=1000000-1000005", "bytes=-0"] {
                let refused = try await Self.range(client, outside)
                #expect(refused.status == .rangeNotSatisfiable, "\(outside)")
                #expect(refused.headers[.contentRange] == "bytes */10", "\(outside)")
                #expect(Int(refused.headers[.contentLength] ?? "") == refused.body.readableBytes, "\(outside)")
            }
            for whole in ["bytes=0-1,4-5", "bytes=5-2", "items=0-1", "bytes=x-y"] {
                let all = try await Self.range(client, whole)
                #expect(all.status == .ok && String(buffer: all.body) == "0123456789", "\(whole)")
            }
        }
    }

    @Test("HEAD says GET's Content-Length, for files and for the API")
    func headLength() async throws {
        try await Self.server().test { client async throws in
            for uri in ["/ten.txt", "/v1/search?q=Paris", "/openapi.json"] {
                let get = try await client.get(uri)
                let head = try await client.executeRequest(uri: uri, method: .head, headers: [:], body: nil)
                #expect(head.status == .ok && head.body.readableBytes == 0, "\(uri)")
                #expect(head.headers[.contentLength] == String(get.body.readableBytes), "\(uri): \(String(describing: head.headers[.contentLength]))")
            }
        }
    }

    @Test("every answer says nosniff; the web app's page carries a CSP that no page may frame")
    func securityHeaders() async throws {
        try await Self.server().test { client async throws in
            for uri in ["/", "/v1/search?q=Paris", "/v1/search?q=", "/no/such/file", "/healthz", "/ten.txt"] {
                #expect(try await client.get(uri).headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff", "\(uri)")
            }
            let page = try await client.get("/")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("frame-ancestors 'none'") && policy.contains("script-src 'self'"))
            #expect(policy.contains("img-src 'self' data: https://tile.openstreetmap.org"), "\(policy)")
        }
    }

    @Test("files: a link out of the folder is not followed, one inside is; a folder is neither listed nor redirected")
    func files() async throws {
        try await Self.server().test { client async throws in
            #expect(try await client.get("/out.txt").status == .notFound)
            #expect(String(buffer: try await client.get("/in.txt").body) == "0123456789")
            #expect(try await client.get("/sub").status == .notFound)
            #expect(try await client.get("/sub/").status == .notFound)
        }
        try await TestServer().test { client async throws in
            let images = try await client.get("/vendor/leaflet/images")
            #expect(images.status == .notFound && images.headers[.location] == nil)
        }
    }

    @Test("Authorization: the bearer scheme is read in any case")
    func bearerAnyCase() async throws {
        let server = TestServer()
        let token = try await server.users.addUser(named: "casey")
        try await server.test { client async throws in
            for scheme in ["Bearer", "bearer", "BEARER"] {
                let response = try await client.executeRequest(uri: "/v1/saved", method: .get, headers: [.authorization: "\(scheme) \(token)"], body: nil)
                #expect(response.status == .ok, "\(scheme)")
            }
            let wrong = try await client.executeRequest(uri: "/v1/saved", method: .get, headers: [.authorization: "bearer nope"], body: nil)
            #expect(wrong.status == .unauthorized)
        }
    }

    @Test("numbers are decimal: hexadecimal, inf and nan are 400", arguments: [
        "/v1/reverse?lat=0x1p3&lon=0", "/v1/reverse?lat=8&lon=0x10", "/v1/nearby?lat=1&lon=1&radius=0x3e8",
        "/reverse?format=json&lat=0x1p3&lon=0", "/v1/reverse?lat=inf&lon=0", "/v1/reverse?lat=nan&lon=0", "/v1/reverse?lat=%208&lon=0",
    ])
    func decimalNumbers(_ uri: String) async throws {
        try await TestServer().test { client async throws in
            let response = try await client.get(uri)
            #expect(response.status == .badRequest, "\(uri) answered \(response.status)")
        }
        #expect(DecimalNumber.parse("-47.5e1") == -475 && DecimalNumber.parse(".5") == 0.5 && DecimalNumber.parse("5.") == 5)
        #expect(DecimalNumber.parse("0x1p3") == nil && DecimalNumber.parse("1e") == nil && DecimalNumber.parse("") == nil)
    }

    @Test("a saved name loses its bidirectional overrides and isolates")
    func bidiOverrides() async throws {
        let server = TestServer()
        try await server.test { client async throws in
            let body = #"{"name":"Evil\u202Egnp.exe","displayName":"\u2067Evil\u2069 \u202Atown\u202C","latitude":1,"longitude":2,"address":{"street":"\u202DMain"}}"#
            let saved = try await client.send(.put, "/v1/saved/a", json: body)
            #expect(saved.status == .created)
            let listed = try #require(try await client.get("/v1/saved").results.first)
            #expect(listed["name"] as? String == "Evilgnp.exe" && listed["displayName"] as? String == "Evil town")
            #expect((listed["address"] as? [String: Any])?["street"] as? String == "Main")
        }
    }

    @Test("every length cap counts Unicode scalars, as the OpenAPI maxLength does")
    func scalarLengths() async throws {
        // 100 letters with a combining mark each: 100 graphemes, 200 scalars.
        let marked = String(repeating: "e\u{301}", count: 100)
        #expect(!RequestLimits.fits(marked, within: 199) && RequestLimits.fits(marked, within: 200))
        try await TestServer().test { client async throws in
            let tooLong = #"{"name":"\#(String(repeating: "e\u{301}", count: 101))","latitude":1,"longitude":2}"#
            #expect(try await client.send(.put, "/v1/saved/a", json: tooLong).status == .badRequest)
            let fits = #"{"name":"\#(marked)","latitude":1,"longitude":2}"#
            #expect(try await client.send(.put, "/v1/saved/a", json: fits).status == .created)
            #expect(try await client.get("/v1/search?q=" + String(repeating: "e%CC%81", count: 129)).status == .badRequest)
        }
        #expect(throws: PindropError.self) { try UserAccount.validatedName(String(repeating: "e\u{301}", count: 33)) }
    }

    @Test("coordinates are written with at most 7 decimals, in v1 JSON and GeoJSON and the compatible formats")
    func sevenDecimals() async throws {
        let noisy = Place(id: "test:noise", name: "Noise", displayName: "Noise", coordinate: Coordinate(latitude: 47.139368100000006, longitude: 9.521983899999999),
                          boundingBox: BoundingBox(south: 47.1391000000001, west: 9.52159999999998, north: 47.1396, east: 9.5223), kind: .venue)
        var server = TestServer()
        server.store = FakeStore(places: [noisy])
        try await server.test { client async throws in
            for uri in ["/v1/search?q=Noise", "/v1/search?q=Noise&format=geojson", "/search?q=Noise&format=jsonv2",
                        "/search?q=Noise&format=geojson", "/api?q=Noise"] {
                let text = String(buffer: try await client.get(uri).body)
                #expect(text.contains("47.1393681") && text.contains("9.5219839"), "\(uri): \(text.prefix(300))")
                #expect(!text.contains("47.139368100000006") && !text.contains("9.521983899999999") && !text.contains("47.1391000000001"),
                        "\(uri): \(text.prefix(300))")
            }
        }
    }
}
