import Hummingbird
import PindropCore

/// `/healthz` and `/readyz`, as load balancers and Kubernetes probe them, and `/metrics` for Prometheus.
/// - `/healthz`: the process answers (liveness); always 200.
/// - `/readyz`: 200 when the index is open and the services' readiness check passes (on the shared store: the
///   database answers within a short timeout); else 503 with the JSON error saying what is missing. It follows the
///   database by itself: down, 503; back, 200.
struct HealthController<Context: RequestContext>: Sendable {
    let places: PlaceService
    let readiness: (@Sendable () async -> PindropError?)?

    func addRoutes(to router: Router<Context>) {
        router.get("healthz") { _, _ in Self.status("ok") }
        router.get("readyz") { _, _ in try await ready() }
    }

    func ready() async throws -> Response {
        guard places.store != nil else { throw PindropError.indexUnavailable("no index is open") }
        if let problem = await readiness?() { throw problem }
        return Self.status("ready")
    }

    /// `{"status": "…"}`, never cached.
    static func status(_ text: String) -> Response {
        var writer = JSONWriter(capacity: 32)
        writer.beginObject()
        writer.field("status", text)
        writer.endObject()
        return Responses.json(writer)
    }
}

/// `/metrics`: the registry in the Prometheus text format, with the scrape-time figures refreshed first.
func addMetricsRoute<Context: RequestContext>(to router: Router<Context>, metrics: ServerMetrics, places: PlaceService) {
    router.get("metrics") { _, _ in
        let text = await metrics.exposition(places: places)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(bytes: text)))
    }
}
