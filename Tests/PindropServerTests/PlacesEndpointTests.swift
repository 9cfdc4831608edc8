import Foundation
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

@Suite("search, suggest, reverse, nearby, places, status")
struct PlacesEndpointTests {
    @Test("search lists results in the engine's order with the shared wire fields")
    func searchInEngineOrder() async throws {
        try await TestServer().test { client in
            let response = try await client.get("/v1/search?q=Paris")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(try response.resultIDs == ["geonames:2988507", "geonames:4717560", "geonames:6099250"])
            let first = try #require(try response.results.first)
            #expect(first["displayName"] as? String == "Paris, Île-de-France, France")
            #expect(first["latitude"] as? Double == 48.85341)
            #expect(first["longitude"] as? Double == 2.3488)
            #expect(first["countryCode"] as? String == "FR")
            let query = try #require(try response.json["query"] as? [String: Any])
            #expect(query["text"] as? String == "Paris")
        }
    }

    @Test("search output matches the CLI's wire encoding byte for byte")
    func searchMatchesWireEncoding() async throws {
        try await TestServer().test { client in
            let response = try await client.get("/v1/search?q=helsinki&limit=1")
            let expected = WireEncoding.document(
                query: [("text", .text("helsinki")), ("limit", .integer(1))],
                answer: ProviderAnswer(results: [PlaceResult(place: SamplePlaces.helsinki)], provider: "embedded"), format: .json)
            #expect(String(buffer: response.body) == expected.string)
        }
    }

    @Test("search with format=geojson is a FeatureCollection with [lon, lat] points")
    func searchGeoJSON() async throws {
        try await TestServer().test { client in
            let response = try await client.get("/v1/search?q=Zurich&format=geojson")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/geo+json")
            let json = try response.json
            #expect(json["type"] as? String == "FeatureCollection")
            let features = try #require(json["features"] as? [[String: Any]])
            #expect(features.count == 1)
            let geometry = try #require(features[0]["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "Point")
            #expect(geometry["coordinates"] as? [Double] == [8.55, 47.36667])
            let properties = try #require(features[0]["properties"] as? [String: Any])
            #expect(properties["name"] as? String == "Zürich")
        }
    }

    @Test("search with no match answers an empty list, not an error")
    func searchNoResults() async throws {
        try await TestServer().test { client in
            let response = try await client.get("/v1/search?q=Atlantis")
            #expect(response.status == .ok)
            #expect(try response.results.isEmpty)
        }
    }

    @Test("percent-encoded text reaches the engine decoded", arguments: ["Z%C3%BCrich", "z%C3%BCRICH%20zurich"])
    func searchDecodesText(_ q: String) async throws {
        try await TestServer().test { client in
            let response = try await client.get("/v1/search?q=\(q)")
            #expect(try response.resultIDs == ["geonames:2657896"])
        }
    }

    @Test("bad search input is a 400 with the error shape", arguments: [
        "/v1/search", "/v1/search?q=", "/v1/search?q=%20%20", "/v1/search?q=Paris&limit=0", "/v1/search?q=Paris&limit=101",
        "/v1/search?q=Paris&limit=ten", "/v1/search?q=Paris&lat=91&lon=0", "/v1/search?q=Paris&lat=10",
        "/v1/search?q=Paris&lat=abc&lon=1", "/v1/search?q=Paris&country=France", "/v1/search?q=Paris&format=xml",
        "/v1/search?q=" + String(repeating: "a", count: 257), "/v1/suggest", "/v1/suggest?q=par&minChars=-1",
        "/v1/suggest?q=" + String(repeating: "b", count: 300),
        // Not UTF-8, control characters, and one letter with 2,000 combining marks (one character, 4 KB).
        "/v1/search?q=Par%FFis", "/v1/suggest?q=Z%C3%28rich", "/v1/suggest?q=%C0%AFetc", "/v1/search?q=a%ED%A0%80b",
        "/v1/suggest?q=Lyon%E2%82", "/v1/search?q=Pa%00ris", "/v1/suggest?q=Hel%1Bsinki", "/v1/search?q=Paris&country=F%C2%85R",
        "/v1/search?q=a" + String(repeating: "%CC%81", count: 2000),
    ])
    func badSearchInput(_ uri: String) async throws {
        try await TestServer().test { client in
            try await client.expectInvalidInput(uri)
        }
    }

    @Test("suggest answers prefixes, and nothing below the minimum characters")
    func suggest() async throws {
        try await TestServer { $0.suggestMinChars = 4 }.test { client in
            let hels = try await client.get("/v1/suggest?q=Hels")
            #expect(try hels.resultIDs == ["geonames:658225", "osm:node/2000000001"])
            let short = try await client.get("/v1/suggest?q=Hel")
            #expect(short.status == .ok)
            #expect(try short.results.isEmpty)
            let lowered = try await client.get("/v1/suggest?q=Hel&minChars=2")
            #expect(try lowered.resultIDs == ["geonames:658225", "osm:node/2000000001"])
            let geojson = try await client.get("/v1/suggest?q=Pari&format=geojson&limit=2")
            #expect((try geojson.json["features"] as? [Any])?.count == 2)
        }
    }

    @Test("reverse gives the nearest place with its distance")
    func reverse() async throws {
        try await TestServer().test { client in
            let response = try await client.get("/v1/reverse?lat=60.1684&lon=24.9401")
            #expect(response.status == .ok)
            let result = try #require(try response.results.first)
            #expect(result["id"] as? String == "osm:node/2000000001")
            let address = try #require(result["address"] as? [String: Any])
            #expect(address["street"] as? String == "Mannerheimintie")
            #expect(address["houseNumber"] as? String == "5")
            #expect(address["postcode"] as? String == "00100")
            #expect(address["town"] as? String == "Helsinki")
            // As Finland writes it: street and number, then postcode and town, one line under the other.
            #expect(address["formatted"] as? String == "Mannerheimintie 5\n00100 Helsinki")
            #expect((result["distanceMeters"] as? Double ?? 99) < 10)
            let geojson = try await client.get("/v1/reverse?lat=48.85&lon=2.35&format=geojson")
            let features = try #require(try geojson.json["features"] as? [[String: Any]])
            #expect(features.first?["id"] as? String == "geonames:2988507")
        }
    }

    @Test("bad reverse and nearby input is a 400", arguments: [
        "/v1/reverse", "/v1/reverse?lat=48.8", "/v1/reverse?lat=-91&lon=0", "/v1/reverse?lat=0&lon=180.5",
        "/v1/reverse?lat=nan&lon=0", "/v1/reverse?lat=1&lon=2&limit=0",
        "/v1/nearby?lat=48.85", "/v1/nearby?lat=48.85&lon=2.35&radius=0", "/v1/nearby?lat=48.85&lon=2.35&radius=50001",
        "/v1/nearby?lat=48.85&lon=2.35&radius=far", "/v1/nearby?lat=48.85&lon=2.35&radius=inf", "/v1/nearby?lat=95&lon=2&radius=10",
    ])
    func badPointInput(_ uri: String) async throws {
        try await TestServer().test { client in
            try await client.expectInvalidInput(uri)
        }
    }

    @Test("nearby keeps places inside the radius, nearest first")
    func nearby() async throws {
        try await TestServer().test { client in
            let close = try await client.get("/v1/nearby?lat=60.17&lon=24.94&radius=1000")
            #expect(try close.resultIDs == ["osm:node/2000000001", "geonames:658225"])
            let distances = try close.results.compactMap { $0["distanceMeters"] as? Double }
            #expect(distances == distances.sorted() && distances.allSatisfy { $0 <= 1000 })
            let wide = try await client.get("/v1/nearby?lat=60.17&lon=24.94&radius=50000&format=geojson")
            #expect((try wide.json["features"] as? [Any])?.count == 2)
            let defaultRadius = try await client.get("/v1/nearby?lat=48.8534&lon=2.3488")
            #expect(try defaultRadius.resultIDs == ["geonames:2988507"])
        }
    }

    @Test("nearby pages: next leads through every place within the radius, with the total on each page")
    func nearbyPages() async throws {
        var server = TestServer()
        server.store = FakeStore(places: (0..<30).map { n in
            Place(id: "test:\(n)", name: "Venue \(n)", displayName: "Venue \(n)",
                  coordinate: Coordinate(latitude: 60.17 + Double(n % 6) * 0.0005, longitude: 24.94), category: "cafe")
        })
        try await server.test { client in
            let whole = try await client.getJSON("/v1/nearby?lat=60.17&lon=24.94&radius=1000&limit=1000")
            #expect(whole["total"] as? Int == 30 && whole["next"] is NSNull && (whole["results"] as? [Any])?.count == 30)
            let (ids, pages, totals) = try await client.followPages("/v1/nearby?lat=60.17&lon=24.94&radius=1000&limit=4")
            #expect(pages == 8 && totals == Array(repeating: 30, count: 8))
            #expect(ids == (whole["results"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String })
            let second = try await client.getJSON("/v1/nearby?lat=60.17&lon=24.94&radius=1000&limit=4&cursor=0000000000000000~test:0")
            #expect((second["query"] as? [String: Any])?["cursor"] as? String == "0000000000000000~test:0")
            let geojson = try await client.getJSON("/v1/nearby?lat=60.17&lon=24.94&radius=1000&limit=2&format=geojson")
            #expect(geojson["total"] as? Int == 30 && geojson["next"] is String)
        }
    }

    @Test("a nearby cursor that is not a page's next, or a page over 1000, is a 400", arguments: [
        "&cursor=", "&cursor=garbage", "&cursor=7ff0000000000000~test:1", "&cursor=-4059000000000000~test:1", "&limit=1001", "&limit=0",
    ])
    func badNearbyPage(_ parameters: String) async throws {
        try await TestServer().test { client in
            let message = try await client.expectInvalidInput("/v1/nearby?lat=60.17&lon=24.94" + parameters)
            #expect(message.contains(parameters.hasPrefix("&cursor") ? "\"cursor\" must be the \"next\" of an earlier page" : "between 1 and 1000"))
        }
    }

    @Test("a place by id, encoded or with bare slashes; unknown ids are 404")
    func placeByID() async throws {
        try await TestServer().test { client in
            let encoded = try await client.get("/v1/places/\(pathID("osm:node/2000000001"))")
            #expect(encoded.status == .ok)
            #expect(try encoded.resultIDs == ["osm:node/2000000001"])
            let bare = try await client.get("/v1/places/osm:node/2000000001?format=geojson")
            #expect((try bare.json["features"] as? [[String: Any]])?.first?["id"] as? String == "osm:node/2000000001")
            let unknown = try await client.get("/v1/places/geonames:1")
            #expect(unknown.status == .notFound)
            #expect(try unknown.errorCode == "not_found")
            let oversized = try await client.get("/v1/places/" + String(repeating: "x", count: 300))
            #expect(oversized.status == .badRequest)
            let empty = try await client.get("/v1/places/")
            #expect(empty.status.code / 100 == 4)
        }
    }

    @Test("status names the store and its size, and where it lives only by its file name")
    func status() async throws {
        var server = TestServer()
        server.store = StoreAtPath()
        try await server.test { client in
            let response = try await client.get("/v1/status")
            let json = try response.json
            #expect(json["status"] as? String == "ok")
            let store = try #require(json["store"] as? [String: Any])
            #expect(store["placeCount"] as? Int == SamplePlaces.all.count)
            #expect(store["location"] as? String == "index.sqlite")
            #expect(!String(buffer: response.body).contains("/srv/"), "no file path in a public answer")
        }
    }

    @Test("unknown endpoints and methods answer the JSON error shape, never a 500")
    func unknownRoutes() async throws {
        try await TestServer().test { client in
            let missing = try await client.get("/v1/nothing")
            #expect(missing.status == .notFound)
            #expect(try missing.errorCode == "not_found")
            let wrongMethod = try await client.send(.post, "/v1/search?q=Paris")
            #expect(wrongMethod.status.code / 100 == 4)
            #expect(try wrongMethod.errorCode != nil)
        }
    }

    @Test("a method the path does not take is a 405 naming those it does; HEAD answers wherever GET does", arguments: [
        (HTTPRequest.Method.post, "/v1/search?q=Paris", "GET, HEAD"), (.delete, "/v1/status", "GET, HEAD"),
        (.post, "/v1/saved/geonames%3A658225", "DELETE, PUT"), (.put, "/v1/recent", "GET, HEAD, POST"),
        (HTTPRequest.Method("TRACE")!, "/v1/providers", "GET, HEAD"), (.delete, "/app.js", "GET, HEAD"),
        (.post, "/openapi.json", "GET, HEAD"),
    ])
    func methodNotAllowed(method: HTTPRequest.Method, uri: String, allow: String) async throws {
        try await TestServer().test { client in
            let response = try await client.send(method, uri)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == allow)
            #expect(try response.errorCode == "method_not_allowed")
        }
    }

    @Test("HEAD gives GET's status and headers without a body")
    func head() async throws {
        try await TestServer().test { client in
            for uri in ["/v1/search?q=Paris", "/v1/status", "/openapi.json", "/", "/app.js"] {
                let get = try await client.get(uri)
                let head = try await client.send(.head, uri)
                #expect(head.status == .ok && get.status == .ok, "\(uri)")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(uri)")
                #expect(head.body.readableBytes == 0, "\(uri)")
            }
            #expect(try await client.send(.head, "/v1/nothing").status == .notFound)
        }
    }

    @Test("a store's correction is the answer's top-level didYouMean, for search and suggest; none when the text matched")
    func didYouMean() async throws {
        var server = TestServer()
        server.store = CorrectingStore()
        try await server.test { client in
            for path in ["/v1/search?q=Helsinky", "/v1/suggest?q=Helsinky", "/v1/search?q=Helsinky&format=geojson"] {
                let json = try await client.getJSON(path)
                #expect(json["didYouMean"] as? String == "Helsinki", "\(path)")
            }
            let search = try await client.get("/v1/search?q=Helsinky")
            #expect(try search.resultIDs.first == SamplePlaces.helsinki.id)
            #expect(try search.results.allSatisfy { $0["didYouMean"] == nil }, "the answer's, not a result's")
            let right = try await client.get("/v1/search?q=Helsinki")
            #expect(try right.json["didYouMean"] == nil && right.resultIDs.first == SamplePlaces.helsinki.id)
        }
    }

    @Test("explain=1 gives each result its explain object; without it, or with explain=0, there is none")
    func explain() async throws {
        var server = TestServer()
        server.store = CorrectingStore()
        try await server.test { client in
            for path in ["/v1/search?q=Paris&explain=1", "/v1/suggest?q=Par&explain=true"] {
                let results = try await client.get(path).results
                #expect(results.count == 3, "\(path)")
                for result in results {
                    let explain = try #require(result["explain"] as? [String: Any], "\(path)")
                    #expect(explain["matchedName"] as? String == "Paris" && explain["population"] as? Int == result["population"] as? Int)
                    #expect(explain["match"] as? String == (path.contains("search") ? "exact" : "prefix"))
                    #expect(explain["score"] is Double && explain["tier"] is Int && explain["distanceTerm"] == nil)
                }
            }
            let geojson = try await client.getJSON("/v1/search?q=Paris&explain=1&format=geojson")
            let feature = try #require((geojson["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])
            #expect((feature["explain"] as? [String: Any])?["nameKind"] as? String == "name")
            for path in ["/v1/search?q=Paris", "/v1/search?q=Paris&explain=0", "/v1/suggest?q=Par&explain=false"] {
                let results = try await client.get(path).results
                #expect(results.count == 3 && results.allSatisfy { $0["explain"] == nil }, "\(path)")
            }
            let refusal = try await client.expectInvalidInput("/v1/search?q=Paris&explain=yes")
            #expect(refusal.contains("\"explain\" must be 1, 0, true or false"))
        }
    }

    @Test("engine failures keep their meaning: an unavailable index is a 503, not a crash")
    func engineFailure() async throws {
        let services = ServerServices(places: try PlaceService(store: FailingStore()), users: InMemoryUserAccounts())
        let app = buildApplication(configuration: ServerConfiguration(), services: services)
        try await app.test(.router) { client in
            let response = try await client.get("/v1/search?q=Paris")
            #expect(response.status == .serviceUnavailable)
            #expect(try response.errorCode == "index_unavailable")
        }
    }
}

/// The sample places, saying they live at a path on the server's disk, as the real index does.
private struct StoreAtPath: PlaceStore {
    let places = FakeStore(places: SamplePlaces.all)
    var attribution: [String] { places.attribution }
    var streetAttribution: [String] { [] }
    func status() async throws -> StoreStatus {
        StoreStatus(name: "embedded", placeCount: places.places.count, location: "/srv/ops-home/pindrop/index.sqlite", attribution: attribution)
    }
    func search(_ request: SearchRequest) async throws -> [PlaceResult] { try await places.search(request) }
    func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] { try await places.suggest(request) }
    func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] { try await places.reverse(request) }
    func nearbyPage(_ request: NearbyRequest) async throws -> NearbyPage { try await places.nearbyPage(request) }
    func place(id: String) async throws -> Place? { try await places.place(id: id) }
    func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) async throws -> [MapFeature] { [] }
    func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) async throws -> [MapLabel] { [] }
}

/// The sample places behind a store that corrects "Helsinky" and explains its answers as the embedded index does
/// (the index's own corrections and explanations are tested in PindropIndexTests).
private struct CorrectingStore: PlaceStore {
    let places = FakeStore(places: SamplePlaces.all)
    var attribution: [String] { places.attribution }
    var streetAttribution: [String] { [] }
    func status() async throws -> StoreStatus { try await places.status() }
    func search(_ request: SearchRequest) async throws -> [PlaceResult] {
        try await answer(request.text, explain: request.explain, exact: true) { try await places.search(try SearchRequest(text: $0)) }
    }
    func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] {
        try await answer(request.text, explain: request.explain, exact: false) { try await places.suggest(try SuggestRequest(text: $0)) }
    }
    func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] { try await places.reverse(request) }
    func nearbyPage(_ request: NearbyRequest) async throws -> NearbyPage { try await places.nearbyPage(request) }
    func place(id: String) async throws -> Place? { try await places.place(id: id) }
    func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) async throws -> [MapFeature] { [] }
    func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) async throws -> [MapLabel] { [] }

    private func answer(_ text: String, explain: Bool, exact: Bool, _ ask: (String) async throws -> [PlaceResult]) async throws -> [PlaceResult] {
        let corrected = text == "Helsinky" ? "Helsinki" : text
        var results = try await ask(corrected)
        if corrected != text, !results.isEmpty { results[0].didYouMean = corrected }
        guard explain else { return results }
        for i in results.indices {
            let place = results[i].place, importance = log2(Double(place.population) + 100)
            results[i].explanation = MatchExplanation(
                match: exact ? .exact : .prefix, nameKind: .name, text: TextFolding.fold(text), matchedName: place.name, edit: nil,
                rowKind: .place, population: place.population, importance: importance, kindBonus: 0, nameTerm: 0,
                distanceMeters: nil, distanceTerm: nil, tier: exact ? 3 : 2, score: importance)
        }
        return results
    }
}
