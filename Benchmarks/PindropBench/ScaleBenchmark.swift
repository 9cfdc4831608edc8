import Foundation
import PindropCore
import PindropImport
import PindropIndex

// `pindrop-bench scale`: the engine's cost at every size of the inputs `scripts/make-scaled-inputs.py` writes
// (GeoNames ×1/×10/×50, OpenStreetMap Helsinki ×1/×10/×100 into a copy of the ×1 GeoNames index). Each import
// and each serving run is its own child process, so its peak memory is its own. Writes scale.json and scale.md.

/// One measured size.
struct ScaleRow: Codable {
    var input = "", size = 0, rows = 0, importSeconds = 0.0, perSecond = 0.0, importPeakMB = 0.0, indexMB = 0.0
    /// The import's CPU time (user + system): on a shared machine, wall time also counts the others' work.
    var importCPUSeconds = 0.0
    var openMS = 0.0, servingMB = 0.0, servingPeakMB = 0.0
    /// Of `servingMB`, the anonymous part (the heap: what the process made) and the file-backed part (pages of
    /// the mapped structures file, which the kernel may drop and read again), from /proc/self/status.
    var servingAnonMB: Double?, servingFileMB: Double?
    /// Resident memory after the same queries when the index starts out of the page cache (a server after a
    /// reboot): the pages queries read, and no neighbours the kernel happened to hold already.
    var servingColdMB: Double?
    /// Opening's CPU time (the opening thread's), milliseconds.
    var openCPUMS: Double?
    /// p50 and p99 per query type, microseconds of the thread's CPU time.
    var latency: [String: [Double]] = [:]
    /// The same in wall time.
    var wallLatency: [String: [Double]]?
    /// `osmium fileinfo -e` on the same file, seconds (OSM only).
    var osmiumSeconds: Double?
    /// An OSM import's whole index (the GeoNames part it was imported into, and what it added), MB.
    var wholeIndexMB: Double?
}

func runScaleBenchmark(arguments: [String]) throws {
    func option(_ name: String, _ fallback: String) -> String {
        arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil } ?? fallback
    }
    var run = ScaleRun(inputs: option("--inputs", "build/scale"), out: option("--out", "build/scale/bench"))
    let geonames = option("--geonames", "1,10,50").split(separator: ",").compactMap { Int($0) }
    let osm = option("--osm", "1,10,100").split(separator: ",").compactMap { Int($0) }
    try FileManager.default.createDirectory(atPath: run.out, withIntermediateDirectories: true)
    // --serve-only: the indexes of an earlier run measured again (serving changed, imports did not).
    if arguments.contains("--serve-only") {
        run.rows = try JSONDecoder().decode([ScaleRow].self, from: Data(contentsOf: URL(fileURLWithPath: run.resultsPath)))
        for i in run.rows.indices { try serve("\(run.out)/\(run.rows[i].input)-x\(run.rows[i].size).sqlite", into: &run.rows[i]) }
        try run.save()
        say(scaleTable(run.rows))
        return
    }
    for k in geonames where run.present("\(run.inputs)/geonames-x\(k)") { try run.geonames(k) }
    if !osm.isEmpty, osmium(["--version"]) == nil {
        say("osmium (Debian osmium-tool) is missing: the OSM rows' node counts, nodes/s and osmium ratio stay empty")
    }
    for k in osm where FileManager.default.fileExists(atPath: run.base) && run.present("\(run.inputs)/osm/helsinki-x\(k).osm.pbf") {
        try run.osm(k)
    }
    say(scaleTable(run.rows))
    say("wrote \(run.resultsPath) and \(run.out)/scale.md")
}

/// One `pindrop-bench scale` run: its inputs, where it writes, and the rows measured so far (saved after each).
struct ScaleRun {
    let inputs: String, out: String
    var rows: [ScaleRow] = []
    var resultsPath: String { out + "/scale.json" }
    /// The GeoNames ×1 index the OSM imports go into.
    var base: String { "\(out)/geonames-x1.sqlite" }

    func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(rows).write(to: URL(fileURLWithPath: resultsPath))
        try scaleTable(rows).write(toFile: out + "/scale.md", atomically: true, encoding: .utf8)
    }

    /// Whether an input is there; a missing one is skipped (with how to make it), not the end of a long run.
    func present(_ input: String) -> Bool {
        if FileManager.default.fileExists(atPath: input) { return true }
        say("skipping \(input): it does not exist (scripts/make-scaled-inputs.py makes it)")
        return false
    }

    /// The GeoNames input of size ×k imported, then served.
    mutating func geonames(_ k: Int) throws {
        let index = "\(out)/geonames-x\(k).sqlite"
        readIntoPageCache("\(inputs)/geonames-x\(k)")
        var row = try child(["scale-import", "geonames", "\(inputs)/geonames-x\(k)", index])
        row.size = k
        try serve(index, into: &row)
        try add(row)
    }

    /// The OSM input of size ×k imported into a copy of the GeoNames ×1 index, then served.
    mutating func osm(_ k: Int) throws {
        let file = "\(inputs)/osm/helsinki-x\(k).osm.pbf", index = "\(out)/osm-x\(k).sqlite"
        for file in PlaceIndex.files(at: index) { try? FileManager.default.removeItem(atPath: file) }
        // The copy of the database names the base's structures file, beside it; the import writes its own.
        try FileManager.default.copyItem(atPath: base, toPath: index)
        let before = Double(indexBytes(index)) / 1e6
        readIntoPageCache(file)
        var row = try child(["scale-import", "osm", file, index])
        row.size = k
        row.wholeIndexMB = row.indexMB
        row.indexMB -= before
        row.osmiumSeconds = osmiumSeconds(file)
        try serve(index, into: &row)
        try add(row)
    }

    private mutating func add(_ row: ScaleRow) throws {
        rows.append(row)
        try save()
        say(scaleTable([row]).split(separator: "\n").last.map(String.init) ?? "")
    }
}

func serve(_ index: String, into row: inout ScaleRow) throws {
    let served = try child(["scale-serve", index])
    row.openMS = served.openMS; row.openCPUMS = served.openCPUMS; row.servingMB = served.servingMB; row.servingPeakMB = served.servingPeakMB
    row.servingAnonMB = served.servingAnonMB; row.servingFileMB = served.servingFileMB
    row.latency = served.latency
    row.wallLatency = served.wallLatency
    row.servingColdMB = try child(["scale-serve", index, "--cold"]).servingMB
}

/// Runs this program again with `arguments`; its last output line is a `ScaleRow` as JSON.
func child(_ arguments: [String]) throws -> ScaleRow {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
    if !FileManager.default.fileExists(atPath: process.executableURL!.path) {
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, let last = output.split(separator: UInt8(ascii: "\n")).last else {
        throw PindropError.internalFailure("pindrop-bench \(arguments.joined(separator: " ")) failed (\(process.terminationStatus))")
    }
    return try JSONDecoder().decode(ScaleRow.self, from: Data(last))
}

/// Child: imports one input and reports rows, seconds, peak memory and the index's size.
func runScaleImport(arguments: [String]) async throws {
    let (kind, input, index) = (arguments[0], arguments[1], arguments[2])
    var row = ScaleRow(input: kind)
    if kind == "geonames" {
        for file in PlaceIndex.files(at: index) { try? FileManager.default.removeItem(atPath: file) }
        let report = try await IndexBuilder(path: index).importGeoNames(try GeoNamesReader.locate(input), streets: nil, progress: nil)
        row.rows = report.summary.rowsImported
        row.importSeconds = report.seconds
    } else {
        let started = Date()
        _ = try await IndexBuilder(path: index).importStreets(OSMExtracts(files: [input]), progress: nil)
        row.importSeconds = Date().timeIntervalSince(started)
        row.rows = osmNodeCount(input)
    }
    row.perSecond = Double(row.rows) / row.importSeconds
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    row.importCPUSeconds = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    row.importPeakMB = peakResidentMegabytes()
    row.indexMB = Double(indexBytes(index)) / 1e6
    say(String(decoding: try JSONEncoder().encode(row), as: UTF8.self))
}

/// Child: opens an index, answers 5,000 queries of each type drawn from its own rows (the same seed at every
/// size), and reports the opening time, resident memory after the queries, and p50/p99 per type. Each type's first
/// 500 queries are asked once untimed before; with `--warm`, all of them, so that the timed pass finds the pages
/// of the mapped structures it reads already mapped (a server that has been answering for a while), where by
/// default a query may be the first to touch a page and pays for mapping it. With `--cold`, the index's files are
/// dropped from the page cache first, so the memory reported is what the queries read, from disk. With `--only
/// TYPE`, that type's queries alone.
func runScaleServe(arguments: [String]) throws {
    if arguments.contains("--cold") { PlaceIndex.files(at: arguments[0]).forEach(dropFromPageCache) }
    let (started, cpu) = (DispatchTime.now().uptimeNanoseconds, threadCPUNanos())
    let index = try PlaceIndex.open(at: arguments[0])
    // --only TYPE: that query type alone (to profile it).
    var serving = ScaleServing(warm: arguments.contains("--warm"),
                               only: arguments.firstIndex(of: "--only").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil })
    serving.row.openMS = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
    serving.row.openCPUMS = (threadCPUNanos() - cpu) / 1e6
    try serving.measure(index)
    serving.row.servingMB = statusMegabytes("VmRSS:")
    serving.row.servingAnonMB = statusMegabytes("RssAnon:")
    serving.row.servingFileMB = statusMegabytes("RssFile:")
    serving.row.servingPeakMB = peakResidentMegabytes()
    say(String(decoding: try JSONEncoder().encode(serving.row), as: UTF8.self))
}

/// `scale-serve`'s latencies: each query type over places drawn from the index, per query this thread's CPU time as
/// well as wall time (on a shared machine a wall p99 mostly times the neighbours' builds, which says nothing about how
/// the engine grows).
struct ScaleServing {
    /// Every query asked once before it is timed (else the first 500), and only this type when given.
    let warm: Bool, only: String?
    var row = ScaleRow()
    var rng = SeededRandom(state: 11)
    let n = 5_000

    mutating func jitter(_ c: Coordinate, _ degrees: Double) -> Coordinate {
        Coordinate(latitude: max(-90, min(90, c.latitude + Double.random(in: -degrees...degrees, using: &rng))),
                   longitude: max(-180, min(180, c.longitude + Double.random(in: -degrees...degrees, using: &rng))))
    }

    mutating func record<Q>(_ name: String, _ queries: [Q], _ body: (Q) throws -> Void) rethrows {
        guard only.map({ $0 == name }) ?? true else { return }
        for q in queries.prefix(warm ? queries.count : 500) { try body(q) }
        var cpu: [Double] = [], wall: [Double] = []
        for q in queries {
            let (c, w) = (threadCPUNanos(), DispatchTime.now().uptimeNanoseconds)
            try body(q)
            wall.append(Double(DispatchTime.now().uptimeNanoseconds - w))
            cpu.append(threadCPUNanos() - c)
        }
        cpu.sort(); wall.sort()
        row.latency[name] = [percentile(cpu, 0.5) / 1000, percentile(cpu, 0.99) / 1000]
        row.wallLatency = row.wallLatency ?? [:]
        row.wallLatency?[name] = [percentile(wall, 0.5) / 1000, percentile(wall, 0.99) / 1000]
    }

    mutating func measure(_ index: PlaceIndex) throws {
        let places = (0..<n).map { _ in index.place(atRow: Int.random(in: 0..<index.placeCount, using: &rng)) }
        try record("search", try places.map { try SearchRequest(text: $0.name) }) { _ = try index.search($0) }
        // The same names with their middle letter dropped (names of 6 letters or more): typo tolerance walks the
        // name index around the text, and that index grows with the data.
        let typos = try places.map(\.name).filter { $0.count >= 6 }.map { name in
            var letters = Array(name)
            letters.remove(at: letters.count / 2)
            return try SearchRequest(text: String(letters))
        }
        try record("search, one typo", typos) { _ = try index.search($0) }
        try record("suggest", try places.map { try SuggestRequest(text: String($0.name.prefix(4)), minChars: 1) }) { _ = try index.suggest($0) }
        let points = try places.map { try ReverseRequest(coordinate: jitter($0.coordinate, 0.1)) }
        try record("reverse", points) { _ = try index.reverse($0) }
        // The same points, ten places each (an API client's `limit=10`): the nearest places beyond the first.
        try record("reverse, 10 places", try points.map { try ReverseRequest(coordinate: $0.coordinate, limit: 10) }) { _ = try index.reverse($0) }
        try record("nearby", try places.map { try NearbyRequest(coordinate: $0.coordinate, radiusMeters: 5_000) }) { _ = try index.nearby($0) }
        if index.streetLevelCount > 0 { try measureStreetLevel(index) }
    }

    private mutating func measureStreetLevel(_ index: PlaceIndex) throws {
        let street = (0..<n).map { _ in index.place(atRow: index.placeCount + Int.random(in: 0..<index.streetLevelCount, using: &rng)) }
        var spots: [ReverseRequest] = []
        for place in street { spots.append(try ReverseRequest(coordinate: jitter(place.coordinate, 0.0003))) }
        try record("reverse street", spots) { _ = try index.reverse($0) }
        let venues = street.filter { $0.category != nil }
        let nearby = try venues.map { try NearbyRequest(coordinate: $0.coordinate, radiusMeters: 1_000, category: $0.category) }
        try record("nearby + category", nearby) { _ = try index.nearby($0) }
    }
}

/// Reads a file (or each file of a folder) once, so that an import timed next reads it from memory: its rows/s
/// are then the importer's, not this machine's disk's (a ×50 input of 1.8 GB left the cache between runs and
/// added about 15 s of waiting for the disk to one import).
func readIntoPageCache(_ path: String) {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
    if isFolder.boolValue {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { readIntoPageCache(path + "/" + name) }
        return
    }
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return }
    defer { close(fd) }
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 20, alignment: 4096)
    defer { buffer.deallocate() }
    while read(fd, buffer, 1 << 20) > 0 {}
}

/// Asks the kernel to drop the file's pages from its cache (those no process maps), so that the next reader
/// reads it from disk.
func dropFromPageCache(_ path: String) {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return }
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED)
    close(fd)
}

func threadCPUNanos() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) * 1e9 + Double(t.tv_nsec)
}

func fileBytes(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }

/// The bytes of an index: its database and its structures file.
func indexBytes(_ path: String) -> Int { PlaceIndex.files(at: path).reduce(0) { $0 + fileBytes($1) } }

/// Runs osmium with these arguments; its standard output, or nil when it is missing or fails.
func osmium(_ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/osmium")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return process.terminationStatus == 0 ? String(decoding: output, as: UTF8.self) : nil
}

/// The nodes in a PBF, as `osmium fileinfo -e` counts them (0 without osmium).
func osmNodeCount(_ file: String) -> Int {
    osmium(["fileinfo", "-e", "-g", "data.count.nodes", file]).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 0
}

/// Best of three `osmium fileinfo -e` runs on the file, seconds: the baseline for reading it.
func osmiumSeconds(_ file: String) -> Double? {
    var best: Double?
    for _ in 0..<3 {
        let start = Date()
        guard osmium(["fileinfo", "-e", file]) != nil else { return nil }
        best = min(best ?? .infinity, Date().timeIntervalSince(start))
    }
    return best
}

/// The rows as a Markdown table.
func scaleTable(_ rows: [ScaleRow]) -> String {
    let types = ["search", "search, one typo", "suggest", "reverse", "reverse, 10 places", "nearby", "reverse street", "nearby + category"]
    var lines = ["| input | size | rows (OSM: nodes) | import s | CPU s | rows/s | osmium ÷ | peak RSS MiB | index MB | peak ÷ index | open ms (CPU) | serving RSS MiB (peak) | anon + file MiB | cold-start RSS MiB | "
        + types.map { "\($0) p50 / p99 µs CPU" }.joined(separator: " | ") + " |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|" + String(repeating: "---:|", count: types.count)]
    for r in rows {
        let ratio = r.osmiumSeconds.map { String(format: "%.1f×", r.importSeconds / $0) } ?? ""
        // An OSM import's index figure is what it added; its peak is against the whole index.
        // No rows: an OSM file whose nodes osmium did not count (it is missing).
        let cells = [r.input, "×\(r.size)", r.rows > 0 ? r.rows.formatted() : "", String(format: "%.1f", r.importSeconds),
                     String(format: "%.1f", r.importCPUSeconds), r.rows > 0 ? Int(r.perSecond).formatted() : "", ratio, String(format: "%.0f", r.importPeakMB), String(format: "%.1f", r.indexMB),
                     // Peak (MiB, as /proc gives it) against the whole index (MB), in one unit.
                     String(format: "%.2f", r.importPeakMB * 1.048_576 / (r.wholeIndexMB ?? r.indexMB)),
                     String(format: "%.0f", r.openMS) + (r.openCPUMS.map { String(format: " (%.0f)", $0) } ?? ""), String(format: "%.0f (%.0f)", r.servingMB, r.servingPeakMB),
                     r.servingAnonMB.map { String(format: "%.0f + %.0f", $0, r.servingFileMB ?? .nan) } ?? "",
                     r.servingColdMB.map { String(format: "%.0f", $0) } ?? ""]
            + types.map { t in r.latency[t].map { String(format: "%.1f / %.1f", $0[0], $0[1]) } ?? "" }
        lines.append("| " + cells.joined(separator: " | ") + " |")
    }
    return lines.joined(separator: "\n") + "\n"
}
