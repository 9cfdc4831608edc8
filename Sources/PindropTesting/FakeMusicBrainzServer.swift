import Foundation
import HTTPTypes
import Hummingbird
import Logging
import PindropCore
import ServiceLifecycle
import Synchronization

/// A local MusicBrainz-compatible web service for tests, benchmarks and browser tests: answers
/// `GET /ws/2/place?query=…&limit=…&offset=…&fmt=json` from a `FakeMusicBrainzCatalog` in the exact JSON
/// shape, and enforces MusicBrainz's rate rule — one request per second from the (loopback) client, every
/// request beyond it answered 503 — with the real headers (`X-RateLimit-Limit`, `X-RateLimit-Remaining`,
/// `X-RateLimit-Reset`, `Retry-After`). A `timeScale` shrinks the second so tests run the rule in milliseconds.
///
/// Differences from the real service, on purpose: every client shares one rate bucket (they all come from
/// 127.0.0.1); `X-RateLimit-Reset` is written with millisecond precision (MusicBrainz writes whole seconds;
/// clients read both); with a time scale below 1, `Retry-After` is written in fractional seconds.
public final class FakeMusicBrainzServer: Sendable {
    /// How the server behaves.
    public struct Configuration: Sendable {
        /// The places it serves.
        public var catalog: FakeMusicBrainzCatalog
        /// Real seconds per rule second: 1 is MusicBrainz's timing, 0.01 makes the 1-second rule 10 ms.
        public var timeScale: Double
        /// Address to listen on (loopback by default).
        public var host: String
        /// 0 picks a free port.
        public var port: Int
        /// Added before every answer (simulated network and server time), in real time.
        public var responseDelay: Duration
        /// Makes the server fail in a chosen way, to test how clients report failures.
        public var failure: Failure?

        /// Makes a configuration.
        public init(catalog: FakeMusicBrainzCatalog = FakeMusicBrainzCatalog(), timeScale: Double = 1,
                    host: String = "127.0.0.1", port: Int = 0, responseDelay: Duration = .zero, failure: Failure? = nil) {
            self.catalog = catalog; self.timeScale = timeScale; self.host = host; self.port = port
            self.responseDelay = responseDelay; self.failure = failure
        }
    }

    /// A way to fail on every place search.
    public enum Failure: Sendable, Hashable {
        /// Answer with this HTTP status and MusicBrainz's JSON error body.
        case status(Int)
        /// Answer 200 with a body that is not JSON.
        case malformedJSON
        /// Answer 503 to every request, as when an IP is blocked.
        case alwaysRateLimited
    }

    /// What the server has seen so far.
    public struct Statistics: Sendable, Hashable {
        /// Place-search requests received.
        public var requests = 0
        /// Requests answered with a page.
        public var served = 0
        /// Requests answered 503 for the rate rule.
        public var rateLimited = 0
        /// The User-Agent of the last request.
        public var lastUserAgent: String?
        /// Offsets of the requests answered with a page, in order.
        public var servedOffsets: [Int] = []
    }

    /// The base URL to give a client: "http://127.0.0.1:PORT".
    public let baseURL: String
    /// The port it listens on.
    public let port: Int
    /// The configuration it runs with.
    public let configuration: Configuration
    private let state: FakeMusicBrainzState
    private let services: ServiceGroup
    private let task: Task<Void, Never>

    private init(baseURL: String, port: Int, configuration: Configuration, state: FakeMusicBrainzState,
                 services: ServiceGroup, task: Task<Void, Never>) {
        self.baseURL = baseURL; self.port = port; self.configuration = configuration; self.state = state
        self.services = services; self.task = task
    }

    /// What the server has seen so far.
    public var statistics: Statistics { state.statistics }

    /// Starts a server and returns once it is listening.
    public static func start(_ configuration: Configuration = Configuration()) async throws -> FakeMusicBrainzServer {
        let state = FakeMusicBrainzState(configuration: configuration)
        let router = Router()
        router.get("ws/2/place") { request, _ in
            try await state.respond(to: request)
        }
        let (ports, portReporter) = AsyncStream.makeStream(of: Int.self)
        var logger = Logger(label: "pindrop.fake-musicbrainz")
        logger.logLevel = .warning
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port),
                                                    serverName: "FakeMusicBrainz"),
            onServerRunning: { channel in
                portReporter.yield(channel.localAddress?.port ?? configuration.port)
                portReporter.finish()
            },
            logger: logger)
        let services = ServiceGroup(configuration: ServiceGroupConfiguration(services: [app], logger: logger))
        let failure = Mutex<(any Error)?>(nil)
        let task = Task {
            do { try await services.run() } catch { failure.withLock { $0 = error } }
            portReporter.finish()
        }
        for await port in ports {
            return FakeMusicBrainzServer(baseURL: "http://\(configuration.host):\(port)", port: port,
                                         configuration: configuration, state: state, services: services, task: task)
        }
        let reason = failure.withLock { $0.map { String(describing: $0) } } ?? "it stopped before listening"
        throw PindropError.upstream(provider: "FakeMusicBrainz",
                                    message: "could not listen on \(configuration.host):\(configuration.port): \(reason)")
    }

    /// Waits until the server stops (for the `pindrop-fake-services` executable).
    public func waitUntilStopped() async {
        await task.value
    }

    /// Stops accepting connections, lets requests in progress finish, and waits for the shutdown.
    public func stop() async {
        await services.triggerGracefulShutdown()
        await task.value
    }
}

/// The rate rule, counters and request handling, shared by the server's request handlers.
final class FakeMusicBrainzState: Sendable {
    let configuration: FakeMusicBrainzServer.Configuration
    /// The rule's interval in real seconds.
    let interval: Double
    private let guarded = Mutex<(statistics: FakeMusicBrainzServer.Statistics, lastAcceptedAt: Double?)>((.init(), nil))

    init(configuration: FakeMusicBrainzServer.Configuration) {
        self.configuration = configuration
        self.interval = max(0, configuration.timeScale)
    }

    var statistics: FakeMusicBrainzServer.Statistics { guarded.withLock { $0.statistics } }

    func respond(to request: Request) async throws -> Response {
        let now = Date().timeIntervalSince1970
        let userAgent = request.headers[.userAgent]
        let parameters = request.uri.queryParameters
        let query = parameters["query"].map(String.init) ?? ""
        let offset = parameters["offset"].flatMap { Int($0) } ?? 0
        let limit = min(max(parameters["limit"].flatMap { Int($0) } ?? 25, 1), 100)

        // The rate rule: accepted only one interval after the last accepted request.
        let (accepted, resetAt) = guarded.withLock { guarded -> (Bool, Double) in
            guarded.statistics.requests += 1
            guarded.statistics.lastUserAgent = userAgent
            let nextAllowed = (guarded.lastAcceptedAt ?? -.infinity) + interval
            if now >= nextAllowed, configuration.failure != .alwaysRateLimited {
                guarded.lastAcceptedAt = now
                guarded.statistics.served += 1
                guarded.statistics.servedOffsets.append(offset)
                return (true, now + interval)
            }
            guarded.statistics.rateLimited += 1
            return (false, max(nextAllowed, now + interval))
        }
        if configuration.responseDelay > .zero { try await Task.sleep(for: configuration.responseDelay) }

        var headers = rateLimitHeaders(resetAt: resetAt)
        headers[.contentType] = "application/json; charset=utf-8"
        guard accepted else {
            let wait = max(0, resetAt - now)
            headers[.retryAfter] = configuration.timeScale >= 1 ? String(Int(wait.rounded(.up))) : Self.millisecondsRoundedUp(wait)
            return error(.serviceUnavailable, "Your requests are exceeding the allowable rate limit. Please see https://musicbrainz.org/doc/MusicBrainz_API/Rate_Limiting for more information.", headers)
        }
        guard let userAgent, !userAgent.isEmpty else {
            return error(.forbidden, "A User-Agent naming your application and a contact is required.", headers)
        }
        guard parameters["fmt"] == "json" else {
            return error(.badRequest, "This fake MusicBrainz speaks JSON only: add fmt=json.", headers)
        }
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty else {
            return error(.badRequest, "Invalid query: the query parameter is required.", headers)
        }
        guard offset >= 0 else { return error(.badRequest, "Invalid offset.", headers) }
        switch configuration.failure {
        case .status(let code):
            return error(HTTPResponse.Status(code: code), "The fake was told to fail with HTTP \(code).", headers)
        case .malformedJSON:
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: "<html>Bad gateway</html>")))
        case .alwaysRateLimited, nil:
            let body = configuration.catalog.searchResponse(for: query, offset: offset, limit: limit)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    private func rateLimitHeaders(resetAt: Double) -> HTTPFields {
        var headers = HTTPFields()
        headers[HTTPField.Name("X-RateLimit-Limit")!] = "1"
        headers[HTTPField.Name("X-RateLimit-Remaining")!] = "0"
        headers[HTTPField.Name("X-RateLimit-Reset")!] = Self.millisecondsRoundedUp(resetAt)
        return headers
    }

    /// Seconds with three decimals, rounded up so a client waiting until then is never early.
    static func millisecondsRoundedUp(_ seconds: Double) -> String {
        String(format: "%.3f", (seconds * 1000).rounded(.up) / 1000)
    }

    private func error(_ status: HTTPResponse.Status, _ message: String, _ headers: HTTPFields) -> Response {
        var w = JSONWriter()
        w.beginObject()
        w.key("error"); w.string(message)
        w.key("help"); w.string("For usage, please see: https://musicbrainz.org/development/mmd")
        w.endObject()
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: w.bytes)))
    }
}
