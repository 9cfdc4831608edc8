import Foundation
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

@Suite("OpenAPI document and web app files")
struct WebAppAndOpenAPITests {
    @Test("the OpenAPI 3.1 document lists every route the server has, and only those")
    func openAPIMatchesRouter() async throws {
        let server = TestServer()
        let router = buildRouter(configuration: server.configuration, services: try server.services)
        let documented: Set<String> = try await server.test { client in
            let json = try await client.getJSON("/openapi.json")
            #expect(json["openapi"] as? String == "3.1.0")
            let paths = try #require(json["paths"] as? [String: [String: Any]])
            var result: Set<String> = []
            for (path, operations) in paths {
                for method in operations.keys { result.insert("\(method.uppercased()) \(path)") }
            }
            return result
        }
        let routed = Set(router.routes.map { route in
            let path = route.path.description.replacingOccurrences(of: "**", with: "{id}")
            return "\(route.method) \(path.hasPrefix("/") ? path : "/" + path)"
        }.filter { $0.contains("/v1/") || ["/search", "/reverse", "/lookup", "/status", "/api"].contains($0.split(separator: " ").last.map(String.init) ?? "") })
        #expect(routed == documented)
        #expect(routed.count == 22)
    }

    @Test("the page, its script and styles are served at /")
    func pageServed() async throws {
        try await TestServer().test { client in
            let page = try await client.get("/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            let html = String(buffer: page.body)
            #expect(html.contains("/vendor/leaflet/leaflet.js"))
            #expect(html.contains("app.js"))
            #expect(try await client.get("/app.js").status == .ok)
            #expect(try await client.get("/app.css").status == .ok)
        }
    }

    @Test("the offline basemap is the Natural Earth countries collection")
    func basemap() async throws {
        try await TestServer().test { client in
            let json = try await client.getJSON("/basemap/countries.geojson")
            #expect(json["type"] as? String == "FeatureCollection")
            #expect((json["features"] as? [Any])?.count == 177)
        }
        try await TestServer { $0.basemapFile = nil }.test { client in
            let missing = try await client.get("/basemap/countries.geojson")
            #expect(missing.status == .notFound)
            #expect(try missing.errorCode == "not_found")
            #expect(try await client.get("/v1/config").json["basemap"] as? Bool == false)
        }
    }

    @Test("the page's settings come from the configuration")
    func config() async throws {
        try await TestServer {
            $0.suggestMinChars = 4
            $0.tileURL = ""
            $0.defaultCenter = Coordinate(latitude: 60.17, longitude: 24.94)
        }.test { client in
            let json = try await client.get("/v1/config").json
            #expect(json["suggestMinChars"] as? Int == 4)
            #expect(json["recentShown"] as? Int == 2)
            #expect(json["tileURL"] as? String == "")
            let center = try #require(json["defaultCenter"] as? [String: Double])
            #expect(center["latitude"] == 60.17)
        }
    }

    @Test("Leaflet comes from the Debian folder, or redirects to a configured URL")
    func leaflet() async throws {
        let debianInstalled = FileManager.default.fileExists(atPath: "/usr/share/javascript/leaflet/leaflet.js")
        try await TestServer().test { client in
            let script = try await client.get("/vendor/leaflet/leaflet.js")
            #expect(script.status == (debianInstalled ? .ok : .notFound))
        }
        try await TestServer { $0.leafletURL = "https://cdn.example/leaflet/" }.test { client in
            let redirect = try await client.get("/vendor/leaflet/images/marker-icon.png")
            #expect(redirect.status == .found)
            #expect(redirect.headers[.location] == "https://cdn.example/leaflet/images/marker-icon.png")
        }
    }

    @Test("path traversal out of the web folders is refused")
    func traversal() async throws {
        try await TestServer().test { client in
            let response = try await client.get("/vendor/leaflet/../../../../etc/passwd")
            #expect(response.status.code / 100 == 4)
        }
    }
}
