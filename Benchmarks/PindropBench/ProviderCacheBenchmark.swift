import Foundation
import PindropCore
import PindropProviders
import PindropTesting

/// `pindrop-bench cache [--queries 500]`: the response cache's hit path against a miss, through the
/// registry, with Photon played by the local fake server. Each distinct question is asked once (a miss:
/// HTTP over loopback, GeoJSON decoding, storing) and then again (a hit: key normalisation and lookup).
/// Prints p50/p99 of both and how many times faster the hit is; the fake must see one request per question.
func runProviderCacheBenchmark(arguments: [String]) async throws {
    var queries = 500
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--queries": queries = max(10, Int(rest.popFirst() ?? "") ?? queries)
        default:
            FileHandle.standardError.write(Data("usage: pindrop-bench cache [--queries 500]\n".utf8))
            exit(64)
        }
    }
    let server = try await FakeProviderServer.start(.photon)
    let registry = try ProviderSetup.service(
        store: nil, environment: ["PINDROP_PHOTON_URL": server.baseURL, "PINDROP_SEARCH_PROVIDERS": "photon"])
    let requests = try (0..<queries).map { i in
        try SearchRequest(text: "Brandenburger Tor \(i)", near: Coordinate(latitude: 52.52, longitude: 13.40))
    }
    // Warm the connection pool and code paths on questions outside the measured set.
    for i in 0..<20 { _ = try await registry.search(try SearchRequest(text: "warm-up \(i)"), provider: nil) }
    server.clearRequests()

    func timed(_ request: SearchRequest) async throws -> (nanoseconds: Double, answer: ProviderAnswer) {
        let start = DispatchTime.now().uptimeNanoseconds
        let answer = try await registry.search(request, provider: nil)
        return (Double(DispatchTime.now().uptimeNanoseconds - start), answer)
    }
    var misses: [Double] = [], hits: [Double] = []
    for request in requests {
        let miss = try await timed(request)
        guard !miss.answer.fromCache, miss.answer.results.count == 2 else { throw PindropError.upstream(provider: "bench", message: "a miss came from the cache") }
        misses.append(miss.nanoseconds)
    }
    for request in requests {
        let hit = try await timed(request)
        guard hit.answer.fromCache else { throw PindropError.upstream(provider: "bench", message: "a repeated question missed the cache") }
        hits.append(hit.nanoseconds)
    }
    let networkRequests = server.requests.count
    await server.stop()

    misses.sort(); hits.sort()
    print("Response cache, \(queries) distinct searches through the registry, Photon played by the local fake (loopback HTTP):")
    print("  miss (HTTP + decode + store)  p50 \(micros(percentile(misses, 0.5)))  p99 \(micros(percentile(misses, 0.99)))")
    print("  hit  (normalise + lookup)     p50 \(micros(percentile(hits, 0.5)))  p99 \(micros(percentile(hits, 0.99)))")
    print(String(format: "  hit is %.0fx faster at p50, %.0fx at p99; requests that reached the fake: %d of %d asked",
                 percentile(misses, 0.5) / percentile(hits, 0.5), percentile(misses, 0.99) / percentile(hits, 0.99),
                 networkRequests, queries * 2))
}
