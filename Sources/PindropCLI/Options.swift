import ArgumentParser
import Foundation
import PindropCore
import PindropProviders

/// `--provider NAME`, the store and the output format: the facade every query command asks, and how its
/// answer is printed.
struct ServiceOptions: ParsableArguments {
    @Option(help: """
        Ask this provider first: embedded, nominatim, photon, google, mapbox or foursquare (see `pindrop providers`). \
        When it fails, the default chain answers and the answer is marked as a fallback.
        """)
    var provider: String?
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    /// The named provider, trimmed and lower-cased; nil for none.
    var providerName: String? {
        guard let name = provider?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else { return nil }
        return name
    }

    /// The facade: the store, and the remote providers and chains the environment configures.
    func service() async throws -> PlaceService {
        try ProviderSetup.service(store: try await store.location.open())
    }

    /// Opens the facade, asks it one question (given the facade and the preferred provider) and prints the answer.
    func ask(_ capability: ProviderCapability, echo: [(String, QueryValue)],
             _ question: (PlaceService, String?) async throws -> ProviderAnswer) async throws {
        let service = try await service()
        try print(try await question(service, providerName), echo: echo, service: service, capability: capability)
    }

    /// Opens the facade and answers stdin with its batch form.
    func answerBatch(_ question: BatchQuestion) async throws {
        try await service().answerBatch(question, provider: providerName,
                                        read: { Foundation.read(0, $0.baseAddress!, $0.count) }, write: Terminal.write)
    }

    /// Prints an answer: `--json` / `--geojson` with `provider`, `fallback` and `failures`; as a table, the
    /// results, then (when the chain holds more than the store) who answered and their credit, with each
    /// failure before a fallback as a note on stderr.
    func print(_ answer: ProviderAnswer, echo: [(String, QueryValue)], service: PlaceService,
               capability: ProviderCapability) throws {
        if let format = output.format {
            Terminal.write(WireEncoding.document(query: echo, answer: answer, format: format))
            return
        }
        for failure in answer.failures { Terminal.note("\(failure.provider) failed: \(failure.error.message)") }
        if let didYouMean = answer.didYouMean { Terminal.note("did you mean \"\(didYouMean)\"?") }
        Terminal.printTable(answer.results)
        if let total = answer.page?.total, total > answer.results.count {
            Swift.print("the nearest \(answer.results.count) of \(total) within the radius; --limit N (up to \(RequestLimits.maxNearbyCollected)) or --all for more")
        }
        guard try service.chain(for: capability, preferring: providerName) != [PlaceService.storeProviderName] else { return }
        let description = service.descriptions.first { $0.name == answer.provider }
        var line = "answered by \(description?.displayName ?? answer.provider)"
        if answer.isFallback { line += " (fallback)" }
        if answer.fromCache { line += " (cached)" }
        if let attribution = description?.attribution, !attribution.isEmpty { line += " · \(attribution)" }
        Swift.print(line)
    }
}

/// Options that bias or filter text queries.
struct TextQueryOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Prefer places near this point, as LAT,LON.")
    var near: String?

    @Option(help: "Only places in this country (ISO 3166 two-letter code).")
    var country: String?

    @Option(help: "How many results (1-100).")
    var limit: Int = RequestLimits.defaultLimit

    @Flag(help: "Say why each result ranked where it did: how the text matched which name, and the terms of its score.")
    var explain = false

    @OptionGroup var language: LanguageOption

    func nearCoordinate() throws(PindropError) -> Coordinate? {
        try near.map { text throws(PindropError) in try Coordinate(parsing: text) }
    }

    /// `--batch` lines carry no explanations: the pair is refused rather than the flag ignored.
    func checkBatch(_ batch: BatchOptions) throws(PindropError) {
        if explain, batch.batch { throw .invalidInput("--explain does not apply to --batch") }
        if language.lang != nil, batch.batch { throw .invalidInput("--lang does not apply to --batch") }
    }
}

/// `--lang`: the languages names are given in, best first.
struct LanguageOption: ParsableArguments {
    @Option(help: "Languages for the names in the answer, best first, as an Accept-Language list (\"de,en\", \"fr-CH,fr;q=0.9\").")
    var lang: String?

    /// The languages of `--lang` (`LanguagePreference`); `.invalidInput` when it names none.
    func languages() throws(PindropError) -> [String] {
        guard let lang else { return [] }
        let languages = LanguagePreference.languages(from: lang)
        guard !languages.isEmpty else { throw .invalidInput("--lang must list languages such as \"de,en\", got \"\(lang.prefix(40))\"") }
        return languages
    }
}

/// `LATITUDE LONGITUDE` of `reverse` and `nearby`.
struct PointArgument: ParsableArguments {
    // Captured as raw words so a negative longitude ("-74.006") is not taken for an option.
    @Argument(parsing: .allUnrecognized, help: "LATITUDE LONGITUDE (for reverse, omit with --batch: then one \"lat,lon\" or \"lat lon\" per stdin line).")
    var point: [String] = []

    /// The point given; `.invalidInput` when there is none or it does not read as one.
    func coordinate() throws(PindropError) -> Coordinate {
        guard !point.isEmpty else { throw .invalidInput("give a point as LAT LON") }
        return try Coordinate(parsing: point.joined(separator: " "))
    }
}

/// Output choices shared by every query command.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print one JSON object: the query and a `results` array.")
    var json = false

    @Flag(help: "Print an RFC 7946 GeoJSON FeatureCollection.")
    var geojson = false

    func validate() throws {
        if json && geojson { throw ValidationError("choose one of --json and --geojson") }
    }

    var format: ResultFormat? { json ? .json : (geojson ? .geojson : nil) }
}

/// `--batch`: one question per stdin line, JSON Lines out in input order.
struct BatchOptions: ParsableArguments {
    @Flag(help: "Read one question per line from stdin; write one JSON object per line, in input order.")
    var batch = false
}
