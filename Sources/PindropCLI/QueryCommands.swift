import ArgumentParser
import PindropCore

/// `pindrop search`: text to places, best first.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "search", abstract: "Find places by name: \"Springfield, IL\", \"Sao Paulo\", \"Москва\".")

    @Argument(help: "The text to search for (omit with --batch).")
    var text: String?
    @OptionGroup var query: TextQueryOptions
    @Option(help: "Only places in this town (by its boundary where the index has one).")
    var city: String?
    @Option(help: "Only places in this postcode.")
    var postcode: String?
    @Option(help: "Only places in this county or district.")
    var county: String?
    @Option(help: "Only places in this state or region.")
    var state: String?
    @Flag(help: "Each OpenStreetMap way of a street as an answer of its own, as Nominatim's dedupe=0.")
    var eachWay = false
    @OptionGroup var service: ServiceOptions
    @OptionGroup var batch: BatchOptions

    func run() async throws {
        try await reportingErrors {
            let near = try query.nearCoordinate()
            try query.checkBatch(batch)
            let within = try AreaFilter(city: city, postcode: postcode, county: county, state: state)
            if batch.batch {
                guard within.isEmpty else { throw PindropError.invalidInput("--city, --postcode, --county and --state do not go with --batch") }
                return try await service.answerBatch(.search(near: near, countryCode: query.country, limit: query.limit))
            }
            guard let text else { throw PindropError.invalidInput("give the text to search for, or --batch") }
            var request = try SearchRequest(text: text, near: near, countryCode: query.country, limit: query.limit,
                                            explain: query.explain, within: within, languages: try query.language.languages())
            request.dedupe = !eachWay
            try await service.ask(.search, echo: request.echo) { try await $0.search(request, provider: $1) }
        }
    }
}

/// `pindrop suggest`: search as you type.
struct SuggestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "suggest", abstract: "Search as you type: the last word is a prefix (\"zur\" → Zürich).")

    @Argument(help: "The text typed so far (omit with --batch).")
    var text: String?
    @OptionGroup var query: TextQueryOptions
    @Option(help: "Below this many characters, no suggestions (and no error).")
    var minChars = 3
    @OptionGroup var service: ServiceOptions
    @OptionGroup var batch: BatchOptions

    func run() async throws {
        try await reportingErrors {
            let near = try query.nearCoordinate()
            try query.checkBatch(batch)
            if batch.batch {
                return try await service.answerBatch(.suggest(near: near, countryCode: query.country, limit: query.limit, minChars: minChars))
            }
            guard let text else { throw PindropError.invalidInput("give the text typed so far, or --batch") }
            let request = try SuggestRequest(text: text, near: near, countryCode: query.country, limit: query.limit,
                                             minChars: minChars, explain: query.explain, languages: try query.language.languages())
            try await service.ask(.suggest, echo: request.echo) { try await $0.suggest(request, provider: $1) }
        }
    }
}

/// `pindrop reverse`: the nearest place (or street address) to a point.
struct ReverseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reverse", abstract: "The nearest place to a point, with its distance.")

    @OptionGroup var point: PointArgument
    @OptionGroup var batch: BatchOptions
    @Option(help: "How many places, nearest first (1-100).")
    var limit = 1
    @Option(help: "What the first answer is: building (the address, the default), street, suburb, city, county, state or country (the area the point is in), or a Nominatim zoom (18 ... 3).")
    var level = "building"
    @OptionGroup var language: LanguageOption
    @OptionGroup var service: ServiceOptions

    func run() async throws {
        try await reportingErrors {
            let level = try ReverseLevel(parsing: level)
            if batch.batch {
                guard language.lang == nil else { throw PindropError.invalidInput("--lang does not apply to --batch") }
                return try await service.answerBatch(.reverse(limit: limit, level: level))
            }
            let request = try ReverseRequest(coordinate: try point.coordinate(), limit: limit, level: level,
                                             languages: try language.languages())
            try await service.ask(.reverse, echo: request.echo) { try await $0.reverse(request, provider: $1) }
        }
    }
}

/// `pindrop nearby`: venues and places within a radius, nearest first; up to 10,000 of them, or `--all`, collected
/// page by page.
struct NearbyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "nearby", abstract: "Places within a radius of a point, nearest first.")

    @OptionGroup var point: PointArgument
    @Option(parsing: .unconditional, help: "Radius in metres (1-50000).")
    var radius: Double = 1000
    @Option(help: "Only venues of this category (e.g. cafe).")
    var category: String?
    @Option(help: "How many results (1-10000), nearest first.")
    var limit: Int?
    @Flag(help: "Every place within the radius.")
    var all = false
    @OptionGroup var service: ServiceOptions

    func run() async throws {
        try await reportingErrors {
            let wanted = try collected()
            let request = try NearbyRequest(coordinate: try point.coordinate(), radiusMeters: radius,
                                            limit: min(wanted ?? RequestLimits.maxNearbyPage, RequestLimits.maxNearbyPage), category: category)
            // The echo names what was asked: the limit given, or none for --all.
            let echo = request.echo.compactMap { field -> (String, QueryValue)? in
                field.0 != "limit" ? field : wanted.map { ("limit", .integer($0)) }
            }
            try await service.ask(.nearby, echo: echo) { try await $0.nearby(request, collecting: wanted, provider: $1) }
        }
    }

    /// How many places to collect: `--limit` (1 ... 10,000, default 10), or nil for `--all`.
    func collected() throws(PindropError) -> Int? {
        if all {
            guard limit == nil else { throw .invalidInput("choose one of --limit and --all") }
            return nil
        }
        let wanted = limit ?? RequestLimits.defaultLimit
        guard (1...RequestLimits.maxNearbyCollected).contains(wanted) else {
            throw .invalidInput("limit must be between 1 and \(RequestLimits.maxNearbyCollected), got \(wanted); --all gives every place within the radius")
        }
        return wanted
    }
}
