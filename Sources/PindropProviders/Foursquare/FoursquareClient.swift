import AsyncHTTPClient
import Foundation
import PindropCore

/// Foursquare Places search for venues around a point: `GET /places/search?ll=…&radius=…&limit=…`
/// (radius at most 100 km, limit at most 50), the key in the `Authorization` header.
///
/// Two generations of the API are spoken, chosen by the base URL: the current Places API
/// (`https://places-api.foursquare.com`: `Authorization: Bearer KEY`, `X-Places-Api-Version`, results with
/// `fsq_place_id` and `latitude`/`longitude`) and the v3 API (`https://api.foursquare.com/v3`:
/// `Authorization: KEY`, results with `fsq_id` and `geocodes.main`). Either response form is read.
public struct FoursquareClient: KeyedProvider, NearbySearching {
    /// The environment variable holding the key.
    public static let keyVariable = "PINDROP_FOURSQUARE_API_KEY"
    /// Who it is; the default endpoint is the current Places API.
    public static let profile = RemoteProviderProfile(name: "foursquare", displayName: "Foursquare",
                                                      defaultBaseURL: "https://places-api.foursquare.com",
                                                      attribution: "Venue data © Foursquare")
    /// The Places API version sent with the current API.
    public static let apiVersion = "2025-06-17"
    /// Foursquare's cap on the search radius.
    public static let maxRadiusMeters = 100_000.0
    /// Foursquare's cap on results.
    public static let maxLimit = 50

    /// Where and how to reach it; `apiKey` is required.
    public var configuration: ProviderConfiguration { http.configuration }
    private let http: ProviderHTTP

    /// Makes a client; throws `.invalidInput` without a key.
    public init(configuration: ProviderConfiguration, httpClient: HTTPClient? = nil) throws(PindropError) {
        self.http = try ProviderHTTP(keyed: Self.self, configuration: configuration, httpClient: httpClient)
    }

    /// Whether the base URL is the v3 API (`…/v3`), which takes the bare key.
    var isVersion3: Bool { configuration.baseURL.hasSuffix("/v3") }

    /// `GET /places/search?ll=…&radius=…&limit=…&sort=DISTANCE`, with `categories=` for a category given as
    /// Foursquare ids ("13032" or "4bf58dd8d48988d1e0931735", comma-separated) and `query=` for a word ("cafe").
    public func nearby(_ request: NearbyRequest) async throws -> [PlaceResult] {
        let c = request.coordinate
        let category = request.category
        let isIDList = category.map(Self.isCategoryIDList) ?? false
        let query: [(String, String?)] = [
            ("ll", "\(c.latitude),\(c.longitude)"),
            ("radius", String(Int(min(request.radiusMeters, Self.maxRadiusMeters).rounded()))),
            ("limit", String(min(request.limit, Self.maxLimit))), ("sort", "DISTANCE"),
            ("categories", isIDList ? category : nil), ("query", isIDList ? nil : category),
        ]
        let key = configuration.apiKey?.value ?? ""
        let headers = isVersion3 ? [("Authorization", key)]
                                 : [("Authorization", "Bearer \(key)"), ("X-Places-Api-Version", Self.apiVersion)]
        let venues = try await http.getJSON(FoursquareSearchResponse.self, path: "/places/search", query: query, headers: headers).results
        return venues.compactMap { venue in
            venue.place.map { PlaceResult(place: $0, distanceMeters: venue.distance ?? $0.coordinate.distance(to: c)) }
        }
    }
}

extension FoursquareClient {
    /// Whether `text` is a comma-separated list of Foursquare category ids: numeric (v3, "13032") or 24
    /// hexadecimal digits (current API, "4bf58dd8d48988d1e0931735").
    static func isCategoryIDList(_ text: String) -> Bool {
        let ids = text.split(separator: ",", omittingEmptySubsequences: false)
        return ids.allSatisfy { id in
            (!id.isEmpty && id.allSatisfy(\.isNumber) && id.allSatisfy(\.isASCII))
                || (id.count == 24 && id.allSatisfy(\.isHexDigit))
        }
    }
}

/// `{"results": [...]}`.
struct FoursquareSearchResponse: Decodable {
    var results: [FoursquareVenue]
}

/// A venue in either response form: `fsq_id` + `geocodes.main` (v3) or `fsq_place_id` + `latitude`/`longitude`.
struct FoursquareVenue: Decodable {
    struct Point: Decodable { var latitude: Double; var longitude: Double }
    struct Geocodes: Decodable { var main: Point? }
    struct Category: Decodable { var name: String? }
    struct Location: Decodable { var address, locality, postcode, region, country, formatted_address: String? }

    var fsq_id, fsq_place_id: String?
    var name: String
    var latitude, longitude, distance: Double?
    var geocodes: Geocodes?
    var location: Location?
    var categories: [Category]?

    /// The Pindrop place, or nil without an id or a location on the globe.
    var place: Place? {
        guard let id = fsq_place_id ?? fsq_id,
              let latitude = latitude ?? geocodes?.main?.latitude, let longitude = longitude ?? geocodes?.main?.longitude,
              let coordinate = try? Coordinate(validatingLatitude: latitude, longitude: longitude) else { return nil }
        let l = location
        let (houseNumber, street) = Self.split(streetLine: l?.address)
        let address = Address(houseNumber: houseNumber, street: street, postcode: l?.postcode, town: l?.locality)
        let context = l?.formatted_address ?? [l?.address, l?.locality].compactMap { $0 }.joined(separator: ", ")
        let display = [name, context].compactMap(\.nonBlank).joined(separator: ", ")
        return Place(id: PlaceID.provider(name: FoursquareClient.providerName, id: "\(id)").description, name: name, displayName: display, coordinate: coordinate,
                     countryCode: l?.country?.uppercased(), admin1: l?.region,
                     category: categories?.first?.name?.lowercased(), address: address.isEmpty ? nil : address,
                     source: FoursquareClient.providerName)
    }

    /// "1 Main St" → ("1", "Main St"); "Main St 1" → ("1", "Main St"); otherwise the whole line is the street.
    static func split(streetLine: String?) -> (String?, String?) {
        guard let line = streetLine?.nonBlank else { return (nil, nil) }
        let words = line.split(separator: " ")
        guard words.count > 1 else { return (nil, line) }
        if let first = words.first, first.first?.isNumber == true {
            return (String(first), words.dropFirst().joined(separator: " "))
        }
        if let last = words.last, last.first?.isNumber == true {
            return (String(last), words.dropLast().joined(separator: " "))
        }
        return (nil, line)
    }
}

