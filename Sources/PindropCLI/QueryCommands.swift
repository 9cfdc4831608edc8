import ArgumentParser
import Foundation
import PindropCore
import PindropIndex

/// Options that bias or filter text queries.
struct TextQueryOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Prefer places near this point, as LAT,LON.")
    var near: String?

    @Option(help: "Only places in this country (ISO 3166 two-letter code).")
    var country: String?

    @Option(help: "How many results (1-100).")
    var limit: Int = RequestLimits.defaultLimit

    func nearCoordinate() throws(PindropError) -> Coordinate? {
        try near.map { text throws(PindropError) in try Coordinate(parsing: text) }
    }

    /// Answers one text query per stdin line, as JSON Lines in input order.
    func answerBatch(_ answer: @escaping @Sendable (String) throws(PindropError) -> [PlaceResult]) throws {
        try BatchRunner.run { _, bytes, out in
            let line = String(decoding: bytes, as: UTF8.self)
            out += batchLine(query: echo(line)) { () throws(PindropError) in try answer(line) }
        }
    }

    func echo(_ text: String) -> [(String, QueryValue)] {
        var query: [(String, QueryValue)] = [("text", .text(text))]
        if let near, let c = try? Coordinate(parsing: near) {
            query += [("latitude", .number(c.latitude)), ("longitude", .number(c.longitude))]
        }
        if let country { query.append(("country", .text(country.uppercased()))) }
        query.append(("limit", .integer(limit)))
        return query
    }
}

/// Prints the embedded index's results in the chosen format (the JSON names it as the provider, like the server's).
func printResults(_ results: [PlaceResult], query: [(String, QueryValue)], output: OutputOptions) {
    if let format = output.format {
        let answer = ProviderAnswer(results: results, provider: EmbeddedProvider.providerName)
        var bytes = WireEncoding.document(query: query, answer: answer, format: format).bytes
        bytes.append(0x0A)
        Terminal.write(bytes)
    } else {
        Terminal.printTable(results)
    }
}

/// One JSON Lines output line: the query echoed, then results or an error object.
func batchLine(query: [(String, QueryValue)], _ answer: () throws(PindropError) -> [PlaceResult]) -> [UInt8] {
    var w = JSONWriter(capacity: 512)
    w.beginObject()
    w.key("query")
    WireEncoding.writeQuery(query, into: &w)
    do {
        let results = try answer()
        w.key("results")
        w.beginArray()
        for r in results { WireEncoding.writeResult(r, into: &w) }
        w.endArray()
    } catch {
        w.key("error")
        w.beginObject()
        w.key("code"); w.string(error.code)
        w.key("message"); w.string(error.message)
        w.endObject()
    }
    w.endObject()
    return w.bytes
}

struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find places by name: \"Springfield, IL\", \"Sao Paulo\", \"Москва\".")

    @Argument(help: "The text to search for (omit with --batch).")
    var text: String?
    @OptionGroup var query: TextQueryOptions
    @OptionGroup var providerOptions: ProviderOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var indexOptions: IndexOptions
    @Flag(help: "Read one query per line from stdin; write one JSON object per line, in input order.")
    var batch = false

    func run() async throws {
        try await reportingErrors(awaiting: {
            let near = try query.nearCoordinate()
            try providerOptions.validate(batch: batch)
            if batch {
                let index = try indexOptions.openIndex()
                try query.answerBatch { line throws(PindropError) in
                    try index.search(SearchRequest(text: line, near: near, countryCode: query.country, limit: query.limit))
                }
                return
            }
            guard let text else { throw PindropError.invalidInput("give the text to search for, or --batch") }
            let request = try SearchRequest(text: text, near: near, countryCode: query.country, limit: query.limit)
            if providerOptions.usesRegistry(for: .search) {
                let registry = try await providerRegistry(index: try indexOptions.openIndex())
                let answer = try await registry.search(request, provider: providerOptions.providerName)
                printAnswer(answer, query: query.echo(request.text), output: output, registry: registry)
                return
            }
            let results = try indexOptions.openIndex().search(request) as [PlaceResult]
            printResults(results, query: query.echo(request.text), output: output)
        })
    }
}

struct SuggestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest", abstract: "Search as you type: the last word is a prefix (\"zur\" → Zürich).")

    @Argument(help: "The text typed so far (omit with --batch).")
    var text: String?
    @OptionGroup var query: TextQueryOptions
    @Option(help: "Below this many characters, no suggestions (and no error).")
    var minChars = 3
    @OptionGroup var providerOptions: ProviderOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var indexOptions: IndexOptions
    @Flag(help: "Read one query per line from stdin; write one JSON object per line, in input order.")
    var batch = false

    func run() async throws {
        try await reportingErrors(awaiting: {
            let near = try query.nearCoordinate()
            try providerOptions.validate(batch: batch)
            if batch {
                let index = try indexOptions.openIndex()
                try query.answerBatch { line throws(PindropError) in
                    try index.suggest(SuggestRequest(text: line, near: near, countryCode: query.country,
                                                     limit: query.limit, minChars: minChars))
                }
                return
            }
            guard let text else { throw PindropError.invalidInput("give the text typed so far, or --batch") }
            let request = try SuggestRequest(text: text, near: near, countryCode: query.country, limit: query.limit,
                                             minChars: minChars)
            if providerOptions.usesRegistry(for: .suggest) {
                let registry = try await providerRegistry(index: try indexOptions.openIndex())
                let answer = try await registry.suggest(request, provider: providerOptions.providerName)
                printAnswer(answer, query: query.echo(request.text), output: output, registry: registry)
                return
            }
            let results = try indexOptions.openIndex().suggest(request) as [PlaceResult]
            printResults(results, query: query.echo(request.text), output: output)
        })
    }
}

struct ReverseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reverse", abstract: "The nearest place to a point, with its distance.")

    // Captured as raw words so a negative longitude ("-74.006") is not taken for an option.
    @Argument(parsing: .allUnrecognized, help: "LATITUDE LONGITUDE (omit with --batch).")
    var point: [String] = []
    @Option(help: "How many places, nearest first (1-100).")
    var limit = 1
    @OptionGroup var providerOptions: ProviderOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var indexOptions: IndexOptions
    @Flag(help: "Read one point per line from stdin (\"lat,lon\" or \"lat lon\"); write JSON Lines in input order.")
    var batch = false

    func run() async throws {
        try await reportingErrors(awaiting: {
            try providerOptions.validate(batch: batch)
            if batch {
                let index = try indexOptions.openIndex()
                _ = try ReverseRequest(coordinate: Coordinate(latitude: 0, longitude: 0), limit: limit)
                let fragments = PlaceFragments(index: index)
                try BatchRunner.run { worker, bytes, out in
                    // Fast path: two numbers in range, one answer from the GeoNames tree (street data answers
                    // through the general path below, as single reverse does).
                    if limit == 1, let (lat, lon) = parsePoint(bytes), (-90...90).contains(lat), (-180...180).contains(lon),
                       !index.hasStreetLevelAnswer(at: Coordinate(latitude: lat, longitude: lon)),
                       let hit = index.nearestPlace(latitude: lat, longitude: lon) {
                        out += #"{"query":{"latitude":"#.utf8
                        JSONWriter.appendNumber(lat, to: &out)
                        out += #","longitude":"#.utf8
                        JSONWriter.appendNumber(lon, to: &out)
                        out += #"},"results":["#.utf8
                        fragments.append(hit.slot, worker: worker, to: &out)
                        out += #","distanceMeters":"#.utf8
                        JSONWriter.appendNumber((hit.meters * 10).rounded() / 10, to: &out)
                        out += #","source":"embedded"}]}"#.utf8
                        return
                    }
                    let line = String(decoding: bytes, as: UTF8.self)
                    let point: Coordinate
                    do throws(PindropError) { point = try Coordinate(parsing: line) } catch {
                        out += batchLine(query: [("text", .text(line))]) { () throws(PindropError) in throw error }
                        return
                    }
                    let query: [(String, QueryValue)] = [("latitude", .number(point.latitude)), ("longitude", .number(point.longitude))]
                    out += batchLine(query: query) { () throws(PindropError) in
                        try index.reverse(ReverseRequest(coordinate: point, limit: limit))
                    }
                }
                return
            }
            guard !point.isEmpty else { throw PindropError.invalidInput("give a point as LAT LON, or --batch") }
            let coordinate = try Coordinate(parsing: point.joined(separator: " "))
            let request = try ReverseRequest(coordinate: coordinate, limit: limit)
            let query: [(String, QueryValue)] = [("latitude", .number(coordinate.latitude)), ("longitude", .number(coordinate.longitude))]
            if providerOptions.usesRegistry(for: .reverse) {
                let registry = try await providerRegistry(index: try indexOptions.openIndex())
                let answer = try await registry.reverse(request, provider: providerOptions.providerName)
                printAnswer(answer, query: query, output: output, registry: registry)
                return
            }
            let results = try indexOptions.openIndex().reverse(request) as [PlaceResult]
            printResults(results, query: query, output: output)
        })
    }
}

struct NearbyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nearby", abstract: "Places within a radius of a point, nearest first.")

    // Captured as raw words so a negative longitude ("-74.006") is not taken for an option.
    @Argument(parsing: .allUnrecognized, help: "LATITUDE LONGITUDE.")
    var point: [String] = []
    @Option(parsing: .unconditional, help: "Radius in metres (1-50000).")
    var radius: Double = 1000
    @Option(help: "Only venues of this category (e.g. cafe).")
    var category: String?
    @Option(help: "How many results (1-100).")
    var limit = RequestLimits.defaultLimit
    @OptionGroup var providerOptions: ProviderOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var indexOptions: IndexOptions

    func run() async throws {
        try await reportingErrors(awaiting: {
            let coordinate = try Coordinate(parsing: point.joined(separator: " "))
            let request = try NearbyRequest(coordinate: coordinate, radiusMeters: radius, limit: limit, category: category)
            var query: [(String, QueryValue)] = [("latitude", .number(coordinate.latitude)), ("longitude", .number(coordinate.longitude)),
                                                 ("radius", .number(radius)), ("limit", .integer(limit))]
            if let category = request.category { query.append(("category", .text(category))) }
            if providerOptions.usesRegistry(for: .nearby) {
                let registry = try await providerRegistry(index: try indexOptions.openIndex())
                let answer = try await registry.nearby(request, provider: providerOptions.providerName)
                printAnswer(answer, query: query, output: output, registry: registry)
                return
            }
            let results = try indexOptions.openIndex().nearby(request) as [PlaceResult]
            printResults(results, query: query, output: output)
        })
    }
}

/// Each place's result JSON up to (not including) its distance, made once per place and worker: the
/// answer for a point is then a copy plus three numbers. One cache per worker, so no locks.
final class PlaceFragments: @unchecked Sendable {
    /// Per worker: each place's fragment, made on first use (indexed by slot, so no hashing per line).
    private final class WorkerCache {
        var fragments: [[UInt8]?]
        init(count: Int) { fragments = Array(repeating: nil, count: count) }
    }
    private let index: PlaceIndex
    private let caches: [WorkerCache]

    init(index: PlaceIndex) {
        self.index = index
        caches = (0..<BatchRunner.workerCount).map { _ in WorkerCache(count: index.placeCount) }
    }

    /// Appends the place's JSON object, without its closing brace (distance and source follow), to `out`.
    func append(_ slot: Int, worker: Int, to out: inout [UInt8]) {
        let cache = caches[worker]
        if cache.fragments[slot] == nil {
            var place = index.place(atSlot: slot)
            place.source = nil
            var w = JSONWriter()
            WireEncoding.writeResult(PlaceResult(place: place), into: &w)
            cache.fragments[slot] = Array(w.bytes.dropLast())
        }
        cache.fragments[slot]!.withUnsafeBufferPointer { out.append(contentsOf: $0) }
    }
}
