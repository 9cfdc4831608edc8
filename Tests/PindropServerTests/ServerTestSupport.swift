import Foundation
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

/// The real server, built in-process over fakes.
struct TestServer {
    /// The users, with a local user for requests without a token.
    var users = InMemoryUserAccounts()
    var configuration = ServerConfiguration()
    /// The store the facade answers from: the sample places, no streets unless a test sets them.
    var store: any PlaceStore = FakeStore(places: SamplePlaces.all)
    /// The coastlines behind `/v1/basemap`: none unless a test sets them.
    var coastline: Coastline?

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) {
        configure(&configuration)
    }

    var services: ServerServices {
        get throws { ServerServices(places: try PlaceService(store: store), users: users, coastline: coastline) }
    }

    /// The local user's saved places and recent addresses (what requests without a token use).
    var local: any SavedPlaces & RecentPlaces { users.localUser! }

    /// Runs `body` with a client of a fresh application.
    @discardableResult
    func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let app = buildApplication(configuration: configuration, services: try services)
        return try await app.test(.router, body)
    }
}

extension TestResponse {
    /// The body decoded as a JSON object.
    var json: [String: Any] {
        get throws {
            let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView))
            return try #require(object as? [String: Any], "body is not a JSON object: \(String(buffer: body))")
        }
    }

    /// The `results` array's objects.
    var results: [[String: Any]] {
        get throws { try #require(try json["results"] as? [[String: Any]]) }
    }

    /// The ids of `results`, in order.
    var resultIDs: [String] {
        get throws { try results.map { $0["id"] as? String ?? "" } }
    }

    /// The error body's code, checking the error shape on the way.
    var errorCode: String? {
        get throws {
            let error = try #require(try json["error"] as? [String: Any])
            let message = try #require(error["message"] as? String)
            #expect(!message.isEmpty)
            return error["code"] as? String
        }
    }
}

extension TestClientProtocol {
    /// A GET.
    func get(_ uri: String) async throws -> TestResponse {
        try await executeRequest(uri: uri, method: .get, headers: [:], body: nil)
    }

    /// A GET that must answer 200, its body decoded as a JSON object.
    func getJSON(_ uri: String) async throws -> [String: Any] {
        let response = try await get(uri)
        #expect(response.status == .ok, "\(uri) answered \(response.status)")
        return try response.json
    }

    /// A GET that must be refused as the user's mistake: 400 with the error code "invalid_input". Returns the
    /// error's message.
    @discardableResult
    func expectInvalidInput(_ uri: String) async throws -> String {
        let response = try await get(uri)
        #expect(response.status == .badRequest, "\(uri) answered \(response.status)")
        #expect(try response.errorCode == "invalid_input", "\(uri)")
        return try #require(try (response.json["error"] as? [String: Any])?["message"] as? String)
    }

    /// Follows `next` from `first` (a URI whose cursor goes last) to the last page: the ids in order, the pages,
    /// and the `total` each page told.
    func followPages(_ first: String) async throws -> (ids: [String], pages: Int, totals: [Int?]) {
        var ids: [String] = [], pages = 0, totals: [Int?] = [], uri = first
        while true {
            let page = try await getJSON(uri)
            totals.append(page["total"] as? Int)
            ids += (page["results"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            pages += 1
            guard let next = page["next"] as? String else { return (ids, pages, totals) }
            uri = first + "&cursor=" + next.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        }
    }

    /// A request with a JSON body given as text.
    func send(_ method: HTTPRequest.Method, _ uri: String, json: String? = nil) async throws -> TestResponse {
        try await executeRequest(uri: uri, method: method, headers: json == nil ? [:] : [.contentType: "application/json"],
                                 body: json.map { ByteBuffer(string: $0) })
    }
}

/// A place id as it goes into a URL path.
func pathID(_ id: String) -> String {
    id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
}

/// A store whose index file is gone: every question is a 503 "index_unavailable".
struct FailingStore: PlaceStore {
    static let gone = PindropError.indexUnavailable("the index file is missing")
    var attribution: [String] { [] }
    var streetAttribution: [String] { ["© OpenStreetMap contributors"] }
    func search(_ request: SearchRequest) async throws -> [PlaceResult] { throw Self.gone }
    func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] { throw Self.gone }
    func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] { throw Self.gone }
    func nearbyPage(_ request: NearbyRequest) async throws -> NearbyPage { throw Self.gone }
    func place(id: String) async throws -> Place? { throw Self.gone }
    func status() async throws -> StoreStatus { throw Self.gone }
    func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) async throws -> [MapFeature] { throw Self.gone }
    func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) async throws -> [MapLabel] { throw Self.gone }
}
