import Foundation
import Hummingbird
import NIOCore
import PindropCore

/// `/v1/saved` and `/v1/recent`: the saved places and recent addresses of the user the request names with
/// `Authorization: Bearer <token>`, or of the local user when it names none (and the server allows that).
struct UserDataController<Context: RequestContext>: Sendable {
    let places: PlaceService
    let users: any UserAccounts
    /// Whether a request without a token is refused even where the store has a local user.
    let requireToken: Bool
    let maxBodyBytes: Int
    /// Most places one user's saved list holds.
    let maxSaved: Int
    /// Counts saves and recent addresses written; nil when metrics are off.
    let metrics: ServerMetrics?
    /// Most recent places one `GET /v1/recent` returns.
    static var maxRecent: Int { 50 }
    /// Most saved places one `GET /v1/saved` returns; `next` leads on.
    static var maxSavedPage: Int { 500 }

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("saved", use: listSaved)
        group.put("saved/**", use: save)
        group.delete("saved/**", use: remove)
        group.get("recent", use: listRecent)
        group.post("recent", use: remember)
    }

    /// The places of the user the request names: its bearer token's user (401 for a token no user has), else
    /// the local user unless a token is required or the store has none (401). Any other `Authorization` is 401.
    func userPlaces(_ request: Request) async throws -> any SavedPlaces & RecentPlaces {
        if let token = Self.bearerToken(request.headers[.authorization]) {
            guard let user = try await users.user(withToken: token) else {
                throw PindropError.unauthorized("the bearer token is not one this server knows; ask for a new one (pindrop users add NAME)")
            }
            return users.places(of: user)
        }
        if request.headers[.authorization] != nil {
            throw PindropError.unauthorized("only a bearer token is accepted: Authorization: Bearer <token>")
        }
        guard !requireToken, let local = users.localUser else {
            throw PindropError.unauthorized("saved places and recent addresses need a token: Authorization: Bearer <token> (pindrop users add NAME makes one)")
        }
        return local
    }

    /// The token of `Authorization: Bearer <token>`, the scheme in any case (RFC 9110 makes schemes
    /// case-insensitive: `bearer` is one too); nil for any other value.
    static func bearerToken(_ authorization: String?) -> String? {
        guard let parts = authorization?.split(separator: " ", maxSplits: 1), parts.count == 2,
              parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }

    /// A page of saved places, newest first: `limit` (default 100) after `cursor` (the previous page's `next`: the
    /// position of its last place, so a save or a removal in between moves no place to another page).
    @Sendable func listSaved(_ request: Request, context: Context) async throws -> Response {
        let query = try QueryParameters(request)
        let limit = try query.integer("limit", default: 100, in: 1...Self.maxSavedPage)
        let cursor = try query.string("cursor").map { text in
            guard let position = Int64(text), position >= 0 else {
                throw PindropError.invalidInput("\"cursor\" must be the \"next\" of an earlier page")
            }
            return position
        }
        let format = try query.format()
        let saved = try await userPlaces(request)
        let page = try await saved.page(after: cursor, limit: limit)
        let total = try await saved.count()
        let echo: [(String, QueryValue)] = [("limit", .integer(limit))] + (cursor.map { [("cursor", .text(String($0)))] } ?? [])
        return Responses.places(query: echo, places: page.places, format: format, page: ResultPage(total: total, next: page.next.map(String.init)))
    }

    /// The offset a recent list's `cursor` names (a page's `next`), 0 without one.
    static func offset(of query: QueryParameters) throws -> Int {
        guard let cursor = query.string("cursor") else { return 0 }
        guard let offset = Int(cursor), offset >= 0, offset <= 10_000_000 else {
            throw PindropError.invalidInput("\"cursor\" must be the \"next\" of an earlier page")
        }
        return offset
    }

    /// The echo of a page request: its limit, and its cursor after the first page.
    static func pageEcho(limit: Int, offset: Int) -> [(String, QueryValue)] {
        [("limit", .integer(limit))] + (offset > 0 ? [("cursor", .text(String(offset)))] : [])
    }

    /// PUT with no body saves the engine's place of that id; with a place body (the wire shape) saves that place,
    /// so a reverse-geocoded point can be kept too. 201 when new, 200 when it was already saved.
    @Sendable func save(_ request: Request, context: Context) async throws -> Response {
        let id = try PlaceID.from(context)
        let saved = try await userPlaces(request)
        var request = request
        let place: Place
        if let body = try await WirePlace.decodeIfPresent(from: &request, limit: maxBodyBytes) {
            // The path names the place; a body may repeat its id but not name another.
            if let bodyID = body.id, bodyID != id {
                throw PindropError.invalidInput("the body's id \"\(bodyID.prefix(60))\" differs from the id in the path \"\(id.prefix(60))\"")
            }
            place = try body.place(id: id)
        } else {
            place = try await metrics.timed(.lookup) { try await places.lookup(id: id) }
        }
        // The cap is the store's to check, in the transaction that inserts: checked here first, concurrent saves
        // all passed it (200 at once with a cap of 10 kept up to 115).
        let isNew = try await saved.save(place, cap: maxSaved)
        metrics?.savesWritten.increment()
        return Responses.places(query: [("id", .text(id))], places: [place], format: .json, status: isNew ? .created : .ok)
    }

    @Sendable func remove(_ request: Request, context: Context) async throws -> Response {
        let id = try PlaceID.from(context)
        guard try await userPlaces(request).remove(id: id) else { throw PindropError.notFound("no saved place has the id \"\(id)\"") }
        return Response(status: .noContent)
    }

    @Sendable func listRecent(_ request: Request, context: Context) async throws -> Response {
        let query = try QueryParameters(request)
        let limit = try query.integer("limit", default: 2, in: 1...Self.maxRecent)
        let offset = try Self.offset(of: query)
        let format = try query.format()
        let recent = try await userPlaces(request)
        // One more than asked says whether a next page exists; the list is short (a hundred at most).
        let places = try await recent.recent(offset: offset, limit: limit + 1)
        let next = places.count > limit ? String(offset + limit) : nil
        return Responses.places(query: Self.pageEcho(limit: limit, offset: offset), places: Array(places.prefix(limit)),
                                format: format, page: ResultPage(total: nil, next: next))
    }

    /// POST `{"id": "..."}` remembers the engine's place; a whole place (with name, latitude, longitude)
    /// is remembered as sent. Answers with the updated recent list (the two newest).
    @Sendable func remember(_ request: Request, context: Context) async throws -> Response {
        let recent = try await userPlaces(request)
        var request = request
        guard let body = try await WirePlace.decodeIfPresent(from: &request, limit: maxBodyBytes) else {
            throw PindropError.invalidInput("the body must be a JSON object like {\"id\": \"geonames:2988507\"}")
        }
        guard let id = body.id else { throw PindropError.invalidInput("the body lacks the field \"id\"") }
        let place = body.isReference
            ? try await metrics.timed(.lookup) { try await places.lookup(id: try PlaceID.validated(id)) } : try body.place(id: id)
        try await recent.remember(place)
        metrics?.recentsWritten.increment()
        return Responses.places(query: [("limit", .integer(2))], places: try await recent.recent(limit: 2), format: .json,
                                status: .created)
    }

}

/// A place as clients send it: the same fields as a result in the wire shape (`id`, `name`, `displayName`,
/// `latitude`, `longitude`, ...); only `id` when it refers to a place the engine knows.
struct WirePlace: Decodable {
    struct WireAddress: Decodable {
        var houseNumber: String?
        var street: String?
        var postcode: String?
        var town: String?
        var suburb: String?
        var county: String?
        var state: String?
        var country: String?
    }

    /// The place's id; a saved place's body may leave it out (the path names it).
    var id: String?
    var name: String?
    var displayName: String?
    var latitude: Double?
    var longitude: Double?
    var countryCode: String?
    var admin1: String?
    var population: Int?
    var category: String?
    var address: WireAddress?
    var source: String?
    var boundingBox: BoundingBox?

    /// Longest name, display name and other text field accepted: together they cap a saved place's size.
    static let maxNameLength = 200, maxDisplayNameLength = 500, maxFieldLength = 100

    /// Whether only the id was sent.
    var isReference: Bool { name == nil && latitude == nil && longitude == nil }

    /// Reads and decodes the body; nil when it is empty. Oversized bodies are 413, malformed ones 400.
    static func decodeIfPresent(from request: inout Request, limit: Int) async throws -> WirePlace? {
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: limit) } catch is NIOTooManyBytesError {
            throw PindropError.tooLarge("the request body is larger than \(limit) bytes")
        }
        let bytes = Data(buffer.readableBytesView)
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return nil }
        do {
            return try JSONDecoder().decode(WirePlace.self, from: bytes)
        } catch DecodingError.keyNotFound(let key, _) {
            throw PindropError.invalidInput("the body lacks the field \"\(key.stringValue)\"")
        } catch DecodingError.typeMismatch(_, let context) where context.codingPath.isEmpty {
            throw PindropError.invalidInput("the body is not a JSON object")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw PindropError.invalidInput("the body's field \"\(field)\" has the wrong type")
        } catch {
            throw PindropError.invalidInput("the body is not a JSON object")
        }
    }

    /// The whole place under `id`, validated: a non-empty name, coordinates on the globe, no oversized text.
    func place(id: String) throws -> Place {
        let id = try PlaceID.validated(id)
        // Kept without bidirectional overrides, which would show a saved name in another order than it is written.
        func plain(_ text: String?) -> String? { text.map(ControlCharacters.removingBidiControls) }
        guard let name = plain(name), !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw PindropError.invalidInput("a place needs a non-empty \"name\"")
        }
        guard let latitude, let longitude else { throw PindropError.invalidInput("a place needs \"latitude\" and \"longitude\"") }
        let coordinate = try Coordinate(validatingLatitude: latitude, longitude: longitude)
        guard RequestLimits.fits(name, within: Self.maxNameLength), RequestLimits.fits(displayName ?? "", within: Self.maxDisplayNameLength) else {
            throw PindropError.invalidInput("a place's name is at most \(Self.maxNameLength) characters and its display name \(Self.maxDisplayNameLength)")
        }
        let texts = [countryCode, admin1, category, source, address?.houseNumber, address?.street, address?.postcode, address?.town,
                     address?.suburb, address?.county, address?.state, address?.country]
        guard texts.allSatisfy({ RequestLimits.fits($0 ?? "", within: Self.maxFieldLength) }) else {
            throw PindropError.invalidInput("a text field of the place is longer than \(Self.maxFieldLength) characters")
        }
        guard !([name, displayName] + texts).contains(where: { $0?.unicodeScalars.contains(where: QueryParameters.isControl) ?? false }) else {
            throw PindropError.invalidInput("a text field of the place holds control characters")
        }
        if let box = boundingBox {
            guard [box.south, box.north].allSatisfy({ (-90...90).contains($0) }), [box.west, box.east].allSatisfy({ (-180...180).contains($0) }),
                  box.south <= box.north else {
                throw PindropError.invalidInput("a place's boundingBox needs south ≤ north within -90...90 and west, east within -180...180")
            }
        }
        let address = address.map { Address(houseNumber: plain($0.houseNumber), street: plain($0.street), postcode: plain($0.postcode),
                                             town: plain($0.town), suburb: plain($0.suburb), county: plain($0.county),
                                             state: plain($0.state), country: plain($0.country)) }
        return Place(id: id, name: name, displayName: plain(displayName) ?? name, coordinate: coordinate,
                     countryCode: plain(countryCode), admin1: plain(admin1), population: max(0, population ?? 0), category: plain(category),
                     address: address.flatMap { $0.isEmpty ? nil : $0 }, source: plain(source), boundingBox: boundingBox)
    }
}
