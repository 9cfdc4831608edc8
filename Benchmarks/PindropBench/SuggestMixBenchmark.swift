import Foundation
import PindropCore
import PindropIndex

/// `pindrop-bench suggest-mix INDEX PATHS [--rounds N]`: the requests of `scripts/bench-server.sh` (a file of
/// `/v1/suggest?q=...` paths from `scripts/suggest-prefixes.py`) asked of the engine in process, then written as
/// the wire writes them: the engine's and the encoding's share of what the server does per suggestion, and a
/// steady loop to profile.
func runSuggestMixBenchmark(arguments: [String]) throws {
    guard arguments.count >= 2 else {
        say("usage: pindrop-bench suggest-mix INDEX PATHS [--rounds N]"); exit(64)
    }
    let rounds = Int(option("--rounds", in: arguments) ?? "") ?? 3
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
        row("suggest", try measure(requests) { _ = try index.suggest($0) as [PlaceResult] })
        row("suggest + JSON", try measure(requests) { request in
            let answer = ProviderAnswer(results: try index.suggest(request), provider: "embedded")
            _ = WireEncoding.document(query: request.echo, answer: answer, format: .json)
        })
    }
}
