import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PindropCore
import Synchronization

/// Which remote provider a `FakeProviderServer` imitates.
public enum FakeProviderKind: String, Sendable, CaseIterable {
    /// `/search`, `/reverse` (jsonv2).
    case nominatim
    /// `/api`, `/reverse` (GeoJSON).
    case photon
    /// `/maps/api/geocode/json`, `/maps/api/place/autocomplete/json`, `/maps/api/place/details/json`.
    case google
    /// `/search/geocode/v6/forward`, `/search/geocode/v6/reverse`.
    case mapbox
    /// `/places/search` (current API) and `/v3/places/search` (v3 API).
    case foursquare
}

/// How a fake provider answers the next request.
public enum FakeProviderBehavior: Sendable, Hashable {
    /// The fixture for the path, as the real service answers it.
    case success
    /// A valid answer with no results (Google: `ZERO_RESULTS`; Nominatim reverse: "Unable to geocode").
    case empty
    /// Google only: HTTP 200 with this `status` ("REQUEST_DENIED", "OVER_QUERY_LIMIT", "UNKNOWN_ERROR"...).
    case googleStatus(String)
    /// This HTTP status with the provider's own error body (429 also sends `Retry-After: 1`).
    case httpStatus(Int)
    /// The fixture, after this delay (to go past a client's timeout).
    case slow(Duration)
    /// HTTP 200 with a body cut off in the middle of the JSON.
    case malformedJSON
    /// This status with exactly this body and, when given, this `Retry-After`: for what no documented provider
    /// sends but a client must survive (the key echoed back in any encoding, a header of any size).
    case raw(status: Int, body: String, retryAfter: String?)
}

/// A local imitation of one remote provider for tests and benchmarks, on 127.0.0.1 and a free port. It
/// answers its provider's real paths in its real wire format from fixtures written from the documented
/// shapes (the same fixture for every query), checks the key the way the provider does, records every
/// request, and can be told to misbehave: each `FakeProviderBehavior` in turn, the last one repeating.
public final class FakeProviderServer: Sendable {
    /// A request as the fake saw it.
    public struct RecordedRequest: Sendable, Hashable {
        /// The path: "/maps/api/geocode/json".
        public var path: String
        /// Query parameters, percent-decoded.
        public var query: [String: String]
        /// `Authorization`, `User-Agent` and `X-Places-Api-Version`, lower-cased names.
        public var headers: [String: String]
    }

    /// The provider it imitates.
    public let kind: FakeProviderKind
    /// "http://127.0.0.1:PORT".
    public let baseURL: String
    /// The key it accepts (ignored by keyless providers).
    public let apiKey: String
    private let state: FakeProviderState
    private let task: Task<Void, Never>

    private init(kind: FakeProviderKind, baseURL: String, apiKey: String, state: FakeProviderState, task: Task<Void, Never>) {
        self.kind = kind; self.baseURL = baseURL; self.apiKey = apiKey; self.state = state; self.task = task
    }

    /// The key a fake accepts unless told another.
    public static let defaultAPIKey = "fake-key-0123456789"

    /// Starts a fake and returns once it listens. `apiKey` is the key it accepts.
    public static func start(_ kind: FakeProviderKind, apiKey: String = defaultAPIKey,
                             host: String = "127.0.0.1", port: Int = 0) async throws -> FakeProviderServer {
        let state = FakeProviderState(kind: kind, apiKey: apiKey)
        let router = Router()
        for path in FakeProviderFixtures.paths(of: kind) {
            router.get(RouterPath(path)) { request, _ in try await state.respond(to: request) }
        }
        let (ports, portReporter) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "pindrop.fake-\(kind.rawValue)")
        // Stopping a fake while a client keeps a pooled connection open logs an error; that is expected here.
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port), serverName: "Fake\(kind.rawValue)"),
            onServerRunning: { channel in
                portReporter.yield(channel.localAddress?.port ?? port)
                portReporter.finish()
            },
            logger: logger)
        let failure = Mutex<String?>(nil)
        let task = Task {
            do { try await app.run() } catch { failure.withLock { $0 = String(describing: error) } }
            portReporter.finish()
        }
        for await port in ports {
            return FakeProviderServer(kind: kind, baseURL: "http://\(host):\(port)", apiKey: apiKey, state: state, task: task)
        }
        throw PindropError.upstream(provider: "Fake \(kind.rawValue)",
                                    message: "could not listen on \(host):\(port): \(failure.withLock { $0 } ?? "it stopped before listening")")
    }

    /// "http://127.0.0.1:PORT" where nothing listens (a fake started and stopped): a provider that is down.
    public static func closedPortURL() async throws -> String {
        let server = try await start(.photon)
        await server.stop()
        return server.baseURL
    }

    /// Answers every following request this way.
    public func setBehavior(_ behavior: FakeProviderBehavior) { setBehaviors([behavior]) }

    /// Answers the following requests with these behaviours in turn; the last one then repeats.
    public func setBehaviors(_ behaviors: [FakeProviderBehavior]) { state.setBehaviors(behaviors) }

    /// Every request received so far, oldest first.
    public var requests: [RecordedRequest] { state.requests }

    /// Forgets the recorded requests.
    public func clearRequests() { state.clearRequests() }

    /// Runs until the task is cancelled (for the `pindrop-fake-services` executable).
    public func waitUntilStopped() async {
        await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }
    }

    /// Stops listening and waits for the server to shut down.
    public func stop() async {
        task.cancel()
        await task.value
    }
}

/// The behaviour queue, the request log and the answers.
final class FakeProviderState: Sendable {
    let kind: FakeProviderKind
    let apiKey: String
    private let guarded = Mutex<(behaviors: [FakeProviderBehavior], requests: [FakeProviderServer.RecordedRequest])>(([.success], []))

    init(kind: FakeProviderKind, apiKey: String) {
        self.kind = kind; self.apiKey = apiKey
    }

    var requests: [FakeProviderServer.RecordedRequest] { guarded.withLock { $0.requests } }

    func setBehaviors(_ behaviors: [FakeProviderBehavior]) {
        guarded.withLock { $0.behaviors = behaviors.isEmpty ? [.success] : behaviors }
    }

    func clearRequests() { guarded.withLock { $0.requests.removeAll() } }

    func respond(to request: Request) async throws -> Response {
        var query: [String: String] = [:]
        for (key, value) in request.uri.queryParameters { query[String(key)] = String(value) }
        var headers: [String: String] = [:]
        for name in ["Authorization", "User-Agent", "X-Places-Api-Version"] {
            if let value = request.headers[HTTPField.Name(name)!] { headers[name.lowercased()] = value }
        }
        let path = request.uri.path
        let behavior = guarded.withLock { guarded -> FakeProviderBehavior in
            guarded.requests.append(.init(path: path, query: query, headers: headers))
            return guarded.behaviors.count > 1 ? guarded.behaviors.removeFirst() : guarded.behaviors[0]
        }
        if let refusal = keyRefusal(path: path, query: query, headers: headers) { return refusal }

        switch behavior {
        case .success:
            return json(.ok, FakeProviderFixtures.success(kind, path: path, query: query))
        case .slow(let delay):
            try await Task.sleep(for: delay)
            return json(.ok, FakeProviderFixtures.success(kind, path: path, query: query))
        case .empty:
            return json(.ok, FakeProviderFixtures.empty(kind, path: path))
        case .googleStatus(let status):
            let key = path.contains("details") ? "result\": null" : path.contains("autocomplete") ? "predictions\": []" : "results\": []"
            return json(.ok, "{\"\(key), \"status\": \"\(status)\", \"error_message\": \"The fake was told to answer \(status).\"}")
        case .httpStatus(let code):
            var extra = HTTPFields()
            if code == 429 { extra[.retryAfter] = "1" }
            return json(HTTPResponse.Status(code: code), FakeProviderFixtures.errorBody(kind, status: code), extra)
        case .malformedJSON:
            let whole = FakeProviderFixtures.success(kind, path: path, query: query)
            return json(.ok, String(whole.prefix(whole.count / 2)))
        case .raw(let status, let body, let retryAfter):
            var extra = HTTPFields()
            if let retryAfter { extra[.retryAfter] = retryAfter }
            return json(HTTPResponse.Status(code: status), body, extra)
        }
    }

    /// The provider's own answer to a missing or wrong key; nil when the key is right (or none is needed).
    private func keyRefusal(path: String, query: [String: String], headers: [String: String]) -> Response? {
        switch kind {
        case .nominatim, .photon:
            return nil
        case .google:
            guard query["key"] != apiKey else { return nil }
            // Echoes the key it got, as a worst case for clients that must never repeat it.
            let got = query["key"] ?? ""
            let field = path.contains("details") ? "\"result\": null" : path.contains("autocomplete") ? "\"predictions\": []" : "\"results\": []"
            return json(.ok, "{\(field), \"status\": \"REQUEST_DENIED\", \"error_message\": \"The provided API key is invalid: \(got)\"}")
        case .mapbox:
            guard query["access_token"] != apiKey else { return nil }
            return json(.unauthorized, "{\"message\": \"Not Authorized - Invalid Token \(query["access_token"] ?? "")\"}")
        case .foursquare:
            let expected = path.hasPrefix("/v3/") ? apiKey : "Bearer \(apiKey)"
            guard headers["authorization"] == expected else {
                return json(.unauthorized, "{\"message\": \"Invalid request token: \(headers["authorization"] ?? "")\"}")
            }
            if !path.hasPrefix("/v3/"), headers["x-places-api-version"] == nil {
                return json(.badRequest, "{\"message\": \"X-Places-Api-Version header is required\"}")
            }
            return nil
        }
    }

    private func json(_ status: HTTPResponse.Status, _ body: String, _ extra: HTTPFields = HTTPFields()) -> Response {
        var headers = extra
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }
}
