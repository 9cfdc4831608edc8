import CoreMetrics
import Foundation
import Metrics
import NIOConcurrencyHelpers
import PindropCore
import Prometheus

/// The server's metrics, recorded through swift-metrics into a Prometheus registry of its own and rendered by
/// swift-prometheus at `/metrics` (the text exposition format 0.0.4). One per application, so tests running side by
/// side count only their own requests.
///
/// Counted as they happen: requests by route pattern, method and status class, their latency per route; the
/// engine's time per verb; questions to remote providers and their failures; saves and recent addresses written.
/// Read when scraped (`ServerMetrics.Sources`): each provider's circuit state, the store's connection pool, the
/// index's places and size.
public final class ServerMetrics: Sendable {
    /// The engine's verbs timed as `pindrop_engine_duration_seconds{verb}`.
    public enum Verb: String, CaseIterable, Sendable {
        case search, suggest, reverse, nearby, lookup
    }

    /// Where the scrape-time figures come from; the CLI wires what it opened.
    public struct Sources: Sendable {
        /// The store's connection pool (the PostgreSQL store), nil for a store without one.
        public var pool: (@Sendable () -> StorePoolStatistics)?
        /// The index's size on disk in bytes, nil when unknown.
        public var indexSizeBytes: (@Sendable () -> Int?)?

        /// Sources that report nothing beyond what the facade knows.
        public init(pool: (@Sendable () -> StorePoolStatistics)? = nil, indexSizeBytes: (@Sendable () -> Int?)? = nil) {
            self.pool = pool
            self.indexSizeBytes = indexSizeBytes
        }
    }

    /// The registry `/metrics` renders.
    public let registry: PrometheusCollectorRegistry
    let factory: PrometheusMetricsFactory
    let sources: Sources
    private let requests = NIOLockedValueBox<[RequestKey: (Metrics.Counter, Metrics.Timer)]>([:])
    private let latencies = NIOLockedValueBox<[LatencyKey: Metrics.Timer]>([:])
    private let engine: [Verb: Metrics.Timer]
    private let providers = NIOLockedValueBox<[String: (asked: Metrics.Counter, failed: Metrics.Counter)]>([:])
    /// Saved places written (new or again) and recent addresses remembered.
    let savesWritten: Metrics.Counter, recentsWritten: Metrics.Counter

    /// Latency buckets from 50 µs (a suggestion from memory) to 10 s (a slow remote provider).
    static let buckets: [Duration] = [.microseconds(50), .microseconds(100), .microseconds(250), .microseconds(500),
                                      .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
                                      .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
                                      .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10)]

    /// Metrics into a new registry (or `registry`), with scrape-time `sources`.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), sources: Sources = Sources()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.buckets
        self.factory = factory
        self.sources = sources
        engine = Dictionary(uniqueKeysWithValues: Verb.allCases.map { verb in
            (verb, Metrics.Timer(label: "pindrop_engine_duration_seconds", dimensions: [("verb", verb.rawValue)],
                                 preferredDisplayUnit: .seconds, factory: factory))
        })
        savesWritten = Metrics.Counter(label: "pindrop_saves_total", factory: factory)
        recentsWritten = Metrics.Counter(label: "pindrop_recents_total", factory: factory)
    }

    /// The factory, for `MetricsSystem.bootstrap`, so libraries' own metrics land in the same registry.
    public var metricsFactory: any MetricsFactory { factory }

    private struct RequestKey: Hashable {
        let route: Int
        let method: String
        let statusClass: Int
    }

    private struct LatencyKey: Hashable {
        let route: Int
        let method: String
    }

    /// Makes the latency histogram of every route and method the server has, so each one shows (at 0) from the
    /// first scrape, before its first request.
    func prepare(_ routes: RoutePatterns) {
        for (index, route) in routes.routes.enumerated() where index != routes.unknownAPI {
            for method in route.methods { _ = latencyTimer(route: index, pattern: route.pattern, method: method) }
        }
    }

    private func latencyTimer(route: Int, pattern: String, method: String) -> Metrics.Timer {
        latencies.withLockedValue { timers in
            let key = LatencyKey(route: route, method: method)
            if let timer = timers[key] { return timer }
            let timer = Metrics.Timer(label: "pindrop_http_request_duration_seconds", dimensions: [("route", pattern), ("method", method)],
                                      preferredDisplayUnit: .seconds, factory: factory)
            timers[key] = timer
            return timer
        }
    }

    /// Counts one answered request and its latency, under its route pattern (an index into `RoutePatterns`): one
    /// lock and one lookup per request, the counter and the route's histogram found together.
    func recordRequest(route: Int, pattern: String, method: String, status: Int, nanoseconds: UInt64) {
        let statusClass = min(max(status / 100, 1), 5)
        let key = RequestKey(route: route, method: method, statusClass: statusClass)
        let found = requests.withLockedValue { $0[key] }
        let pair = found ?? {
            let made = (Metrics.Counter(label: "pindrop_http_requests_total",
                                        dimensions: [("route", pattern), ("method", method), ("status", "\(statusClass)xx")], factory: factory),
                        latencyTimer(route: route, pattern: pattern, method: method))
            requests.withLockedValue { $0[key] = made }
            return made
        }()
        pair.0.increment()
        pair.1.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// Runs one verb of the engine and records how long it took (failures included).
    func timed<T>(_ verb: Verb, _ body: () async throws -> T) async rethrows -> T {
        let start = DispatchTime.now()
        defer { engine[verb]?.recordInterval(since: start) }
        return try await body()
    }

    /// Renders the registry, refreshing the scrape-time gauges first.
    func exposition(places: PlaceService) async -> [UInt8] {
        await refreshGauges(places: places)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(16 * 1024)
        registry.emit(into: &buffer)
        return buffer
    }

    private func refreshGauges(places: PlaceService) async {
        for description in places.descriptions where description.unavailableReason == nil && description.name != PlaceService.storeProviderName {
            let state: String = switch places.breaker.state(of: description.name) {
            case .closed: "closed"
            case .open: "open"
            case .halfOpen: "half_open"
            }
            for candidate in ["closed", "open", "half_open"] {
                gauge("pindrop_provider_circuit_state", [("provider", description.name), ("state", candidate)])
                    .record(candidate == state ? 1 : 0)
            }
            _ = providerCounters(description.name)   // so every configured provider shows, at 0 before its first question
        }
        if let pool = sources.pool?() {
            gauge("pindrop_store_pool_connections", [("state", "in_use")]).record(pool.inUse)
            gauge("pindrop_store_pool_connections", [("state", "idle")]).record(pool.idle)
            gauge("pindrop_store_pool_waiting_requests", []).record(pool.waiting)
            gauge("pindrop_store_pool_max_connections", []).record(pool.maximum)
        }
        if let status = try? await places.status() {
            gauge("pindrop_index_places", []).record(status.placeCount)
            // How fresh the data is: an alert can watch the age of the data time, and the sequence move.
            if let updated = status.dataUpdated { gauge("pindrop_data_timestamp_seconds", []).record(Int(updated.timeIntervalSince1970)) }
            if let sequence = status.replicationSequence { gauge("pindrop_replication_sequence", []).record(sequence) }
        }
        if let size = sources.indexSizeBytes?() {
            gauge("pindrop_index_size_bytes", []).record(size)
        }
    }

    /// A gauge of the registry; the factory hands back the same one for the same name and labels.
    private func gauge(_ name: String, _ labels: [(String, String)]) -> Metrics.Gauge {
        Metrics.Gauge(label: name, dimensions: labels, factory: factory)
    }

    private func providerCounters(_ provider: String) -> (asked: Metrics.Counter, failed: Metrics.Counter) {
        providers.withLockedValue { counters in
            if let pair = counters[provider] { return pair }
            let pair = (Metrics.Counter(label: "pindrop_provider_requests_total", dimensions: [("provider", provider)], factory: factory),
                        Metrics.Counter(label: "pindrop_provider_failures_total", dimensions: [("provider", provider)], factory: factory))
            counters[provider] = pair
            return pair
        }
    }
}

extension ServerMetrics? {
    /// Runs a verb of the facade, timed when metrics are on.
    func timed<T>(_ verb: ServerMetrics.Verb, _ body: () async throws -> T) async throws -> T {
        guard let metrics = self else { return try await body() }
        return try await metrics.timed(verb, body)
    }
}

extension ServerMetrics: ProviderCallObserving {
    /// Counts a question to a remote provider, and its failure.
    public func providerAsked(_ provider: String, failed: Bool) {
        let counters = providerCounters(provider)
        counters.asked.increment()
        if failed { counters.failed.increment() }
    }
}

/// The store's connection pool as the metrics show it (`pindrop_store_pool_*`).
public struct StorePoolStatistics: Sendable, Equatable {
    /// Connections lent to a request now.
    public var inUse: Int
    /// Connections open and not lent.
    public var idle: Int
    /// Requests waiting for a connection.
    public var waiting: Int
    /// The most connections the pool opens.
    public var maximum: Int

    /// Makes the figures.
    public init(inUse: Int, idle: Int, waiting: Int, maximum: Int) {
        self.inUse = inUse
        self.idle = idle
        self.waiting = waiting
        self.maximum = maximum
    }
}
