import AsyncHTTPClient
import Foundation
import PindropCore

/// Photon (komoot's OpenStreetMap geocoder): `/api` for search and search-as-you-type, `/reverse` for
/// points, both answering a GeoJSON FeatureCollection.
public struct PhotonClient: RemoteProvider, PlaceSearching, Autocompleting, ReverseGeocoding {
    /// Who it is; the default endpoint is komoot's public instance.
    public static let profile = RemoteProviderProfile(
        name: "photon", displayName: "OpenStreetMap Photon", shortName: "Photon", defaultBaseURL: "https://photon.komoot.io",
        attribution: "Data © OpenStreetMap contributors, ODbL 1.0 (openstreetmap.org/copyright); geocoding by Photon (komoot)")
    /// Photon's own cap on results.
    public static let maxLimit = 50

    /// Where and how to reach it.
    public var configuration: ProviderConfiguration { http.configuration }
    /// Answer language (`lang`: "en", "de", "fr"...); nil lets Photon choose the local names.
    public let language: String?
    /// Restrict results to this box (`bbox`), for a deployment that covers one region; nil searches everywhere.
    public let boundingBox: BoundingBox?
    private let http: ProviderHTTP

    /// Makes a client.
    public init(configuration: ProviderConfiguration, language: String? = nil, boundingBox: BoundingBox? = nil,
                httpClient: HTTPClient? = nil) {
        self.language = language
        self.boundingBox = boundingBox
        self.http = ProviderHTTP(for: Self.self, configuration: configuration, httpClient: httpClient)
    }

    /// `GET /api?q=…&limit=…[&lat=…&lon=…][&lang=…][&bbox=…]`. A country filter is applied to the answer
    /// (Photon has no such parameter), so fewer than `limit` may come back.
    public func search(_ request: SearchRequest) async throws -> [PlaceResult] {
        try await find(text: request.text, near: request.near, countryCode: request.countryCode, limit: request.limit)
    }

    /// The same query as `search`: Photon is built for search as you type and matches the last word as a prefix.
    public func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] {
        if request.isBelowMinimum { return [] }
        return try await find(text: request.text.trimmingCharacters(in: .whitespaces), near: request.near,
                              countryCode: request.countryCode, limit: request.limit)
    }

    /// `GET /reverse?lat=…&lon=…&limit=…`: the nearest addresses or places.
    public func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] {
        let c = request.coordinate
        let features = try await get("/reverse", query: [("lat", String(c.latitude)), ("lon", String(c.longitude)),
                                                         ("limit", String(min(request.limit, Self.maxLimit))), ("lang", language)])
        return features.compactMap(\.place).map { PlaceResult.measured($0, from: c) }
    }

    private func find(text: String, near: Coordinate?, countryCode: String?, limit: Int) async throws -> [PlaceResult] {
        let bbox = boundingBox.map { "\($0.west),\($0.south),\($0.east),\($0.north)" }
        let features = try await get("/api", query: [
            ("q", text), ("limit", String(min(limit, Self.maxLimit))),
            ("lat", near.map { String($0.latitude) }), ("lon", near.map { String($0.longitude) }),
            ("lang", language), ("bbox", bbox),
        ])
        return features.compactMap(\.place)
            .filter { countryCode == nil || $0.countryCode == countryCode }
            .map { PlaceResult.measured($0, from: near) }
    }

    /// The features of a GeoJSON answer.
    private func get(_ path: String, query: [(String, String?)]) async throws -> [PhotonFeature] {
        try await http.getJSON(GeoJSONFeatureCollection<PhotonFeature>.self, path: path, query: query).features
    }
}

/// One Photon feature: a point; `properties` hold the OSM tags and address.
struct PhotonFeature: Decodable {
    struct Properties: Decodable {
        var osm_type: String?
        var osm_id: FlexibleID?
        var osm_key, osm_value: String?
        var name, housenumber, street, postcode, city, state, country, countrycode: String?
    }

    var geometry: GeoJSONPoint
    var properties: Properties

    /// The Pindrop place, or nil when the geometry is not a point on the globe.
    var place: Place? {
        guard let coordinate = geometry.coordinate else { return nil }
        let p = properties
        let kind = ["N": "node", "W": "way", "R": "relation"][p.osm_type ?? ""] ?? p.osm_type?.lowercased() ?? "place"
        let id = PlaceID.provider(name: PhotonClient.providerName, id: "\(kind)/\(p.osm_id?.value ?? "\(coordinate.latitude),\(coordinate.longitude)")").description
        let streetLine = [p.street, p.housenumber].compactMap { $0 }.joined(separator: " ").nonBlank
        let name = p.name?.nonBlank ?? streetLine ?? p.city ?? p.country ?? "Unnamed place"
        let townLine = [p.postcode, p.city].compactMap { $0 }.joined(separator: " ").nonBlank
        var context: [String] = [name]
        let state = p.state == p.city ? nil : p.state
        for part in [streetLine, townLine, state, p.country].compactMap({ $0 }) where !context.contains(part) {
            context.append(part)
        }
        let address = Address(houseNumber: p.housenumber, street: p.street, postcode: p.postcode, town: p.city)
        let isSettlement = p.osm_key == "place" || p.osm_key == "boundary"
        return Place(id: id, name: name, displayName: context.joined(separator: ", "), coordinate: coordinate,
                     countryCode: p.countrycode?.uppercased(), admin1: p.state,
                     category: isSettlement ? nil : p.osm_value, address: address.isEmpty ? nil : address,
                     source: PhotonClient.providerName)
    }
}

