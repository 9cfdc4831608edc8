import Foundation
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

@Suite("saved places and recent addresses")
struct UserDataEndpointTests {
    @Test("PUT saves a place once however often it is sent; GET lists it; DELETE removes it")
    func idempotentSave() async throws {
        let server = TestServer()
        try await server.test { client in
            let id = pathID("geonames:2988507")
            let first = try await client.send(.put, "/v1/saved/\(id)")
            #expect(first.status == .created)
            #expect(try first.resultIDs == ["geonames:2988507"])
            let second = try await client.send(.put, "/v1/saved/\(id)")
            #expect(second.status == .ok)
            let list = try await client.get("/v1/saved")
            #expect(try list.resultIDs == ["geonames:2988507"])
            #expect(try list.results.first?["name"] as? String == "Paris")

            let deleted = try await client.send(.delete, "/v1/saved/\(id)")
            #expect(deleted.status == .noContent)
            #expect(try await client.get("/v1/saved").results.isEmpty)
            let again = try await client.send(.delete, "/v1/saved/\(id)")
            #expect(again.status == .notFound)
            #expect(try again.errorCode == "not_found")
        }
        #expect(try await server.local.all().isEmpty)
    }

    @Test("saved places list newest first, in JSON and GeoJSON")
    func savedOrder() async throws {
        try await TestServer().test { client in
            _ = try await client.send(.put, "/v1/saved/\(pathID("geonames:658225"))")
            _ = try await client.send(.put, "/v1/saved/\(pathID("osm:node/2000000001"))")
            #expect(try await client.get("/v1/saved").resultIDs == ["osm:node/2000000001", "geonames:658225"])
            let geojson = try await client.get("/v1/saved?format=geojson")
            let features = try #require(try geojson.json["features"] as? [[String: Any]])
            #expect(features.map { $0["id"] as? String } == ["osm:node/2000000001", "geonames:658225"])
        }
    }

    @Test("PUT with a place body keeps that place's own name and coordinates")
    func saveWholePlace() async throws {
        let server = TestServer()
        try await server.test { client in
            let body = #"{"id":"point:60.1700,24.9400","name":"Pinned spot","displayName":"Pinned spot, Helsinki","latitude":60.17,"longitude":24.94,"address":{"street":"Aleksanterinkatu","houseNumber":"1"}}"#
            let response = try await client.send(.put, "/v1/saved/\(pathID("point:60.1700,24.9400"))", json: body)
            #expect(response.status == .created)
            let listed = try #require(try await client.get("/v1/saved").results.first)
            #expect(listed["displayName"] as? String == "Pinned spot, Helsinki")
            #expect(listed["latitude"] as? Double == 60.17)
            #expect((listed["address"] as? [String: Any])?["street"] as? String == "Aleksanterinkatu")
        }
        #expect(try await server.local.all().first?.name == "Pinned spot")
    }

    @Test("every field a PUT accepts is kept: GET lists the place as the PUT answered it")
    func keptWhole() async throws {
        try await TestServer().test { client in
            let body = #"{"name":"Kunstmuseum","displayName":"Kunstmuseum, Städtle 32, 9490 Vaduz","latitude":47.1393681,"longitude":9.5219839,"countryCode":"LI","admin1":"Vaduz","population":5,"category":"museum","source":"embedded","address":{"houseNumber":"32","street":"Städtle","postcode":"9490","town":"Vaduz","suburb":"Zentrum","county":"Oberland","state":"Vaduz","country":"Liechtenstein"},"boundingBox":{"south":47.1391,"west":9.5216,"north":47.1396,"east":9.5223}}"#
            let saved = try await client.send(.put, "/v1/saved/\(pathID("osm:node/49872651"))", json: body)
            #expect(saved.status == .created)
            let answered = try #require(try saved.results.first), listed = try #require(try await client.get("/v1/saved").results.first)
            #expect(NSDictionary(dictionary: listed) == NSDictionary(dictionary: answered), "\(listed) against \(answered)")
            let address = listed["address"] as? [String: Any]
            #expect(address?["county"] as? String == "Oberland" && address?["country"] as? String == "Liechtenstein")
            #expect(address?["suburb"] as? String == "Zentrum" && address?["state"] as? String == "Vaduz")
            #expect((listed["boundingBox"] as? [String: Any])?["east"] as? Double == 9.5223)
        }
    }

    @Test("200 PUTs at once with a cap of 10 keep exactly 10; the other 190 are 409")
    func concurrentCap() async throws {
        let server = TestServer { $0.maxSavedPlaces = 10; $0.writesPerMinute = 0 }
        try await server.test { client in
            let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for n in 0..<200 {
                    group.addTask {
                        try await client.send(.put, "/v1/saved/p\(n)", json: #"{"name":"P\#(n)","latitude":1,"longitude":\#(Double(n) / 1000)}"#).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == .created }.count == 10)
            #expect(statuses.filter { $0 == .conflict }.count == 190)
        }
        #expect(try await server.local.count() == 10)
    }

    @Test("bad saves are 4xx: unknown id, mismatched or malformed body, out-of-range point, oversized body")
    func badSaves() async throws {
        try await TestServer().test { client in
            let unknown = try await client.send(.put, "/v1/saved/\(pathID("geonames:1"))")
            #expect(unknown.status == .notFound)
            let cases: [(String, String)] = [
                ("a", #"{"id":"b","name":"B","latitude":1,"longitude":2}"#),
                ("a", #"{"id":"a","name":"A","latitude":100,"longitude":2}"#),
                ("a", #"{"id":"a","name":"","latitude":1,"longitude":2}"#),
                ("a", #"{"id":"a","name":"A","latitude":"north","longitude":2}"#),
                ("a", #"{"id":"a","name":"A","latitude":1}"#),
                ("a", #"{"name":"A"}"#),
                ("a", #"[1,2]"#),
                ("a", "not json"),
            ]
            for (id, body) in cases {
                let response = try await client.send(.put, "/v1/saved/\(id)", json: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(try response.errorCode == "invalid_input", "\(body)")
            }
            let huge = #"{"id":"a","name":""# + String(repeating: "x", count: 20_000) + #"","latitude":1,"longitude":2}"#
            let tooLarge = try await client.send(.put, "/v1/saved/a", json: huge)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(try tooLarge.errorCode == "too_large")
            let longName = #"{"id":"a","name":""# + String(repeating: "x", count: 1001) + #"","latitude":1,"longitude":2}"#
            #expect(try await client.send(.put, "/v1/saved/a", json: longName).status == .badRequest)
            #expect(try await client.get("/v1/saved").results.isEmpty)
        }
    }

    @Test("recent addresses: de-duplicated, newest first, two by default")
    func recent() async throws {
        try await TestServer().test { client in
            for id in ["geonames:2988507", "geonames:658225", "geonames:2988507", "geonames:2657896"] {
                let response = try await client.send(.post, "/v1/recent", json: #"{"id":"\#(id)"}"#)
                #expect(response.status == .created)
            }
            #expect(try await client.get("/v1/recent").resultIDs == ["geonames:2657896", "geonames:2988507"])
            #expect(try await client.get("/v1/recent?limit=10").resultIDs
                    == ["geonames:2657896", "geonames:2988507", "geonames:658225"])
            let geojson = try await client.get("/v1/recent?format=geojson")
            #expect((try geojson.json["features"] as? [Any])?.count == 2)
        }
    }

    @Test("a reverse-geocoded point is remembered as sent")
    func recentWholePlace() async throws {
        try await TestServer().test { client in
            let body = #"{"id":"osm:node/9","name":"Kauppatori 1","displayName":"Kauppatori 1, 00170 Helsinki","latitude":60.1675,"longitude":24.9525}"#
            let response = try await client.send(.post, "/v1/recent", json: body)
            #expect(response.status == .created)
            #expect(try response.resultIDs == ["osm:node/9"])
            #expect(try await client.get("/v1/recent").results.first?["displayName"] as? String == "Kauppatori 1, 00170 Helsinki")
        }
    }

    @Test("bad recent input is 4xx", arguments: [
        ("", 400), (#"{"id":""}"#, 400), (#"{"id":"geonames:1"}"#, 404), (#"{"id":"x","name":"X","latitude":1,"longitude":-181}"#, 400),
        (#"{"id":5}"#, 400), ("[]", 400),
    ])
    func badRecent(_ body: String, _ status: Int) async throws {
        try await TestServer().test { client in
            let response = try await client.send(.post, "/v1/recent", json: body)
            #expect(response.status.code == status)
            #expect(try response.errorCode != nil)
        }
    }

    @Test("bad recent limits are 400", arguments: ["/v1/recent?limit=0", "/v1/recent?limit=51", "/v1/recent?format=kml", "/v1/saved?format=kml"])
    func badRecentLimit(_ uri: String) async throws {
        try await TestServer().test { client in
            let response = try await client.get(uri)
            #expect(response.status == .badRequest)
        }
    }
}

@Suite("saved places and recent addresses per user (bearer tokens)")
struct UserTokenEndpointTests {
    static let paris = pathID("geonames:2988507")

    @Test("each token's user sees, counts and deletes only their own places; no token is the local user")
    func usersApart() async throws {
        let server = TestServer()
        let alice = try await server.users.addUser(named: "alice")
        let bob = try await server.users.addUser(named: "bob")
        try await server.test { client in
            #expect(try await client.send(.put, "/v1/saved/\(Self.paris)", token: alice).status == .created)
            #expect(try await client.send(.post, "/v1/recent", json: #"{"id":"geonames:658225"}"#, token: alice).status == .created)
            let bobs = try await client.send(.get, "/v1/saved", token: bob)
            #expect(bobs.status == .ok)
            #expect(try bobs.resultIDs.isEmpty && bobs.json["total"] as? Int == 0)
            #expect(try await client.send(.delete, "/v1/saved/\(Self.paris)", token: bob).status == .notFound)
            #expect(try await client.send(.get, "/v1/recent", token: bob).resultIDs.isEmpty)
            #expect(try await client.get("/v1/saved").resultIDs.isEmpty, "the local user is nobody else")
            #expect(try await client.get("/v1/recent").resultIDs.isEmpty)
            let alices = try await client.send(.get, "/v1/saved", token: alice)
            #expect(try alices.resultIDs == ["geonames:2988507"] && alices.json["total"] as? Int == 1)
            #expect(try await client.send(.get, "/v1/recent", token: alice).resultIDs == ["geonames:658225"])
            // The same place saved by bob and then deleted by him stays alice's.
            #expect(try await client.send(.put, "/v1/saved/\(Self.paris)", token: bob).status == .created)
            #expect(try await client.send(.delete, "/v1/saved/\(Self.paris)", token: bob).status == .noContent)
            #expect(try await client.send(.get, "/v1/saved", token: alice).resultIDs == ["geonames:2988507"])
        }
    }

    @Test("a token no user has, or another kind of Authorization, is 401 with the JSON error and WWW-Authenticate: Bearer",
          arguments: ["Bearer pd_nobodyhasthis", "Bearer ", "Basic YWxpY2U6c2VjcmV0", "bearer pd_x"])
    func unknownToken(_ authorization: String) async throws {
        let server = TestServer()
        _ = try await server.users.addUser(named: "alice")
        try await server.test { client in
            for (method, uri, json) in Self.routes {
                var headers: HTTPFields = [.authorization: authorization]
                if json != nil { headers[.contentType] = "application/json" }
                let response = try await client.executeRequest(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
                #expect(response.status == .unauthorized, "\(method) \(uri)")
                #expect(try response.errorCode == "unauthorized")
                #expect(response.headers[.wwwAuthenticate] == "Bearer")
            }
            // Nothing reached the local user, and the place routes do not look at tokens.
            #expect(try await client.get("/v1/saved").resultIDs.isEmpty)
            #expect(try await client.get("/v1/recent").resultIDs.isEmpty)
            let search = try await client.executeRequest(uri: "/v1/search?q=Paris", method: .get, headers: [.authorization: authorization], body: nil)
            #expect(search.status == .ok)
        }
    }

    @Test("with requireToken, or a store without a local user, a request without a token is 401; with one it works")
    func tokenRequired() async throws {
        var required = TestServer { $0.requireToken = true }
        var noLocal = TestServer()
        noLocal.users = InMemoryUserAccounts(localUser: false)
        for server in [required, noLocal] {
            let alice = try await server.users.addUser(named: "alice")
            try await server.test { client in
                for (method, uri, json) in Self.routes {
                    let response = try await client.send(method, uri, json: json)
                    #expect(response.status == .unauthorized, "\(method) \(uri)")
                    #expect(try response.errorCode == "unauthorized")
                    #expect(response.headers[.wwwAuthenticate] == "Bearer")
                }
                #expect(try await client.send(.put, "/v1/saved/\(Self.paris)", token: alice).status == .created)
                #expect(try await client.send(.get, "/v1/saved", token: alice).resultIDs == ["geonames:2988507"])
            }
        }
        required.configuration.requireToken = false
        try await required.test { client async throws in #expect(try await client.get("/v1/saved").status == .ok) }
    }

    @Test("the saved cap is each user's own")
    func capPerUser() async throws {
        let server = TestServer { $0.maxSavedPlaces = 1 }
        let alice = try await server.users.addUser(named: "alice")
        let bob = try await server.users.addUser(named: "bob")
        try await server.test { client async throws in
            #expect(try await client.send(.put, "/v1/saved/\(Self.paris)", token: alice).status == .created)
            #expect(try await client.send(.put, "/v1/saved/\(pathID("geonames:658225"))", token: alice).status == .conflict)
            #expect(try await client.send(.put, "/v1/saved/\(pathID("geonames:658225"))", token: bob).status == .created)
        }
    }

    @Test("the OpenAPI document declares the bearer scheme, optional, and 401 on every user-data operation, and nowhere else")
    func openAPIDeclaresTokens() async throws {
        try await TestServer().test { client in
            let document = try await client.getJSON("/openapi.json")
            let components = try #require(document["components"] as? [String: Any])
            let schemes = components["securitySchemes"] as? [String: [String: Any]]
            #expect(schemes?["bearer"]?["scheme"] as? String == "bearer")
            // A real 401's code is one the Error schema lists.
            let error = (components["schemas"] as? [String: Any])?["Error"] as? [String: Any]
            let codes = ((((error?["properties"] as? [String: Any])?["error"] as? [String: Any])?["properties"] as? [String: Any])?["code"]
                as? [String: Any])?["enum"] as? [String]
            let refused = try await client.send(.get, "/v1/saved", token: "pd_unknown")
            #expect(codes?.contains(try #require(try refused.errorCode)) == true)
            let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
            for (path, operations) in paths {
                for (method, operation) in operations {
                    let userData = path.hasPrefix("/v1/saved") || path.hasPrefix("/v1/recent")
                    let security = operation["security"] as? [[String: Any]]
                    #expect((security?.count == 2 && security?.last?.isEmpty == true) == userData, "\(method) \(path)")
                    #expect(((operation["responses"] as? [String: Any])?["401"] != nil) == userData, "\(method) \(path)")
                }
            }
        }
    }

    /// Every user-data route, with a body where it takes one.
    static let routes: [(HTTPRequest.Method, String, String?)] = [
        (.get, "/v1/saved", nil), (.put, "/v1/saved/\(paris)", nil), (.delete, "/v1/saved/\(paris)", nil),
        (.get, "/v1/recent", nil), (.post, "/v1/recent", #"{"id":"geonames:658225"}"#),
    ]
}

extension TestClientProtocol {
    /// A request carrying `Authorization: Bearer <token>`, with a JSON body given as text.
    func send(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil, token: String) async throws -> TestResponse {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        if json != nil { headers[.contentType] = "application/json" }
        return try await executeRequest(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }
}
