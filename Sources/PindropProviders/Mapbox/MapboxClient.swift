import AsyncHTTPClient
import Foundation
import PindropCore

/// Mapbox Geocoding v6: `/search/geocode/v6/forward` (search with `autocomplete=false`, suggestions with
/// `autocomplete=true`; `proximity` bias; at most 10 results) and `/search/geocode/v6/reverse`. The access
/// token goes in the `access_token` parameter and never into a message.
public struct MapboxClient: KeyedProvider, PlaceSearching, Autocompleting, ReverseGeocoding {
    /// The environment variable holding the access token.
    public static let keyVariable = "PINDROP_MAPBOX_API_KEY"
    /// Mapbox calls its key an access token.
    public static let keyName = "access token"
    /// Who it is, and its public endpoint.
    public static let profile = RemoteProviderProfile(name: "mapbox", displayName: "Mapbox", defaultBaseURL: "https://api.mapbox.com",
                                                      attribution: "© Mapbox, © OpenStreetMap contributors")
    /// Mapbox's cap on forward results.
    public static let maxLimit = 10

    /// Where and how to reach it; `apiKey` (the access token) is required.
    public var configuration: ProviderConfiguration { http.configuration }
    private let http: ProviderHTTP

    /// Makes a client; throws `.invalidInput` without an access token.
    public init(configuration: ProviderConfiguration, httpClient: HTTPClient? = nil) throws(PindropError) {
        self.http = try ProviderHTTP(keyed: Self.self, configuration: configuration, httpClient: httpClient)
    }

    /// `GET /search/geocode/v6/forward?q=…&autocomplete=false&limit=…[&proximity=lon,lat][&country=…]`.
    public func search(_ request: SearchRequest) async throws -> [PlaceResult] {
        try await forward(request.text, autocomplete: false, near: request.near, countryCode: request.countryCode, limit: request.limit)
    }

    /// As `search` with `autocomplete=true`: the last word matches as a prefix.
    public func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] {
        if request.isBelowMinimum { return [] }
        return try await forward(request.text.trimmingCharacters(in: .whitespaces), autocomplete: true,
                                 near: request.near, countryCode: request.countryCode, limit: request.limit)
    }

    /// `GET /search/geocode/v6/reverse?longitude=…&latitude=…`: one feature per level (address, street,
    /// postcode, place, region, country), most precise first.
    public func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] {
        let c = request.coordinate
        let features = try await get("/search/geocode/v6/reverse", query: [("longitude", String(c.longitude)),
                                                                           ("latitude", String(c.latitude))])
        return features.compactMap(\.place).prefix(request.limit).map { PlaceResult.measured($0, from: c) }
    }

    private func forward(_ text: String, autocomplete: Bool, near: Coordinate?, countryCode: String?, limit: Int) async throws -> [PlaceResult] {
        let features = try await get("/search/geocode/v6/forward", query: [
            ("q", text), ("autocomplete", autocomplete ? "true" : "false"), ("limit", String(min(limit, Self.maxLimit))),
            ("proximity", near.map { "\($0.longitude),\($0.latitude)" }), ("country", countryCode?.lowercased()),
        ])
        return features.compactMap(\.place).map { PlaceResult.measured($0, from: near) }
    }

    /// The features of a GeoJSON answer, the token sent as `access_token`.
    private func get(_ path: String, query: [(String, String?)]) async throws -> [MapboxFeature] {
        try await http.getJSON(GeoJSONFeatureCollection<MapboxFeature>.self, path: path,
                               query: query + [("access_token", configuration.apiKey?.value)]).features
    }
}

/// One v6 feature: a point; the address parts are in `properties.context`.
struct MapboxFeature: Decodable {
    struct Named: Decodable { var name: String? }
    struct AddressContext: Decodable { var address_number, street_name: String? }
    struct CountryContext: Decodable { var name, country_code: String? }
    struct Context: Decodable {
        var address: AddressContext?
        var street, postcode, place, locality, region: Named?
        var country: CountryContext?
    }
    struct Properties: Decodable {
        var mapbox_id, name, full_address, place_formatted: String?
        var context: Context?
    }

    var id: String?
    var geometry: GeoJSONPoint
    var properties: Properties

    /// The Pindrop place, or nil when the geometry is not a point on the globe.
    var place: Place? {
        guard let coordinate = geometry.coordinate else { return nil }
        let p = properties, context = p.context
        let name = p.name?.nonBlank ?? p.full_address ?? "Unnamed place"
        let display = p.full_address ?? [name, p.place_formatted].compactMap { $0 }.joined(separator: ", ")
        let address = Address(houseNumber: context?.address?.address_number,
                              street: context?.address?.street_name ?? context?.street?.name,
                              postcode: context?.postcode?.name,
                              town: context?.place?.name ?? context?.locality?.name)
        return Place(id: PlaceID.provider(name: MapboxClient.providerName, id: p.mapbox_id ?? id ?? "\(coordinate.latitude),\(coordinate.longitude)").description,
                     name: name, displayName: display, coordinate: coordinate,
                     countryCode: context?.country?.country_code?.uppercased(), admin1: context?.region?.name,
                     address: address.isEmpty ? nil : address, source: MapboxClient.providerName)
    }
}

