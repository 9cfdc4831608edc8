import AsyncHTTPClient
import Foundation
import PindropCore

/// Google Maps Platform: the Geocoding API (`/maps/api/geocode/json`, `address=` and `latlng=`) for search
/// and reverse, and Places Autocomplete (`/maps/api/place/autocomplete/json`) with Place Details
/// (`/maps/api/place/details/json`) for suggestions.
///
/// Autocomplete uses session tokens: one token for a whole typing session, ended by the selection —
/// `place(id:)` with a "google:…" id is the selection (it sends the token with the Details request, and
/// the next suggestion starts a new session). Autocomplete predictions carry no coordinates, so each
/// suggestion is completed with a Details request for its location, kept in `detailsCache` so that the
/// same prediction while typing on costs nothing more.
///
/// Statuses: OK; ZERO_RESULTS → no results; REQUEST_DENIED → a message about the key;
/// OVER_QUERY_LIMIT / OVER_DAILY_LIMIT → `.rateLimited`; INVALID_REQUEST → `.upstream`;
/// UNKNOWN_ERROR → asked once more, then `.upstream`.
public struct GoogleClient: KeyedProvider, PlaceSearching, Autocompleting, ReverseGeocoding, PlaceLookup {
    /// The environment variable holding the key, named in messages about a refused key.
    public static let keyVariable = "PINDROP_GOOGLE_API_KEY"
    /// Who it is, and its public endpoint.
    public static let profile = RemoteProviderProfile(name: "google", displayName: "Google", defaultBaseURL: "https://maps.googleapis.com",
                                                      attribution: "Powered by Google; map data © Google")
    /// The Place Details fields asked for (Basic data only: location, name, address).
    static let detailsFields = "place_id,name,formatted_address,geometry/location,address_components,types"

    /// Where and how to reach it; `apiKey` is required.
    public var configuration: ProviderConfiguration { http.configuration }
    /// Places completed by Details requests, by place id.
    public let detailsCache: ResponseCache
    private let http: ProviderHTTP
    private let session = AutocompleteSession()

    /// Makes a client; throws `.invalidInput` without an API key.
    public init(configuration: ProviderConfiguration, detailsCache: ResponseCache = ResponseCache(capacity: 1_000),
                httpClient: HTTPClient? = nil) throws(PindropError) {
        self.detailsCache = detailsCache
        self.http = try ProviderHTTP(keyed: Self.self, configuration: configuration, httpClient: httpClient)
    }

    /// The current autocomplete session token, nil between sessions (for tests and diagnostics).
    public var currentSessionToken: String? { session.current }

    /// `GET /maps/api/geocode/json?address=…[&components=country:XX][&bounds=…]`; `near` biases to a box of
    /// about ±50 km around it.
    public func search(_ request: SearchRequest) async throws -> [PlaceResult] {
        var query: [(String, String?)] = [("address", request.text),
                                          ("components", request.countryCode.map { "country:\($0)" })]
        if let near = request.near {
            let d = 0.5
            query.append(("bounds", "\(near.latitude - d),\(near.longitude - d)|\(near.latitude + d),\(near.longitude + d)"))
        }
        let body = try await call("/maps/api/geocode/json", query: query, as: GoogleGeocodeResponse.self)
        return (body.results ?? []).prefix(request.limit).compactMap(\.place).map { PlaceResult.measured($0, from: request.near) }
    }

    /// `GET /maps/api/geocode/json?latlng=…`: addresses around the point, most precise first.
    public func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] {
        let c = request.coordinate
        let body = try await call("/maps/api/geocode/json", query: [("latlng", "\(c.latitude),\(c.longitude)")],
                                  as: GoogleGeocodeResponse.self)
        return (body.results ?? []).prefix(request.limit).compactMap(\.place).map { PlaceResult.measured($0, from: c) }
    }

    /// `GET /maps/api/place/autocomplete/json?input=…&sessiontoken=…[&location=…&radius=…][&components=…]`,
    /// each prediction completed with its location (from `detailsCache` or a Details request).
    public func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] {
        if request.isBelowMinimum { return [] }
        let body = try await call("/maps/api/place/autocomplete/json", query: [
            ("input", request.text), ("sessiontoken", session.currentOrNew()),
            ("location", request.near.map { "\($0.latitude),\($0.longitude)" }), ("radius", request.near.map { _ in "50000" }),
            ("components", request.countryCode.map { "country:\($0.lowercased())" }),
        ], as: GoogleAutocompleteResponse.self)
        let predictions = Array((body.predictions ?? []).prefix(request.limit))
        let places = try await withThrowingTaskGroup(of: (Int, Place?).self) { group in
            for (index, prediction) in predictions.enumerated() {
                group.addTask { (index, try await self.completed(prediction)) }
            }
            var places = [Place?](repeating: nil, count: predictions.count)
            for try await (index, place) in group { places[index] = place }
            return places
        }
        return places.compactMap { $0 }.map { PlaceResult.measured($0, from: request.near) }
    }

    /// The selection of a suggestion: Place Details for "google:<place_id>" with the session's token,
    /// which ends the typing session. Nil for other ids or an unknown place.
    public func place(id: String) async throws -> Place? {
        guard case .provider(Self.providerName, let placeID)? = PlaceID(id) else { return nil }
        return try await details(placeID: placeID, sessionToken: session.end())
    }

    /// A prediction with the location and address of its place.
    private func completed(_ prediction: GooglePrediction) async throws -> Place? {
        let key = ResponseCache.Key(provider: Self.providerName, request: "details|\(prediction.place_id)")
        if let cached = detailsCache.results(for: key)?.first?.place { return cached }
        guard var place = try await details(placeID: prediction.place_id, sessionToken: nil) else { return nil }
        place.name = prediction.structured_formatting?.main_text ?? place.name
        place.displayName = prediction.description
        detailsCache.store([PlaceResult(place: place)], for: key, lifetime: cacheLifetime)
        return place
    }

    /// `GET /maps/api/place/details/json?place_id=…&fields=…[&sessiontoken=…]`; nil when Google has no such place.
    private func details(placeID: String, sessionToken: String?) async throws -> Place? {
        let body = try await call("/maps/api/place/details/json", query: [
            ("place_id", placeID), ("fields", Self.detailsFields), ("sessiontoken", sessionToken),
        ], as: GooglePlaceDetailsResponse.self)
        return body.result?.place
    }

    /// One API call with the key, its status checked; UNKNOWN_ERROR is asked once more.
    private func call<Body: GoogleStatusBody>(_ path: String, query: [(String, String?)], as: Body.Type) async throws -> Body {
        let query = query + [("key", configuration.apiKey?.value)]
        var attempt = 1
        while true {
            let body = try await http.getJSON(Body.self, path: path, query: query)
            // Google's `error_message` is its text, not ours: only the status, from its documented list, is named.
            switch body.status {
            case "OK", "ZERO_RESULTS", "NOT_FOUND":
                return body
            case "REQUEST_DENIED":
                throw http.upstream("refused the API key (REQUEST_DENIED); check \(Self.keyVariable) and that the API is enabled for it")
            case "OVER_QUERY_LIMIT", "OVER_DAILY_LIMIT":
                throw http.rateLimited("the key's quota is used up (\(body.status))")
            case "INVALID_REQUEST":
                throw http.upstream("called the request invalid (INVALID_REQUEST)")
            case "UNKNOWN_ERROR" where attempt == 1:
                attempt += 1
            case "UNKNOWN_ERROR":
                throw http.upstream("answered status UNKNOWN_ERROR twice")
            default:
                throw http.upstream("answered a status that is not in its documentation")
            }
        }
    }
}

/// The autocomplete session token: created by the first suggestion of a typing session, ended by the
/// selection. Shared by copies of the client.
final class AutocompleteSession: @unchecked Sendable {
    private let lock = NSLock()
    private var token: String?

    /// The token in use, nil between sessions.
    var current: String? { lock.withLock { token } }

    /// The token in use, starting a session when there is none.
    func currentOrNew() -> String {
        lock.withLock {
            if let token { return token }
            let new = UUID().uuidString.lowercased()
            token = new
            return new
        }
    }

    /// Ends the session, returning its token (nil when none was open).
    func end() -> String? {
        lock.withLock {
            defer { token = nil }
            return token
        }
    }
}

/// What every Google web-service body has: `status` (its `error_message` is never read: see `call`).
protocol GoogleStatusBody: Decodable {
    var status: String { get }
}

/// `{"results": [...], "status": "OK"}` from the Geocoding API.
struct GoogleGeocodeResponse: GoogleStatusBody {
    var results: [GoogleResult]?
    var status: String
}

/// `{"predictions": [...], "status": "OK"}` from Places Autocomplete.
struct GoogleAutocompleteResponse: GoogleStatusBody {
    var predictions: [GooglePrediction]?
    var status: String
}

/// `{"result": {...}, "status": "OK"}` from Place Details.
struct GooglePlaceDetailsResponse: GoogleStatusBody {
    var result: GoogleResult?
    var status: String
}

/// An autocomplete prediction: text and a place id, no location.
struct GooglePrediction: Decodable, Sendable {
    struct Formatting: Decodable, Sendable { var main_text: String?; var secondary_text: String? }
    var description: String
    var place_id: String
    var structured_formatting: Formatting?
}

/// A geocoding result or a Place Details result (the same fields, Details adds `name`).
struct GoogleResult: Decodable {
    struct Component: Decodable { var long_name: String; var short_name: String; var types: [String] }
    struct Geometry: Decodable { var location: Location }
    struct Location: Decodable { var lat: Double; var lng: Double }

    var place_id: String
    var formatted_address: String?
    var name: String?
    var geometry: Geometry?
    var address_components: [Component]?
    var types: [String]?

    /// Types that say what kind of address a result is rather than what the place is.
    static let addressTypes: Set<String> = [
        "political", "street_address", "route", "premise", "subpremise", "postal_code", "country", "locality",
        "sublocality", "neighborhood", "plus_code", "geocode", "establishment", "point_of_interest", "intersection",
        "colloquial_area", "postal_town", "street_number", "floor", "room", "postal_code_suffix",
    ]

    /// The Pindrop place, or nil without a location on the globe.
    var place: Place? {
        guard let location = geometry?.location,
              let coordinate = try? Coordinate(validatingLatitude: location.lat, longitude: location.lng) else { return nil }
        let components = address_components ?? []
        func component(_ type: String) -> Component? { components.first { $0.types.contains(type) } }
        let address = Address(houseNumber: component("street_number")?.long_name, street: component("route")?.long_name,
                              postcode: component("postal_code")?.long_name,
                              town: (component("locality") ?? component("postal_town"))?.long_name)
        let formatted = formatted_address ?? name ?? place_id
        let category = (types ?? []).first { !Self.addressTypes.contains($0) && !$0.hasPrefix("administrative_area")
            && !$0.hasPrefix("sublocality") }
        return Place(id: PlaceID.provider(name: GoogleClient.providerName, id: "\(place_id)").description,
                     name: name?.nonBlank ?? String(formatted.split(separator: ",").first ?? Substring(formatted)),
                     displayName: formatted, coordinate: coordinate,
                     countryCode: component("country")?.short_name.uppercased(),
                     admin1: component("administrative_area_level_1")?.long_name,
                     category: category, address: address.isEmpty ? nil : address, source: GoogleClient.providerName)
    }
}
