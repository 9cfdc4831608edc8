import Foundation
import PindropCore
import PindropProviders
import PindropTesting

/// `pindrop-bench music [--pages 40] [--time-scale 1] [--modes polite,fixed,adaptive]`: a MusicBrainz
/// search of `pages` pages against the local fake server enforcing the 1 request/s rule (at real timing by
/// default), once per scheduling mode, each against a fresh server. Prints elapsed time, requests, 503s
/// and the ratio to the physical minimum ((pages - 1) intervals), time to the first page, then the requests
/// the same search needs at the original app's 20 places per request against our 100.
func runMusicBenchmark(arguments: [String]) async throws {
    var pages = 40
    var timeScale = 1.0
    var modes: [RequestSchedulingMode] = [.polite, .fixed, .adaptive]
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--pages": pages = max(2, Int(rest.popFirst() ?? "") ?? pages)
        case "--time-scale": timeScale = max(0.001, Double(rest.popFirst() ?? "") ?? timeScale)
        case "--modes": modes = (rest.popFirst() ?? "").split(separator: ",").compactMap { RequestSchedulingMode(rawValue: String($0)) }
        default:
            FileHandle.standardError.write(Data("usage: pindrop-bench music [--pages 40] [--time-scale 1] [--modes polite,fixed,adaptive]\n".utf8))
            exit(64)
        }
    }
    let places = pages * MusicBrainzClient.pageSize
    let interval = timeScale
    let minimum = Double(pages - 1) * interval
    print("MusicBrainz paging: \(pages) pages of \(MusicBrainzClient.pageSize) (\(places) places) against the local server,")
    print("rule: 1 request per \(format(interval)) s (time scale \(timeScale)); physical minimum \(format(minimum)) s.\n")
    print(row(["mode", "elapsed s", "requests", "503s", "minimum s", "ratio", "target", "first page s"]))
    for mode in modes {
        let run = try await musicSearchRun(places: places, timeScale: timeScale, mode: mode, pageSize: MusicBrainzClient.pageSize)
        let ratio = run.progress.elapsed.seconds / minimum
        let target: String = switch mode {
        case .polite: ratio <= 1.05 && run.progress.rateLimited == 0 ? "<=1.05, 0x503: met" : "<=1.05, 0x503: MISSED"
        case .fixed: ratio <= 1.1 && run.progress.rateLimited == 0 ? "<=1.1, 0x503: met" : "<=1.1, 0x503: MISSED"
        case .adaptive: run.progress.rateLimited > 0 ? "shows 503s: yes" : "shows 503s: no"
        }
        print(row([mode.rawValue, format(run.progress.elapsed.seconds), "\(run.progress.requests)",
                   "\(run.progress.rateLimited) (server \(run.serverRateLimited))", format(minimum), String(format: "%.3f", ratio),
                   target, format(run.progress.firstPageAfter?.seconds ?? .nan)]))
        if run.status != "finished" { print("  \(mode.rawValue) did not finish: \(run.status)") }
    }

    // The same search at the original app's 20 per request: counted at a fast time scale (the count does not
    // depend on timing), with the minimum time it needs at the real 1 request/s.
    print("\nPlaces per request, same \(places)-place search (polite, counted at time scale 0.005):")
    print(row(["per request", "requests", "503s", "minimum at 1 req/s"]))
    var counts: [Int: Int] = [:]
    for pageSize in [20, MusicBrainzClient.pageSize] {
        let run = try await musicSearchRun(places: places, timeScale: 0.005, mode: .polite, pageSize: pageSize)
        counts[pageSize] = run.progress.requests
        print(row(["\(pageSize)", "\(run.progress.requests)", "\(run.progress.rateLimited)", "\(max(0, run.progress.requests - 1)) s"]))
    }
    if let twenty = counts[20], let hundred = counts[MusicBrainzClient.pageSize], hundred > 0 {
        print(String(format: "\n100 per request needs %.1fx fewer requests than 20 (%d vs %d).", Double(twenty) / Double(hundred), hundred, twenty))
    }
}

/// One whole search against a fresh fake server.
private func musicSearchRun(places: Int, timeScale: Double, mode: RequestSchedulingMode,
                            pageSize: Int) async throws -> (progress: PagingProgress, status: String, serverRateLimited: Int) {
    let server = try await FakeMusicBrainzServer.start(.init(catalog: FakeMusicBrainzCatalog(defaultPlaceCount: places), timeScale: timeScale))
    let configuration = try MusicBrainzConfiguration(baseURL: server.baseURL, contact: "bench@pindrop.invalid",
                                                     requestInterval: .seconds(timeScale))
    let search = MusicBrainzClient(configuration: configuration)
        .searchMusicPlaces(try MusicSearchRequest(text: "Copenhagen", mode: mode), pageSize: pageSize, clock: ContinuousPagingClock())
    var progress = PagingProgress()
    var status = "no end event"
    for await event in search {
        switch event {
        case .finished(let p): progress = p; status = "finished"
        case .failed(let error, let p): progress = p; status = "failed: \(error.message)"
        case .cancelled(let p): progress = p; status = "cancelled"
        case .page, .progress: break
        }
    }
    let serverRateLimited = server.statistics.rateLimited
    await server.stop()
    return (progress, status, serverRateLimited)
}

private func format(_ seconds: Double) -> String { seconds.isFinite ? String(format: "%.2f", seconds) : "-" }

private func row(_ cells: [String]) -> String {
    let widths = [12, 10, 9, 14, 10, 7, 22, 12]
    return cells.enumerated().map { index, cell in
        cell.padding(toLength: max(cell.count, index < widths.count ? widths[index] : 10), withPad: " ", startingAt: 0)
    }.joined(separator: " ").trimmingCharacters(in: .whitespaces)
}
