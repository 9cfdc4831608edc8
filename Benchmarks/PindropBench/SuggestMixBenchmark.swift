import Foundation
import PindropCore
import PindropIndex
import Synchronization

/// `pindrop-bench suggest-mix INDEX PATHS [--rounds N] [--evict-mib M]`: the requests of `scripts/bench-server.sh`
/// (a file of `/v1/suggest?q=...` paths from `scripts/suggest-prefixes.py`) asked of the engine in process, then
/// written as the wire writes them: the engine's and the encoding's share of what the server does per suggestion,
/// and a steady loop to profile. "caches cold" reads M MiB (2 unless given) before each suggestion.
func runSuggestMixBenchmark(arguments: [String]) throws {
    guard arguments.count >= 2 else {
        say("usage: pindrop-bench suggest-mix INDEX PATHS [--rounds N] [--evict-mib M]"); exit(64)
    }
    let rounds = Int(option("--rounds", in: arguments) ?? "") ?? 3
    let eviction = [UInt8](repeating: 1, count: (Int(option("--evict-mib", in: arguments) ?? "") ?? 2) << 20)
    let index = try PlaceIndex.open(at: arguments[0])
    let paths = try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\n")
    let requests = try paths.compactMap { path -> SuggestRequest? in
        let items = URLComponents(string: String(path))?.queryItems ?? []
        guard let text = items.first(where: { $0.name == "q" })?.value else { return nil }
        let minChars = items.first(where: { $0.name == "minChars" })?.value.flatMap { Int($0) } ?? 3
        return try SuggestRequest(text: text, minChars: minChars)
    }
    say("\(requests.count) suggest requests from \(arguments[1]), \(rounds) rounds, release, one thread:")
    for _ in 0..<rounds {
        let one = try measure(requests) { _ = try index.suggest($0) as [PlaceResult] }
        row("suggest", one)
        row("suggest + JSON", try measure(requests) { request in
            let answer = ProviderAnswer(results: try index.suggest(request), provider: "embedded")
            _ = WireEncoding.document(query: request.echo, answer: answer, format: .json)
        })
        // As in a server, where each request's HTTP work passes between two suggestions: the engine's reads find
        // little of the index left in the core's caches. 2 MiB (both cores' L2) read before each query (untimed)
        // leaves them so; 8 MiB empties a good part of the shared L3 too.
        var evicted = 0
        row("suggest, caches cold", try measure(requests, untimedBefore: { evicted &+= evictCaches(eviction) }) { request in
            _ = try index.suggest(request) as [PlaceResult]
        })
        if evicted == 42 { say("") }   // uses the sum, so that the reads stay
        // Two threads on one index, as a server's two cores are: what sharing the index costs each of them.
        // Each thread's own CPU time, so that other work on the machine does not count.
        let cpu = Mutex<[Double]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let start = threadCPUNanos()
            for request in requests[(half * requests.count / 2)..<((half + 1) * requests.count / 2)] {
                _ = try? index.suggest(request) as [PlaceResult]
            }
            let spent = threadCPUNanos() - start
            cpu.withLock { $0.append(spent) }
        }
        let perQuery = cpu.withLock { $0.reduce(0, +) } / Double(requests.count)
        say("  suggest, 2 threads at once   CPU \(micros(perQuery)) a query (one thread alone: mean \(micros(1e9 / one.qps)))")
    }
}

/// Reads a line of every 64 bytes of `buffer`, pushing what a query left out of the core's caches; the sum keeps the
/// reads from being optimised away.
func evictCaches(_ buffer: [UInt8]) -> Int {
    buffer.withUnsafeBufferPointer { bytes in
        var sum = 0
        for i in stride(from: 0, to: bytes.count, by: 64) { sum &+= Int(bytes[i]) }
        return sum
    }
}
