import Foundation
import GRDB
import PindropCore
import PindropImport
import PindropIndex

/// A deterministic random source (SplitMix64), so every run measures the same queries.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Nanoseconds of one call.
@inline(__always) func nanos(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.down)))]
}

func micros(_ ns: Double) -> String { String(format: "%8.1f µs", ns / 1000) }

/// Latency of each query after one warm-up pass: (p50, p99, queries per second single-threaded).
/// A latency measurement: median and 99th percentile in nanoseconds, and queries a second.
typealias Measurement = (p50: Double, p99: Double, qps: Double)

func measure<Q>(_ queries: [Q], untimedBefore before: () -> Void = {}, _ body: (Q) throws -> Void) rethrows -> Measurement {
    for q in queries.prefix(500) { try body(q) }
    var times: [Double] = []
    times.reserveCapacity(queries.count)
    for q in queries {
        before()
        times.append(try nanos { try body(q) })
    }
    let total = times.reduce(0, +)
    times.sort()
    return (percentile(times, 0.5), percentile(times, 0.99), Double(times.count) / (total / 1e9))
}

func row(_ name: String, _ m: Measurement) {
    say("  \(name.padding(toLength: 28, withPad: " ", startingAt: 0)) p50 \(micros(m.p50))  p99 \(micros(m.p99))  \(String(format: "%10.0f", m.qps)) q/s")
}

func peakResidentMegabytes() -> Double { statusMegabytes("VmHWM:") }

/// A memory figure of this process from /proc/self/status ("VmHWM:" peak resident, "VmRSS:" resident now).
func statusMegabytes(_ field: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return .nan }
    for line in status.split(separator: "\n") where line.hasPrefix(field) {
        return Double(line.split(separator: " ")[1]).map { $0 / 1024 } ?? .nan
    }
    return .nan
}

/// Run in a child process: open the index and answer a query mix, then report peak memory (serving only).
func runServingMemory(indexPath: String) throws {
    let index = try PlaceIndex.open(at: indexPath)
    var rng = SeededRandom(state: 7)
    for _ in 0..<20_000 {
        let slot = Int.random(in: 0..<index.placeCount, using: &rng)
        let name = index.place(atRow: slot).name
        _ = try index.suggest(SuggestRequest(text: String(name.prefix(4)), minChars: 1)) as [PlaceResult]
        _ = try index.search(SearchRequest(text: name)) as [PlaceResult]
    }
    say(String(format: "%.0f", peakResidentMegabytes()))
}

/// Makes a one-letter typo (substitute, delete, insert, swap) in a name of 5+ letters.
func typo(_ name: String, _ rng: inout SeededRandom) -> String {
    var chars = Array(name)
    guard chars.count >= 5 else { return name }
    let i = Int.random(in: 1..<(chars.count - 1), using: &rng)
    let letters = Array("abcdefghijklmnopqrstuvwxyz")
    switch Int.random(in: 0..<4, using: &rng) {
    case 0: chars[i] = letters.randomElement(using: &rng)!
    case 1: chars.remove(at: i)
    case 2: chars.insert(letters.randomElement(using: &rng)!, at: i)
    default: chars.swapAt(i, i + 1)
    }
    return String(chars)
}

/// The naive baseline: one FTS5 row per place holding all its names, prefix query, ORDER BY bm25 then population.
final class FTS5Baseline {
    let db: DatabaseQueue

    init(records: [GeoNamesRecord]) throws {
        db = try DatabaseQueue()
        try db.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE names USING fts5(name_list, place UNINDEXED, population UNINDEXED, tokenize = 'unicode61 remove_diacritics 2')")
            let insert = try db.makeStatement(sql: "INSERT INTO names VALUES (?, ?, ?)")
            for r in records {
                try insert.execute(arguments: [([r.name, r.asciiName] + r.alternateNames).joined(separator: ", "), r.geonameID, r.population])
            }
        }
    }

    /// Prefix query: every word must match, the last as a prefix.
    func suggest(_ text: String, limit: Int = 10) throws -> [Int] {
        let words = TextFolding.fold(text).split(separator: " ")
        guard !words.isEmpty else { return [] }
        let match = words.map { "\"\($0)\"" }.joined(separator: " ") + "*"
        return try db.read { db in
            try Int.fetchAll(db, sql: "SELECT place FROM names WHERE names MATCH ? ORDER BY bm25(names), population DESC LIMIT ?",
                             arguments: [match, limit])
        }
    }
}

/// The value after `--name` in a benchmark's arguments.
func option(_ name: String, in arguments: [String]) -> String? {
    arguments.firstIndex(of: name).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

/// The GeoNames data to measure (`--data DIR`, else the shipped folder) and a new folder for its index, which
/// the caller removes.
func benchmarkData(_ arguments: [String]) throws -> (files: GeoNamesReader.Files, work: String) {
    let candidates = [option("--data", in: arguments), "../shared/data/geonames", "data/geonames"].compactMap { $0 }
    guard let folder = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
        say("no GeoNames data found (tried \(candidates))"); exit(1)
    }
    let work = NSTemporaryDirectory() + "pindrop-bench-\(getpid())"
    try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
    return (try GeoNamesReader.locate(folder), work)
}

/// The GeoNames data of `benchmarkData` built into a new index and opened, with its rows as read: what the quality
/// benchmarks judge answers against. The caller removes `work`.
func builtIndexAndRecords(_ arguments: [String]) async throws -> (index: PlaceIndex, records: [GeoNamesRecord], work: String) {
    let (files, work) = try benchmarkData(arguments)
    _ = try await IndexBuilder(path: work + "/geonames.sqlite").importGeoNames(files, streets: nil, progress: nil)
    let index = try PlaceIndex.open(at: work + "/geonames.sqlite")
    var records: [GeoNamesRecord] = []
    _ = try GeoNamesReader.readPlaces(path: files.places) { records.append($0) }
    return (index, records, work)
}

func runGeoNamesBenchmark(arguments: [String]) async throws {
    let queryCount = Int(PindropBench.option("--queries", in: arguments) ?? "") ?? 20_000
    let (files, work) = try benchmarkData(arguments)
    defer { try? FileManager.default.removeItem(atPath: work) }
    let indexPath = work + "/geonames.sqlite"
    say("Pindrop benchmark — \(files.places), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(queryCount) queries per mix")
    // Import and open.
    let report = try await IndexBuilder(path: indexPath).importGeoNames(files, streets: nil, progress: nil)
    say(String(format: "import: %.2f s for %d places (%d names), index %.1f MB on disk",
                 report.seconds, report.summary.rowsImported, report.nameEntries, Double(report.storeBytes) / 1_048_576))
    var openTimes: [Double] = []
    var index = try PlaceIndex.open(at: indexPath)
    for _ in 0..<5 { openTimes.append(try nanos { index = try PlaceIndex.open(at: indexPath) }) }
    openTimes.sort()
    say(String(format: "open: median %.0f ms (of 5)", openTimes[2] / 1e6))
    var rng = SeededRandom(state: 1990)
    let mix = QueryMix(index: index, count: queryCount, rng: &rng)
    let suggest = try measureLatency(index, mix)
    let baseline = try measureFTS5Baseline(files, mix, against: suggest)
    measureBatchReverse(index, rng: &rng)
    // Accuracy on the kept query set, Pindrop vs the FTS5 baseline.
    try reportQueryAccuracy(index: index, baseline: baseline)
    // Street level: the OpenStreetMap extract added to the same index.
    let osmCandidates = [PindropBench.option("--osm", in: arguments), "../shared/data/osm/helsinki-center.osm.pbf",
                         "data/osm/helsinki-center.osm.pbf"].compactMap { $0 }
    if let osm = osmCandidates.first(where: { FileManager.default.fileExists(atPath: $0) }) {
        try await measureStreetLevel(osm, indexPath: indexPath, storeBytes: report.storeBytes, queryCount: queryCount, rng: &rng)
    }
    try measureServingMemory(indexPath)
}

/// The fixed query mix of `runGeoNamesBenchmark`: places drawn uniformly, their names' prefixes, names as people type
/// them (exact, qualified, folded, one typo), and points (uniform on the sphere, and near the places).
struct QueryMix {
    let sample: [Place], suggestQueries: [String], searchQueries: [String], points: [Coordinate]

    init(index: PlaceIndex, count queryCount: Int, rng: inout SeededRandom) {
        let sample = (0..<queryCount).map { _ in index.place(atRow: Int.random(in: 0..<index.placeCount, using: &rng)) }
        self.sample = sample
        suggestQueries = sample.map { String($0.name.prefix(Int.random(in: 3...8, using: &rng))) }
        searchQueries = sample.map { p in
            switch Int.random(in: 0..<5, using: &rng) {
            case 0, 1: p.name
            case 2: p.admin1.map { "\(p.name), \($0)" } ?? p.name
            case 3: TextFolding.fold(p.name)
            default: typo(p.name, &rng)
            }
        }
        points = (0..<queryCount).map { i in
            if i % 2 == 0 {
                // Uniform on the sphere.
                let z = Double.random(in: -1...1, using: &rng)
                return Coordinate(latitude: asin(z) * 180 / .pi, longitude: Double.random(in: -180..<180, using: &rng))
            }
            let c = sample[i].coordinate
            return Coordinate(latitude: max(-90, min(90, c.latitude + Double.random(in: -0.1...0.1, using: &rng))),
                              longitude: max(-180, min(180, c.longitude + Double.random(in: -0.1...0.1, using: &rng))))
        }
    }
}

/// Latency in process of each kind of query on the mix; returns suggest's, the baseline's anchor.
func measureLatency(_ index: PlaceIndex, _ mix: QueryMix) throws -> Measurement {
    say("\nlatency in process (release, one thread):")
    let suggest = try measure(mix.suggestQueries) { _ = try index.suggest(SuggestRequest(text: $0, minChars: 1)) as [PlaceResult] }
    row("suggest", suggest)
    row("search", try measure(mix.searchQueries) { _ = try index.search(SearchRequest(text: $0)) as [PlaceResult] })
    let slowest = try mix.searchQueries.prefix(5000).map { q in (q, try nanos { _ = try index.search(SearchRequest(text: q)) as [PlaceResult] }) }
        .sorted { $0.1 > $1.1 }.prefix(5)
    say("  slowest searches: " + slowest.map { "\"\($0.0)\" \(micros($0.1).trimmingCharacters(in: .whitespaces))" }.joined(separator: ", "))
    row("reverse", try measure(mix.points) { _ = try index.reverse(ReverseRequest(coordinate: $0)) as [PlaceResult] })
    row("nearby 5 km", try measure(mix.sample.map(\.coordinate)) {
        _ = try index.nearby(NearbyRequest(coordinate: $0, radiusMeters: 5000)) as [PlaceResult]
    })
    return suggest
}

/// The SQLite FTS5 baseline on the same suggest queries, measured in the same run; returned for the accuracy report.
func measureFTS5Baseline(_ files: GeoNamesReader.Files, _ mix: QueryMix, against suggest: Measurement) throws -> FTS5Baseline {
    var records: [GeoNamesRecord] = []
    _ = try GeoNamesReader.readPlaces(path: files.places) { records.append($0) }
    let baselineBuild = try nanos { _ = try FTS5Baseline(records: records) }
    let baseline = try FTS5Baseline(records: records)
    let baselineSuggest = try measure(Array(mix.suggestQueries.prefix(max(1000, mix.suggestQueries.count / 4)))) { _ = try baseline.suggest($0) }
    say(String(format: "\nbaseline: SQLite FTS5 prefix query, bm25 then population (built in %.1f s):", baselineBuild / 1e9))
    row("FTS5 suggest", baselineSuggest)
    say(String(format: "  suggest throughput ratio: Pindrop %.0f q/s vs FTS5 %.0f q/s = %.1f×; p50 ratio %.1f×",
                 suggest.qps, baselineSuggest.qps, suggest.qps / baselineSuggest.qps, baselineSuggest.p50 / suggest.p50))
    return baseline
}

/// Reverse in batch on every core, and its correctness against a brute-force great-circle nearest.
func measureBatchReverse(_ index: PlaceIndex, rng: inout SeededRandom) {
    let batchPoints: [Coordinate] = (0..<2_000_000).map { _ in
        let z = Double.random(in: -1...1, using: &rng)
        return Coordinate(latitude: asin(z) * 180 / .pi, longitude: Double.random(in: -180..<180, using: &rng))
    }
    let workers = ProcessInfo.processInfo.activeProcessorCount
    var batchSeconds = Double.infinity
    for _ in 0..<3 {
        batchSeconds = min(batchSeconds, nanos {
            DispatchQueue.concurrentPerform(iterations: workers) { w in
                var checksum = 0
                for i in stride(from: w, to: batchPoints.count, by: workers) {
                    checksum &+= index.nearestPlace(latitude: batchPoints[i].latitude, longitude: batchPoints[i].longitude)?.row ?? 0
                }
                if checksum == -1 { say("") }
            }
        } / 1e9)
    }
    say(String(format: "\nreverse batch: %.2f M points/s on %d cores (%d points, best of 3)",
                 Double(batchPoints.count) / batchSeconds / 1e6, workers, batchPoints.count))
    let all = (0..<index.placeCount).map { index.place(atRow: $0).coordinate }
    var agree = 0, degreeWrong = 0
    let checks = 500
    for p in batchPoints.prefix(checks) {
        var best = Double.infinity, bestDegrees = Double.infinity, bestDegreesRow = 0
        for (row, c) in all.enumerated() {
            best = min(best, p.distance(to: c))
            let dlat = p.latitude - c.latitude, dlon = p.longitude - c.longitude
            let d = dlat * dlat + dlon * dlon
            if d < bestDegrees { bestDegrees = d; bestDegreesRow = row }
        }
        if let hit = index.nearestPlace(latitude: p.latitude, longitude: p.longitude), abs(hit.meters - best) < 1e-6 { agree += 1 }
        if abs(p.distance(to: all[bestDegreesRow]) - best) > 1e-6 { degreeWrong += 1 }
    }
    say(String(format: "reverse vs brute-force great-circle nearest: %d/%d agree; nearest by raw degrees would be wrong for %.1f%%",
                 agree, checks, 100 * Double(degreeWrong) / Double(checks)))
}

/// The OpenStreetMap extract `osm` added to the index: import time, growth, and street-level latency.
func measureStreetLevel(_ osm: String, indexPath: String, storeBytes before: Int, queryCount: Int, rng: inout SeededRandom) async throws {
    let extractSeconds = try nanos { _ = try OSMFeatureExtractor.extract(fromFileAt: osm) } / 1e9
    let withStreets = try await IndexBuilder(path: indexPath).importStreets(OSMExtracts(files: [osm]), progress: nil)
    let streetIndex = try PlaceIndex.open(at: indexPath)
    say(String(format: "\nstreet level (%@): read + extract %.2f s, `import osm` into the built index %.2f s; %d venues, %d addresses, %d streets; index growth %.1f MB",
               (osm as NSString).lastPathComponent, extractSeconds, withStreets.seconds, withStreets.venues, withStreets.addresses,
               withStreets.streets, Double(withStreets.storeBytes - before) / 1_048_576))
    let features = try OSMFeatureExtractor.extract(fromFileAt: osm)
    let probes = (0..<queryCount).map { i -> Coordinate in
        let a = features.addressPoints[i % features.addressPoints.count].coordinate
        return Coordinate(latitude: a.latitude + Double.random(in: -0.0002...0.0002, using: &rng),
                          longitude: a.longitude + Double.random(in: -0.0004...0.0004, using: &rng))
    }
    row("reverse to street address", try measure(probes) { _ = try streetIndex.reverse(ReverseRequest(coordinate: $0)) as [PlaceResult] })
    let categories = ["cafe", "restaurant", "pub", "hotel", "museum", "bar"]
    row("nearby 1000 m + category", try measure(Array(probes.enumerated())) { i, c in
        _ = try streetIndex.nearby(NearbyRequest(coordinate: c, radiusMeters: 1000, category: categories[i % categories.count])) as [PlaceResult]
    })
    let addressQueries = features.addressPoints.compactMap { a in a.address.street.flatMap { s in a.address.houseNumber.map { "\(s) \($0)" } } }
    row("address search", try measure(addressQueries) { _ = try streetIndex.search(SearchRequest(text: $0)) as [PlaceResult] })
}

/// Memory while serving, in a fresh process that only opens and queries.
func measureServingMemory(_ indexPath: String) throws {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["serving-memory", indexPath]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    child.waitUntilExit()
    let rss = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    say("\nmemory while serving (open + 40,000 queries, peak RSS): \(rss) MB")
}

/// Top-1 and top-5 accuracy on the kept query set (Tests/Fixtures/queries.tsv) per category, and the FTS5
/// baseline's top-1 when one is given.
func reportQueryAccuracy(index: PlaceIndex, baseline: FTS5Baseline?) throws {
    let queryFile = "Tests/Fixtures/queries.tsv"
    guard let text = try? String(contentsOfFile: queryFile, encoding: .utf8) else { say("no \(queryFile)"); return }
    var stats: [String: (n: Int, top1: Int, top5: Int, base1: Int)] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let cols = line.split(separator: "\t").map(String.init)
        guard cols.count == 3, let expected = Int(cols[2]) else { continue }
        let ids: [String] = cols[0] == "prefix"
            ? try index.suggest(SuggestRequest(text: cols[1], limit: 5, minChars: 1)).map(\.place.id)
            : try index.search(SearchRequest(text: cols[1], limit: 5)).map(\.place.id)
        let base = try baseline?.suggest(cols[1], limit: 1)
        var s = stats[cols[0], default: (0, 0, 0, 0)]
        s.n += 1
        if ids.first == "geonames:\(expected)" { s.top1 += 1 }
        if ids.contains("geonames:\(expected)") { s.top5 += 1 }
        if base?.first == expected { s.base1 += 1 }
        stats[cols[0]] = s
    }
    say("\naccuracy on \(queryFile):")
    func line(_ category: String, _ s: (n: Int, top1: Int, top5: Int, base1: Int)) {
        let base = baseline == nil ? "" : String(format: "  (FTS5 baseline top-1 %5.1f%%)", 100 * Double(s.base1) / Double(s.n))
        say("  " + category.padding(toLength: 15, withPad: " ", startingAt: 0) + String(format: " top-1 %5.1f%%  top-5 %5.1f%%", 100 * Double(s.top1) / Double(s.n),
                    100 * Double(s.top5) / Double(s.n)) + base + "  n=\(s.n)")
    }
    var total = (n: 0, top1: 0, top5: 0, base1: 0)
    for (category, s) in stats.sorted(by: { $0.key < $1.key }) {
        line(category, s)
        total = (total.n + s.n, total.top1 + s.top1, total.top5 + s.top5, total.base1 + s.base1)
    }
    line("all", total)
}

/// Prints a line at once (unbuffered), so figures survive even if a later stage fails.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
