import Hummingbird
import PindropCore

/// `/v1/search`, `/v1/suggest`, `/v1/reverse`, `/v1/nearby`, `/v1/places/{id}`, `/v1/status` and
/// `/v1/providers`: thin translations from query strings to the core's validated requests, asked of the facade,
/// and back to the wire shape. Each answer says which provider gave it and whether that was a fallback.
struct PlacesController<Context: RequestContext>: Sendable {
    let places: PlaceService
    /// Suggestion minimum used when the client does not send `minChars`.
    let suggestMinChars: Int
    /// Times each verb (`pindrop_engine_duration_seconds`); nil when metrics are off.
    let metrics: ServerMetrics?
    /// Where nearby pages of more than `RequestLimits.maxResults` places are made.
    let heavy: HeavyRoutes

    /// Every endpoint here only reads, so each is a GET.
    func addRoutes(to group: RouterGroup<Context>) {
        let handlers: KeyValuePairs<RouterPath, @Sendable (Request, Context) async throws -> Response> = [
            "search": search, "suggest": suggest, "reverse": reverse, "nearby": nearby, "places/**": place,
            "status": status, "providers": providers,
        ]
        for (path, handler) in handlers { group.get(path, use: handler) }
    }

    @Sendable func search(_ request: Request, context: Context) async throws -> Response {
        let query = try QueryParameters(request)
        let within = try AreaFilter(city: query.string("city"), postcode: query.string("postcode"), county: query.string("county"),
                                    state: query.string("state"))
        var search = try SearchRequest(text: try query.requiredString("q"), near: try query.coordinate(),
                                       countryCode: query.string("country"), limit: try query.limit(), explain: try query.flag("explain"),
                                       within: within, languages: query.languages())
        search.dedupe = try query.flag("dedupe", default: true)
        return try await Responses.answer(search.echo, format: try query.format()) {
            try await metrics.timed(.search) { try await places.search(search, provider: query.provider()) }
        }
    }

    @Sendable func suggest(_ request: Request, context: Context) async throws -> Response {
        let query = try QueryParameters(request)
        let suggest = try SuggestRequest(text: try query.requiredString("q"), near: try query.coordinate(),
                                         countryCode: query.string("country"), limit: try query.limit(),
                                         minChars: try query.integer("minChars", default: suggestMinChars, in: 0...RequestLimits.maxTextLength),
                                         explain: try query.flag("explain"), languages: query.languages())
        return try await Responses.answer(suggest.echo, format: try query.format()) {
            try await metrics.timed(.suggest) { try await places.suggest(suggest, provider: query.provider()) }
        }
    }

    @Sendable func reverse(_ request: Request, context: Context) async throws -> Response {
        let query = try QueryParameters(request)
        let level = try query.string("level").map { text throws(PindropError) in try ReverseLevel(parsing: text) } ?? .building
        let reverse = try ReverseRequest(coordinate: try query.requiredCoordinate(), limit: try query.limit(default: 1), level: level,
                                         languages: query.languages())
        return try await Responses.answer(reverse.echo, format: try query.format()) {
            try await metrics.timed(.reverse) { try await places.reverse(reverse, provider: query.provider()) }
        }
    }

    /// A page of the places within the radius, nearest first: `limit` (up to `RequestLimits.maxNearbyPage`) from
    /// `cursor` (the previous page's `next`), with `total` and `next`.
    @Sendable func nearby(_ request: Request, context: Context) async throws -> Response {
        let query = try QueryParameters(request)
        let nearby = try NearbyRequest(coordinate: try query.requiredCoordinate(), radiusMeters: try query.number("radius") ?? 1000,
                                       limit: try query.limit(most: RequestLimits.maxNearbyPage),
                                       category: query.string("category"), venuesOnly: try Self.venuesOnly(query),
                                       cursor: query.string("cursor"))
        let provider = query.provider()
        return try await Responses.answer(nearby.echo, format: try query.format()) {
            guard nearby.limit > RequestLimits.maxResults else {
                return try await metrics.timed(.nearby) { try await places.nearby(nearby, provider: provider) }
            }
            return try await heavy.run { [metrics, places] in try await metrics.timed(.nearby) { try await places.nearby(nearby, provider: provider) } }
        }
    }

    /// `kind=venue`: venues only; no `kind`: every place.
    static func venuesOnly(_ query: QueryParameters) throws -> Bool {
        guard let kind = query.string("kind") else { return false }
        guard kind == "venue" else { throw PindropError.invalidInput("\"kind\" can only be \"venue\", got \"\(kind.prefix(40))\"") }
        return true
    }

    @Sendable func place(_ request: Request, context: Context) async throws -> Response {
        let id = try PlaceID.from(context)
        let query = try QueryParameters(request)
        let format = try query.format(), languages = query.languages()
        let echo: [(String, QueryValue)] = [("id", .text(id))] + (languages.isEmpty ? [] : [("lang", .text(languages.joined(separator: ",")))])
        let place = try await metrics.timed(.lookup) { try await places.lookup(id: id, languages: languages) }
        return Responses.places(query: echo, places: [place], format: format)
    }

    @Sendable func status(_ request: Request, context: Context) async throws -> Response {
        Responses.json(WireEncoding.statusDocument(try await places.status()))
    }

    /// Every provider (configured or not, with why not), what each answers, its attribution, and the default
    /// chain of each capability. Keys never appear: only the names of the variables that hold them.
    @Sendable func providers(_ request: Request, context: Context) async throws -> Response {
        Responses.json(WireEncoding.providersDocument(places))
    }
}
