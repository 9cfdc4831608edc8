import Foundation
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

@Suite("streetmap: the offline street basemap as GeoJSON")
struct StreetMapEndpointTests {
    /// Central Helsinki, about 1.1 km × 0.9 km.
    static let helsinkiBox = "/v1/streetmap?bbox=24.930,60.165,24.950,60.173"

    static func server(_ store: any PlaceStore = FakeStore(places: SamplePlaces.all, mapFeatures: SampleStreets.helsinki)) -> TestServer {
        var server = TestServer()
        server.store = store
        return server
    }

    static func features(_ response: TestResponse) throws -> [[String: Any]] {
        try #require(try response.json["features"] as? [[String: Any]])
    }

    static func feature(_ id: String, in response: TestResponse) throws -> (geometry: [String: Any], properties: [String: Any]) {
        let feature = try #require(try features(response).first { $0["id"] as? String == id }, "no feature \(id)")
        return (try #require(feature["geometry"] as? [String: Any]), try #require(feature["properties"] as? [String: Any]))
    }

    @Test("streets are LineStrings in [lon, lat] with kind, id, name and category; the credit comes along")
    func streetsAsLines() async throws {
        try await Self.server().test { client in
            let response = try await client.get(Self.helsinkiBox)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/geo+json")
            let json = try response.json
            #expect(json["type"] as? String == "FeatureCollection")
            #expect(json["attribution"] as? [String] == ["© OpenStreetMap contributors"])
            let street = try Self.feature("osm:way/4249003", in: response)
            #expect(street.geometry["type"] as? String == "LineString")
            let line = try #require(street.geometry["coordinates"] as? [[Double]])
            #expect(line.count == 4)
            #expect(line.first == [24.94207, 60.1679], "positions are [longitude, latitude]")
            #expect(street.properties["kind"] as? String == "street")
            #expect(street.properties["id"] as? String == "osm:way/4249003")
            #expect(street.properties["name"] as? String == "Mannerheimintie")
            #expect(street.properties["category"] as? String == "primary")
        }
    }

    @Test("buildings are closed Polygons, or MultiPolygons when they have several outer rings; a nameless one has no name")
    func buildingsAsPolygons() async throws {
        try await Self.server().test { client in
            let response = try await client.get(Self.helsinkiBox)
            let stockmann = try Self.feature("osm:way/37765536", in: response)
            #expect(stockmann.geometry["type"] as? String == "Polygon")
            let rings = try #require(stockmann.geometry["coordinates"] as? [[[Double]]])
            #expect(rings.count == 1 && rings[0].count == 5 && rings[0].first == rings[0].last)
            #expect(stockmann.properties["kind"] as? String == "building")
            #expect(stockmann.properties["name"] as? String == "Stockmann")

            let twoRings = try Self.feature("osm:way/8042090", in: response)
            #expect(twoRings.geometry["type"] as? String == "MultiPolygon")
            let polygons = try #require(twoRings.geometry["coordinates"] as? [[[[Double]]]])
            #expect(polygons.count == 2)
            #expect(polygons.allSatisfy { $0.count == 1 && $0[0].first == $0[0].last }, "every ring is closed, even when the data's is not")
            #expect(twoRings.properties["name"] == nil)
            #expect(twoRings.properties["category"] as? String == "yes")
        }
    }

    @Test("only what is inside the box, streets first, cut at the limit")
    func insideTheBoxStreetsFirstLimited() async throws {
        try await Self.server().test { client in
            let all = try Self.features(try await client.get(Self.helsinkiBox))
            let kinds = all.compactMap { ($0["properties"] as? [String: Any])?["kind"] as? String }
            #expect(kinds == ["street", "street", "street", "street", "building", "building"])
            #expect(!all.contains { $0["id"] as? String == "osm:way/1" }, "Paris is not in a Helsinki box")
            #expect(try await client.get(Self.helsinkiBox).json["truncated"] as? Bool == false)

            let limited = try await client.get(Self.helsinkiBox + "&limit=2")
            #expect(try Self.features(limited).count == 2)
            #expect(try limited.json["truncated"] as? Bool == true)

            let sea = try await client.get("/v1/streetmap?bbox=24.80,60.00,24.85,60.05")
            #expect(sea.status == .ok)
            #expect(try Self.features(sea).isEmpty)
        }
    }

    @Test("a name that is markup stays a plain JSON string")
    func hostileNameIsText() async throws {
        try await Self.server().test { client in
            let response = try await client.get(Self.helsinkiBox)
            let hostile = try Self.feature("osm:way/666", in: response)
            #expect(hostile.properties["name"] as? String == "<img src=x onerror=alert(1)>katu")
        }
    }

    @Test("without street data the answer is an empty collection with no credits")
    func noStreetData() async throws {
        try await Self.server(FakeStore(places: SamplePlaces.all)).test { client in
            let response = try await client.get(Self.helsinkiBox)
            #expect(response.status == .ok)
            #expect(try Self.features(response).isEmpty)
            #expect(try response.json["attribution"] as? [String] == [])
        }
    }

    @Test("a bad box or limit is a 400 with the error shape", arguments: [
        "/v1/streetmap", "/v1/streetmap?bbox=", "/v1/streetmap?bbox=24.93,60.16,24.95", "/v1/streetmap?bbox=24.93,60.16,24.95,60.17,1",
        "/v1/streetmap?bbox=a,b,c,d", "/v1/streetmap?bbox=24.93,60.16,,60.17", "/v1/streetmap?bbox=nan,60.16,24.95,60.17",
        "/v1/streetmap?bbox=24.93,60.16,inf,60.17", "/v1/streetmap?bbox=181,60.16,181.01,60.17", "/v1/streetmap?bbox=24.93,90.5,24.95,90.6",
        "/v1/streetmap?bbox=24.93,60.16,24.95,60.17&limit=0", "/v1/streetmap?bbox=24.93,60.16,24.95,60.17&limit=20001",
        "/v1/streetmap?bbox=24.93,60.16,24.95,60.17&limit=many",
    ])
    func badInput(_ uri: String) async throws {
        try await Self.server().test { client in
            try await client.expectInvalidInput(uri)
        }
    }

    @Test("a box larger than 0.1° answers no features and asks the map to zoom in", arguments: [
        "/v1/streetmap?bbox=24.8,60.1,25.0,60.15", "/v1/streetmap?bbox=24.9,60.0,24.95,60.2", "/v1/streetmap?bbox=-180,-90,180,90",
    ])
    func tooLargeAsksToZoomIn(_ uri: String) async throws {
        try await Self.server().test { client in
            let response = try await client.get(uri)
            #expect(response.status == .ok)
            #expect(try Self.features(response).isEmpty)
            #expect(try response.json["zoomIn"] as? Bool == true)
        }
    }

    @Test("corners in either order give the same streets; a box with no area holds none")
    func cornerOrder() async throws {
        try await Self.server().test { client in
            let forward = try Self.features(try await client.get("/v1/streetmap?bbox=24.89,60.12,24.99,60.22"))
            let backward = try Self.features(try await client.get("/v1/streetmap?bbox=24.99,60.22,24.89,60.12"))
            #expect(forward.count == 6 && backward.count == 6)
            let flat = try await client.get("/v1/streetmap?bbox=24.93,60.16,24.93,60.17")
            #expect(flat.status == .ok)
            #expect(try Self.features(flat).isEmpty)
            #expect(try flat.json["zoomIn"] as? Bool == false)
        }
    }

    @Test("a box of exactly 0.1° × 0.1° is served")
    func largestBoxServed() async throws {
        try await Self.server().test { client in
            let response = try await client.get("/v1/streetmap?bbox=24.89,60.12,24.99,60.22")
            #expect(response.status == .ok)
            #expect(try Self.features(response).count == 6)
        }
    }

    @Test("a failing street store is a 503 with its message, not a 500")
    func storeFailure() async throws {
        try await Self.server(FailingStore()).test { client in
            let response = try await client.get(Self.helsinkiBox)
            #expect(response.status == .serviceUnavailable)
            #expect(try response.errorCode == "index_unavailable")
        }
    }
}

@Suite("labels: the offline map's place names")
struct MapLabelsEndpointTests {
    @Test("a view's names come biggest first with the store's credit; bbox and zoom are required and checked")
    func labels() async throws {
        try await StreetMapEndpointTests.server().test { client in
            let response = try await client.get("/v1/labels?bbox=-180,-85,180,85&zoom=3")
            #expect(response.status == .ok)
            let json = try response.json
            let labels = try #require(json["labels"] as? [[String: Any]])
            let populations = labels.compactMap { $0["population"] as? Int }
            #expect(!labels.isEmpty && populations == populations.sorted(by: >))
            #expect(populations.allSatisfy { $0 >= 2_000_000 }, "a world view names great cities only")
            #expect(json["attribution"] as? [String] == ["Test data"])
            for bad in ["/v1/labels?bbox=-180,-85,180,85", "/v1/labels?bbox=1,2,3&zoom=3", "/v1/labels?bbox=0,0,1,1&zoom=23",
                        "/v1/labels?bbox=0,0,1,1&zoom=x", "/v1/labels?bbox=0,0,1,1&zoom=5&limit=1001"] {
                let answer = try await client.get(bad)
                #expect(answer.status == .badRequest, "\(bad)")
                #expect(try answer.json["error"] != nil)
            }
        }
    }
}
