import Foundation
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

/// The real server, built in-process over fakes.
struct TestServer {
    let saved = InMemorySavedPlaces()
    let recent = InMemoryRecentPlaces()
    var configuration = ServerConfiguration()
    /// The street basemap's data; none unless a test sets it.
    var streetMap: (any StreetMapping)?

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) {
        configure(&configuration)
    }

    var services: ServerServices {
        ServerServices(geocoder: FakeGeocoder(places: SamplePlaces.all), saved: saved, recent: recent,
                       streetMap: streetMap)
    }

    /// Runs `body` with a client of a fresh application.
    @discardableResult
    func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        let app = buildApplication(configuration: configuration, services: services)
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
