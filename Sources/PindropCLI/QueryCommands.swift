import ArgumentParser
import PindropCore

/// `pindrop search`: text to places, best first.
struct SearchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Find places by name: \"Springfield, IL\", \"Sao Paulo\", \"Москва\".")

    @Argument(help: "The text to search for (omit with --batch).")
    var text: String?
    @OptionGroup var query: TextQueryOptions
    @OptionGroup var serviceOptions: ServiceOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var batch: BatchOptions

    func run() async throws {
        try await reportingErrors {
            let near = try query.nearCoordinate()
            if batch.batch {
                return try await batch.run(.search(near: near, countryCode: query.country, limit: query.limit),
                                           service: try await serviceOptions.service(), provider: serviceOptions.providerName)
            }
            guard let text else { throw PindropError.invalidInput("give the text to search for, or --batch") }
            let request = try SearchRequest(text: text, near: near, countryCode: query.country, limit: query.limit)
            let service = try await serviceOptions.service()
            try serviceOptions.print(try await service.search(request, provider: serviceOptions.providerName),
                                     echo: request.echo, output: output, service: service, capability: .search)
        }
    }
}

/// `pindrop suggest`: search as you type.
struct SuggestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "suggest", abstract: "Search as you type: the last word is a prefix (\"zur\" → Zürich).")

    @Argument(help: "The text typed so far (omit with --batch).")
    var text: String?
    @OptionGroup var query: TextQueryOptions
    @Option(help: "Below this many characters, no suggestions (and no error).")
    var minChars = 3
    @OptionGroup var serviceOptions: ServiceOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var batch: BatchOptions

    func run() async throws {
        try await reportingErrors {
            let near = try query.nearCoordinate()
            if batch.batch {
                return try await batch.run(.suggest(near: near, countryCode: query.country, limit: query.limit, minChars: minChars),
                                           service: try await serviceOptions.service(), provider: serviceOptions.providerName)
            }
            guard let text else { throw PindropError.invalidInput("give the text typed so far, or --batch") }
            let request = try SuggestRequest(text: text, near: near, countryCode: query.country, limit: query.limit,
                                             minChars: minChars)
            let service = try await serviceOptions.service()
            try serviceOptions.print(try await service.suggest(request, provider: serviceOptions.providerName),
                                     echo: request.echo, output: output, service: service, capability: .suggest)
        }
    }
}

/// `pindrop reverse`: the nearest place (or street address) to a point.
struct ReverseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reverse", abstract: "The nearest place to a point, with its distance.")

    // Captured as raw words so a negative longitude ("-74.006") is not taken for an option.
    @Argument(parsing: .allUnrecognized, help: "LATITUDE LONGITUDE (omit with --batch: then one \"lat,lon\" or \"lat lon\" per stdin line).")
    var point: [String] = []
    @Option(help: "How many places, nearest first (1-100).")
    var limit = 1
    @OptionGroup var serviceOptions: ServiceOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var batch: BatchOptions

    func run() async throws {
        try await reportingErrors {
            if batch.batch {
                return try await batch.run(.reverse(limit: limit), service: try await serviceOptions.service(),
                                           provider: serviceOptions.providerName)
            }
            guard !point.isEmpty else { throw PindropError.invalidInput("give a point as LAT LON, or --batch") }
            let request = try ReverseRequest(coordinate: try Coordinate(parsing: point.joined(separator: " ")), limit: limit)
            let service = try await serviceOptions.service()
            try serviceOptions.print(try await service.reverse(request, provider: serviceOptions.providerName),
                                     echo: request.echo, output: output, service: service, capability: .reverse)
        }
    }
}

/// `pindrop nearby`: venues and places within a radius, nearest first.
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
    @OptionGroup var serviceOptions: ServiceOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await reportingErrors {
            let request = try NearbyRequest(coordinate: try Coordinate(parsing: point.joined(separator: " ")), radiusMeters: radius,
                                            limit: limit, category: category)
            let service = try await serviceOptions.service()
            try serviceOptions.print(try await service.nearby(request, provider: serviceOptions.providerName),
                                     echo: request.echo, output: output, service: service, capability: .nearby)
        }
    }
}
