import AsyncHTTPClient
import Foundation
import PindropCore

/// Mapbox Geocoding v6: `/search/geocode/v6/forward` (search with `autocomplete=false`, suggestions with
/// `autocomplete=true`; `proximity` bias; at most 10 results) and `/search/geocode/v6/reverse`. The access
/// token goes in the `access_token` parameter and never into a message.
public struct MapboxClient: PlaceProvider, PlaceSearching, Autocompleting, ReverseGeocoding {
    /// The provider name.
    public static let providerName = "mapbox"
    /// The public endpoint.
    public static let defaultBaseURL = "https://api.mapbox.com"
    /// The environment variable holding the token.
    public static let keyVariable = "PINDROP_MAPBOX_API_KEY"
    /// Mapbox's cap on forward results.
    public static let maxLimit = 10

    public let name = MapboxClient.providerName
    public let displayName = "Mapbox"
    public let attribution = "© Mapbox, © OpenStreetMap contributors"
    public var cacheLifetime: Duration { configuration.cacheLifetime }

    /// Where and how to reach it; `apiKey` (the access token) is required.
    public let configuration: ProviderConfiguration
    private let http: ProviderHTTP

    /// Makes a client; throws `.invalidInput` without an access token.
    public init(configuration: ProviderConfiguration, httpClient: HTTPClient = .failingFast) throws(PindropError) {
        guard configuration.apiKey != nil else { throw .invalidInput("Mapbox needs an access token: set \(Self.keyVariable)") }
        self.configuration = configuration
        self.http = ProviderHTTP(provider: "Mapbox", configuration: configuration, httpClient: httpClient, keyVariable: Self.keyVariable)
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

    private func get(_ path: String, query: [(String, String?)]) async throws -> [MapboxFeature] {
        let answer = try await http.get(path, query: query + [("access_token", configuration.apiKey?.value)])
        try http.requireOK(answer, errorBody: MessageErrorBody.self)
        return try http.decode(MapboxFeatureCollection.self, from: answer.body).features
    }
}

/// Mapbox's answer: a GeoJSON FeatureCollection.
struct MapboxFeatureCollection: Decodable {
    var features: [MapboxFeature]
}

/// One v6 feature; the address parts are in `properties.context`.
struct MapboxFeature: Decodable {
    struct Geometry: Decodable { var coordinates: [Double] }
    struct Named: Decodable { var name: String? }
    struct AddressContext: Decodable { var address_number: String?; var street_name: String? }
    struct CountryContext: Decodable { var name: String?; var country_code: String? }
    struct Context: Decodable {
        var address: AddressContext?
        var street: Named?
        var postcode: Named?
        var place: Named?
        var locality: Named?
        var region: Named?
        var country: CountryContext?
    }
    struct Properties: Decodable {
        var mapbox_id: String?
        var feature_type: String?
        var name: String?
        var full_address: String?
        var place_formatted: String?
        var context: Context?
    }

    var id: String?
    var geometry: Geometry
    var properties: Properties

    /// The Pindrop place, or nil when the geometry is not a point on the globe.
    var place: Place? {
        guard geometry.coordinates.count >= 2,
              let coordinate = try? Coordinate(validatingLatitude: geometry.coordinates[1], longitude: geometry.coordinates[0])
        else { return nil }
        let p = properties, context = p.context
        let name = p.name?.nonBlank ?? p.full_address ?? "Unnamed place"
        let display = p.full_address ?? [name, p.place_formatted].compactMap { $0 }.joined(separator: ", ")
        let address = Address(houseNumber: context?.address?.address_number,
                              street: context?.address?.street_name ?? context?.street?.name,
                              postcode: context?.postcode?.name,
                              town: context?.place?.name ?? context?.locality?.name)
        return Place(id: "\(MapboxClient.providerName):\(p.mapbox_id ?? id ?? "\(coordinate.latitude),\(coordinate.longitude)")",
                     name: name, displayName: display, coordinate: coordinate,
                     countryCode: context?.country?.country_code?.uppercased(), admin1: context?.region?.name,
                     address: address.isEmpty ? nil : address, source: MapboxClient.providerName)
    }
}

