import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import PindropCore
import PindropProviders
import PindropServer
import PindropTesting
import Testing

/// The samples of a Prometheus text exposition, by series: `name{a="x",b="y"}` with the labels sorted.
func prometheusSamples(_ text: String) -> [String: Double] {
    var samples: [String: Double] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
        let series = line[..<space]
        guard let open = series.firstIndex(of: "{") else {
            samples[String(series)] = value
            continue
        }
        let labels = series[series.index(after: open)..<series.index(before: series.endIndex)]
            .split(separator: ",").map(String.init).sorted()
        samples["\(series[..<open]){\(labels.joined(separator: ","))}"] = value
    }
    return samples
}

/// A series name with its labels, as `prometheusSamples` keys it.
func series(_ name: String, _ labels: [String: String]) -> String {
    "\(name){\(labels.map { "\($0.key)=\"\($0.value)\"" }.sorted().joined(separator: ","))}"
}

/// A log sink into a temporary file, and the lines it has received.
final class CaughtLines: Sendable {
    let path = NSTemporaryDirectory() + "pindrop-access-\(UUID().uuidString).log"
    let descriptor: Int32
    let sink: LogSink

    init() {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        sink = LogSink(descriptor: descriptor)
    }

    deinit {
        close(descriptor)
        unlink(path)
    }

    /// Every line so far.
    var lines: [String] {
        sink.flush()
        return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }
}

/// The server's own application over the sample places (or no store), with the test's configuration, readiness
/// check and access logger.
private func withServer(_ configuration: ServerConfiguration = ServerConfiguration(), noStore: Bool = false,
                                         readiness: (@Sendable () async -> PindropError?)? = nil, accessLog: CaughtLines? = nil,
                                         _ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
    let places = try PlaceService(store: noStore ? nil : FakeStore(places: SamplePlaces.all))
    var services = ServerServices(places: places, users: InMemoryUserAccounts(), readiness: readiness)
    if let accessLog { services.accessLogSink = accessLog.sink }
    return try await buildApplication(configuration: configuration, services: services).test(.router, body)
}

/// The default configuration, changed by `change`.
private func configured(_ change: (inout ServerConfiguration) -> Void) -> ServerConfiguration {
    var configuration = ServerConfiguration()
    change(&configuration)
    return configuration
}

extension TestClientProtocol {
    /// `/metrics`, parsed.
    func scrape() async throws -> [String: Double] {
        let response = try await get("/metrics")
        #expect(response.status == .ok)
        #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
        return prometheusSamples(String(buffer: response.body))
    }
}

@Suite("Operations: /metrics, /healthz, /readyz, request ids and the access log")
struct OperationsEndpointTests {
    static let place = #"{"id":"point:ops/1","name":"Ops point","latitude":60.17,"longitude":24.94}"#

    @Test("after a known set of requests the scraped counters have moved by exactly that many")
    func countersMatch() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let before = try await client.scrape()
            for text in ["Par", "Berl", "Lond"] { #expect(try await client.get("/v1/suggest?q=\(text)").status == .ok) }
            for _ in 0..<2 { #expect(try await client.get("/v1/search").status == .badRequest) }
            let json: HTTPFields = [.contentType: "application/json"]
            let saved = try await client.executeRequest(uri: "/v1/saved/point:ops/1", method: .put, headers: json,
                                                        body: ByteBuffer(string: Self.place))
            #expect(saved.status == .created)
            let again = try await client.executeRequest(uri: "/v1/saved/point:ops/1", method: .put, headers: json,
                                                        body: ByteBuffer(string: Self.place))
            #expect(again.status == .ok)
            let recent = try await client.executeRequest(uri: "/v1/recent", method: .post, headers: json, body: ByteBuffer(string: Self.place))
            #expect(recent.status == .created)
            #expect(try await client.executeRequest(uri: "/v1/suggest", method: .delete, headers: [:], body: nil).status == .methodNotAllowed)
            #expect(try await client.get("/v1/places/osm:node/2000000001").status == .ok)
            let after = try await client.scrape()

            func delta(_ key: String) -> Double { (after[key] ?? 0) - (before[key] ?? 0) }
            let requests = "pindrop_http_requests_total"
            #expect(delta(series(requests, ["route": "/v1/suggest", "method": "GET", "status": "2xx"])) == 3)
            #expect(delta(series(requests, ["route": "/v1/search", "method": "GET", "status": "4xx"])) == 2)
            #expect(delta(series(requests, ["route": "/v1/saved/{id}", "method": "PUT", "status": "2xx"])) == 2)
            #expect(delta(series(requests, ["route": "/v1/recent", "method": "POST", "status": "2xx"])) == 1)
            #expect(delta(series(requests, ["route": "/v1/suggest", "method": "DELETE", "status": "4xx"])) == 1)
            #expect(delta(series(requests, ["route": "/v1/places/{id}", "method": "GET", "status": "2xx"])) == 1)
            // The first scrape is counted by the time of the second.
            #expect(delta(series(requests, ["route": "/metrics", "method": "GET", "status": "2xx"])) == 1)
            let total = after.filter { $0.key.hasPrefix(requests + "{") }.values.reduce(0, +)
                - before.filter { $0.key.hasPrefix(requests + "{") }.values.reduce(0, +)
            #expect(total == 11)
            let latency = "pindrop_http_request_duration_seconds_count"
            #expect(delta(series(latency, ["route": "/v1/suggest", "method": "GET"])) == 3)
            #expect(delta(series(latency, ["route": "/v1/saved/{id}", "method": "PUT"])) == 2)
            #expect(delta(series("pindrop_engine_duration_seconds_count", ["verb": "suggest"])) == 3)
            #expect(delta(series("pindrop_engine_duration_seconds_count", ["verb": "lookup"])) == 1)
            #expect(delta(series("pindrop_engine_duration_seconds_count", ["verb": "search"])) == 0)
            #expect(delta("pindrop_saves_total") == 2)
            #expect(delta("pindrop_recents_total") == 1)
            #expect(after["pindrop_index_places"] == Double(SamplePlaces.all.count))
        }
    }

    @Test("every route of the OpenAPI document and the operations endpoints has a latency histogram from the first scrape")
    func histogramsForEveryRoute() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let samples = try await client.scrape()
            let document = try await client.getJSON("/openapi.json")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            var expected = paths.flatMap { path, operations in operations.keys.map { (path, $0.uppercased()) } }
            expected += ["/metrics", "/healthz", "/readyz", "/openapi.json", "/{file}"].map { ($0, "GET") }
            #expect(expected.count > 20)
            for (path, method) in expected {
                let bucket = series("pindrop_http_request_duration_seconds_bucket", ["route": path, "method": method, "le": "+Inf"])
                #expect(samples[bucket] != nil, "no histogram for \(method) \(path)")
                #expect(samples[series("pindrop_http_request_duration_seconds_sum", ["route": path, "method": method])] != nil)
            }
            for verb in ["search", "suggest", "reverse", "nearby", "lookup"] {
                #expect(samples[series("pindrop_engine_duration_seconds_count", ["verb": verb])] != nil, "no histogram for \(verb)")
            }
            // Names follow Prometheus' conventions: counters end in _total, durations are in seconds.
            let names = Set(samples.keys.map { String($0.prefix { $0 != "{" }) })
            for name in names where name.hasPrefix("pindrop_") {
                #expect(name.hasSuffix("_total") || name.contains("_seconds") || name.hasPrefix("pindrop_index_")
                        || name.hasPrefix("pindrop_store_") || name.hasPrefix("pindrop_provider_circuit"), "\(name)")
            }
        }
    }

    @Test("questions to a remote provider, its failures and its circuit state are counted per provider")
    func providerMetrics() async throws {
        let photon = try await FakeProviderServer.start(.photon)
        defer { Task { await photon.stop() } }
        photon.setBehaviors([.success, .httpStatus(500)])
        let environment = ["PINDROP_PHOTON_URL": photon.baseURL, "PINDROP_SEARCH_PROVIDERS": "photon,embedded"]
        let metrics = ServerMetrics()
        let places = try ProviderSetup.service(store: FakeStore(places: SamplePlaces.all), environment: environment, observer: metrics)
        let services = ServerServices(places: places, users: InMemoryUserAccounts(), metrics: metrics)
        try await buildApplication(configuration: ServerConfiguration(), services: services).test(.router) { (client: any TestClientProtocol) async throws in
            let before = try await client.scrape()
            #expect(before[series("pindrop_provider_circuit_state", ["provider": "photon", "state": "closed"])] == 1)
            #expect(before[series("pindrop_provider_requests_total", ["provider": "photon"])] == 0)
            // One answer, three failures (the breaker opens), then a question that skips Photon without asking it.
            for limit in 1...5 { #expect(try await client.get("/v1/search?q=Berlin&limit=\(limit)").status == .ok) }
            let after = try await client.scrape()
            #expect(after[series("pindrop_provider_requests_total", ["provider": "photon"])] == 4)
            #expect(after[series("pindrop_provider_failures_total", ["provider": "photon"])] == 3)
            #expect(after[series("pindrop_provider_circuit_state", ["provider": "photon", "state": "open"])] == 1)
            #expect(after[series("pindrop_provider_circuit_state", ["provider": "photon", "state": "closed"])] == 0)
            // Nominatim is configured (keyless) but never asked.
            #expect(after[series("pindrop_provider_requests_total", ["provider": "nominatim"])] == 0)
        }
        #expect(photon.requests.count == 4)
    }

    @Test("/metrics is behind the Host allow-list; the health checks are not; --no-metrics turns it off")
    func hostsAndSwitch() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let foreign: HTTPFields = [HTTPField.Name("Host")!: "evil.example"]
            #expect(try await client.executeRequest(uri: "/metrics", method: .get, headers: foreign, body: nil).status == .forbidden)
            #expect(try await client.executeRequest(uri: "/healthz", method: .get, headers: foreign, body: nil).status == .ok)
            #expect(try await client.executeRequest(uri: "/readyz", method: .get, headers: foreign, body: nil).status == .ok)
            #expect(try await client.executeRequest(uri: "/metrics", method: .post, headers: [:], body: nil).status == .methodNotAllowed)
        }
        try await withServer(configured { $0.metrics = false }) { (client: any TestClientProtocol) async throws in
            #expect(try await client.get("/metrics").status == .notFound)
            #expect(try await client.get("/healthz").status == .ok)
        }
        // With a metrics port, the main port does not serve them.
        try await withServer(configured { $0.metricsPort = 0 }) { (client: any TestClientProtocol) async throws in
            #expect(try await client.get("/metrics").status == .notFound)
        }
    }

    @Test("/healthz answers while the process does; /readyz follows the index and the readiness check")
    func health() async throws {
        let down = NIOLockedValueBox(false)
        try await withServer(readiness: { down.withLockedValue { $0 } ? .storeUnavailable("the database does not answer") : nil }) { (client: any TestClientProtocol) async throws in
            #expect(try await client.getJSON("/healthz")["status"] as? String == "ok")
            #expect(try await client.getJSON("/readyz")["status"] as? String == "ready")
            down.withLockedValue { $0 = true }
            let notReady = try await client.get("/readyz")
            #expect(notReady.status == .serviceUnavailable)
            #expect(try notReady.errorCode == "store_unavailable")
            #expect(try await client.get("/healthz").status == .ok)
            down.withLockedValue { $0 = false }
            #expect(try await client.get("/readyz").status == .ok)
            #expect(try await client.executeRequest(uri: "/readyz", method: .head, headers: [:], body: nil).status == .ok)
        }
        try await withServer(noStore: true) { (client: any TestClientProtocol) async throws in
            #expect(try await client.get("/readyz").status == .serviceUnavailable)
            #expect(try await client.get("/healthz").status == .ok)
        }
    }

    @Test("every answer carries X-Request-Id: a proxy's well-formed one, else a new one each time")
    func requestIDs() async throws {
        try await withServer { (client: any TestClientProtocol) async throws in
            let first = try await client.get("/v1/status").headers[HTTPField.Name("X-Request-Id")!]
            let second = try await client.get("/nowhere-at-all").headers[HTTPField.Name("X-Request-Id")!]
            #expect(first?.count == 16 && second?.count == 16 && first != second)
            #expect(first?.allSatisfy(\.isHexDigit) == true)
            let given = try await client.executeRequest(uri: "/v1/status", method: .get,
                                                        headers: [HTTPField.Name("X-Request-Id")!: "lb-1234.abc_Z"], body: nil)
            #expect(given.headers[HTTPField.Name("X-Request-Id")!] == "lb-1234.abc_Z")
            let odd = try await client.executeRequest(uri: "/v1/status", method: .get,
                                                      headers: [HTTPField.Name("X-Request-Id")!: "<script>"], body: nil)
            #expect(odd.headers[HTTPField.Name("X-Request-Id")!]?.count == 16)
        }
    }

    @Test("one access-log line per request, by route pattern: never the query's text or a token")
    func accessLog() async throws {
        let caught = CaughtLines()
        try await withServer(configured { $0.logFormat = .json }, accessLog: caught) { (client: any TestClientProtocol) async throws in
            let answer = try await client.executeRequest(uri: "/v1/suggest?q=SecretText", method: .get,
                                                         headers: [.authorization: "Bearer tok-SECRET-123"], body: nil)
            _ = try await client.get("/v1/saved/point:private/42")
            let lines = caught.lines
            #expect(lines.count == 2)
            let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(first["logger"] as? String == "pindrop.access" && first["level"] as? String == "info")
            #expect(first["message"] as? String == "request")
            #expect(first["method"] as? String == "GET" && first["route"] as? String == "/v1/suggest")
            #expect(first["status"] as? Int == 200)
            #expect(first["bytes"] as? Int == answer.body.readableBytes)
            #expect(first["request_id"] as? String == answer.headers[HTTPField.Name("X-Request-Id")!])
            #expect(first["duration_ms"] as? Double != nil)
            #expect(lines[1].contains(#""route":"/v1/saved/{id}""#))
            let everything = lines.joined()
            #expect(!everything.contains("SecretText") && !everything.contains("SECRET") && !everything.contains("private/42"))
        }
        let human = CaughtLines()
        try await withServer(accessLog: human) { (client: any TestClientProtocol) async throws in
            _ = try await client.get("/v1/status")
            let line = try #require(human.lines.first)
            #expect(line.contains(" info pindrop.access: request method=GET route=/v1/status status=200 duration_ms="), "\(line)")
            #expect(line.contains(" request_id="))
        }
        for configuration in [configured { $0.accessLog = false }, configured { $0.logLevel = .warning }] {
            let quiet = CaughtLines()
            try await withServer(configuration, accessLog: quiet) { (client: any TestClientProtocol) async throws in
                _ = try await client.get("/v1/status")
            }
            #expect(quiet.lines.isEmpty)
        }
    }

    @Test("log lines: human on a terminal, one JSON object per line with --log-format json")
    func logFormats() throws {
        var json: [UInt8] = []
        PindropLogHandler.appendLine(to: &json, format: .json, level: .info, label: "pindrop.access", message: "request",
                                     fields: [("route", "/v1/suggest"), ("odd", "a \"quoted\"\nline")])
        #expect(json.last == 0x0A && json.filter { $0 == 0x0A }.count == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json)) as? [String: String])
        #expect(object["level"] == "info" && object["logger"] == "pindrop.access" && object["message"] == "request")
        #expect(object["route"] == "/v1/suggest" && object["odd"] == "a \"quoted\"\nline")
        #expect(object["time"]?.hasSuffix("Z") == true && object["time"]?.count == 24)
        var human: [UInt8] = []
        PindropLogHandler.appendLine(to: &human, format: .human, level: .warning, label: "pindrop", message: "hello",
                                     fields: [("a", "1")])
        let line = String(decoding: human, as: UTF8.self)
        #expect(line.hasSuffix(" warning pindrop: hello a=1\n"), "\(line)")
    }
}
