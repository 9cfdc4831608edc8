import Hummingbird
import PindropCore

/// `/v1/search`, `/v1/suggest`, `/v1/reverse`, `/v1/nearby`, `/v1/places/{id}` and `/v1/status`:
/// thin translations from query strings to the core's validated requests and back to the wire shape.
/// The four questions go through the provider registry (`provider=NAME` first, then the default chain), and
/// each answer says which provider gave it and whether that was a fallback.
struct PlacesController<Context: RequestContext>: Sendable {
    let geocoder: any Geocoder & StatusReporting
    let providers: ProviderRegistry
    /// Suggestion minimum used when the client does not send `minChars`.
    let suggestMinChars: Int

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("search", use: search)
        group.get("suggest", use: suggest)
        group.get("reverse", use: reverse)
        group.get("nearby", use: nearby)
        group.get("places/**", use: place)
        group.get("status", use: status)
    }

    @Sendable func search(_ request: Request, context: Context) async throws -> Response {
        let query = QueryParameters(request)
        let search = try SearchRequest(text: try query.requiredString("q"), near: try query.coordinate(),
                                       countryCode: query.string("country"),
                                       limit: try query.integer("limit", default: RequestLimits.defaultLimit, in: 1...RequestLimits.maxResults))
        let format = try query.format()
        let answer = try await providers.search(search, provider: query.provider())
        return Responses.answer(query: echo(text: search.text, near: search.near, country: search.countryCode, limit: search.limit),
                                answer: answer, format: format)
    }

    @Sendable func suggest(_ request: Request, context: Context) async throws -> Response {
        let query = QueryParameters(request)
        let suggest = try SuggestRequest(text: try query.requiredString("q"), near: try query.coordinate(),
                                         countryCode: query.string("country"),
                                         limit: try query.integer("limit", default: RequestLimits.defaultLimit, in: 1...RequestLimits.maxResults),
                                         minChars: try query.integer("minChars", default: suggestMinChars, in: 0...RequestLimits.maxTextLength))
        let format = try query.format()
        let answer = try await providers.suggest(suggest, provider: query.provider())
        return Responses.answer(query: echo(text: suggest.text, near: suggest.near, country: suggest.countryCode, limit: suggest.limit),
                                answer: answer, format: format)
    }

    @Sendable func reverse(_ request: Request, context: Context) async throws -> Response {
        let query = QueryParameters(request)
        let reverse = try ReverseRequest(coordinate: try query.requiredCoordinate(),
                                         limit: try query.integer("limit", default: 1, in: 1...RequestLimits.maxResults))
        let format = try query.format()
        let answer = try await providers.reverse(reverse, provider: query.provider())
        return Responses.answer(query: [("latitude", .number(reverse.coordinate.latitude)),
                                        ("longitude", .number(reverse.coordinate.longitude))],
                                answer: answer, format: format)
    }

    @Sendable func nearby(_ request: Request, context: Context) async throws -> Response {
        let query = QueryParameters(request)
        let coordinate = try query.requiredCoordinate()
        let radius = try query.number("radius") ?? 1000
        let nearby = try NearbyRequest(coordinate: coordinate, radiusMeters: radius,
                                       limit: try query.integer("limit", default: RequestLimits.defaultLimit, in: 1...RequestLimits.maxResults),
                                       category: query.string("category"))
        let format = try query.format()
        let answer = try await providers.nearby(nearby, provider: query.provider())
        var echo: [(String, QueryValue)] = [("latitude", .number(coordinate.latitude)), ("longitude", .number(coordinate.longitude)),
                                            ("radius", .number(nearby.radiusMeters)), ("limit", .integer(nearby.limit))]
        if let category = nearby.category { echo.append(("category", .text(category))) }
        return Responses.answer(query: echo, answer: answer, format: format)
    }

    @Sendable func place(_ request: Request, context: Context) async throws -> Response {
        let id = try PlaceID.from(context)
        let format = try QueryParameters(request).format()
        guard let place = try await geocoder.place(id: id) else {
            throw APIError.notFound("no place has the id \"\(id)\"")
        }
        return Responses.places(query: [("id", .text(id))], places: [place], format: format)
    }

    @Sendable func status(_ request: Request, context: Context) async throws -> Response {
        let status = try await geocoder.status()
        var w = JSONWriter()
        w.beginObject()
        w.key("status"); w.string("ok")
        w.key("store")
        w.beginObject()
        w.key("name"); w.string(status.name)
        w.key("placeCount"); w.number(status.placeCount)
        w.key("location"); w.string(status.location)
        w.key("attribution")
        w.beginArray()
        for credit in status.attribution { w.string(credit) }
        w.endArray()
        w.endObject()
        w.endObject()
        return Responses.json(w)
    }

    /// The query echo, with the same keys as the CLI's `--json` output.
    private func echo(text: String, near: Coordinate?, country: String?, limit: Int) -> [(String, QueryValue)] {
        var echo: [(String, QueryValue)] = [("text", .text(text))]
        if let near { echo += [("latitude", .number(near.latitude)), ("longitude", .number(near.longitude))] }
        if let country { echo.append(("country", .text(country))) }
        echo.append(("limit", .integer(limit)))
        return echo
    }
}
