import AsyncHTTPClient
import Foundation
import PindropCore

/// OpenStreetMap Nominatim: `/search` and `/reverse` in `format=jsonv2` with `addressdetails=1`.
/// Sends an identifying User-Agent, and keeps to one request per second against the public instance
/// (its usage policy); its answers are cached by the registry. Nominatim's policy forbids
/// search-as-you-type against the public instance, so it does not suggest.
public struct NominatimClient: RemoteProvider, PlaceSearching, ReverseGeocoding {
    /// Who it is; the default endpoint is the public instance.
    public static let profile = RemoteProviderProfile(
        name: "nominatim", displayName: "OpenStreetMap Nominatim", shortName: "Nominatim",
        defaultBaseURL: "https://nominatim.openstreetmap.org",
        attribution: "Data © OpenStreetMap contributors, ODbL 1.0 (openstreetmap.org/copyright); geocoding by Nominatim")
    /// Nominatim answers at most this many results per search.
    public static let maxLimit = 40

    /// Where and how to reach it.
    public var configuration: ProviderConfiguration { http.configuration }
    private let http: ProviderHTTP
    private let pacer: RequestPacer

    /// Makes a client. `minimumInterval` defaults to 1 s for the public instance and none elsewhere.
    public init(configuration: ProviderConfiguration, minimumInterval: Duration? = nil, httpClient: HTTPClient? = nil) {
        self.http = ProviderHTTP(for: Self.self, configuration: configuration, httpClient: httpClient)
        let isPublic = configuration.host == "nominatim.openstreetmap.org"
        self.pacer = RequestPacer(interval: minimumInterval ?? (isPublic ? .seconds(1) : .zero))
    }

    /// `GET /search?q=…&format=jsonv2&addressdetails=1&limit=…[&countrycodes=…][&viewbox=…]`; a `near`
    /// point biases results to a box of about ±50 km around it (not a filter).
    public func search(_ request: SearchRequest) async throws -> [PlaceResult] {
        var query: [(String, String?)] = [("q", request.text), ("format", "jsonv2"), ("addressdetails", "1"),
                                          ("limit", String(min(request.limit, Self.maxLimit))),
                                          ("countrycodes", request.countryCode?.lowercased())]
        if let near = request.near {
            let d = 0.5
            query.append(("viewbox", "\(near.longitude - d),\(near.latitude + d),\(near.longitude + d),\(near.latitude - d)"))
        }
        let answer = try await get("/search", query: query)
        let places = try http.decode([NominatimPlace].self, from: answer.body)
        return places.compactMap(\.place).map { PlaceResult.measured($0, from: request.near) }
    }

    /// `GET /reverse?lat=…&lon=…&format=jsonv2&addressdetails=1`: the one nearest address, or none where
    /// Nominatim "is unable to geocode" (open sea).
    public func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] {
        let c = request.coordinate
        let answer = try await get("/reverse", query: [("lat", String(c.latitude)), ("lon", String(c.longitude)),
                                                       ("format", "jsonv2"), ("addressdetails", "1")])
        if let error = (try? JSONDecoder().decode(NominatimErrorBody.self, from: answer.body))?.message {
            if error.localizedCaseInsensitiveContains("unable to geocode") { return [] }
            throw http.upstream("could not reverse-geocode (it answered with an error instead of an address)")
        }
        let place = try http.decode(NominatimPlace.self, from: answer.body)
        return place.place.map { [PlaceResult.measured($0, from: c)] } ?? []
    }

    /// One paced request; any status but 200 becomes an error.
    private func get(_ path: String, query: [(String, String?)]) async throws -> ProviderHTTP.Answer {
        try await pacer.waitForTurn(provider: http.provider, maxWait: configuration.timeout)
        let answer = try await http.get(path, query: query)
        try http.requireOK(answer)
        return answer
    }
}

/// One place in Nominatim's jsonv2 output.
struct NominatimPlace: Decodable {
    var osm_type: String?
    var osm_id: FlexibleID?
    var place_id: FlexibleID?
    var lat: FlexibleNumber
    var lon: FlexibleNumber
    var name: String?
    var display_name: String
    /// The main OSM key ("amenity", "place"); `class` in the older json format.
    var category: String?
    /// The main OSM value ("cafe", "city").
    var type: String?
    var address: [String: String]?

    /// The Pindrop place, or nil when the coordinate is off the globe.
    var place: Place? {
        guard let coordinate = try? Coordinate(validatingLatitude: lat.value, longitude: lon.value) else { return nil }
        let id = if let osm_type, let osm_id { "\(osm_type)/\(osm_id.value)" } else { "place/\(place_id?.value ?? display_name)" }
        let parts = address ?? [:]
        let street = ["road", "pedestrian", "footway", "path", "square", "place"].lazy.compactMap { parts[$0] }.first
        let town = ["city", "town", "village", "hamlet", "municipality"].lazy.compactMap { parts[$0] }.first
        let postal = Address(houseNumber: parts["house_number"], street: street, postcode: parts["postcode"], town: town)
        let isSettlement = category == "place" || category == "boundary"
        return Place(id: PlaceID.provider(name: NominatimClient.providerName, id: "\(id)").description,
                     name: name?.nonBlank ?? street.map { "\($0) \(parts["house_number"] ?? "")".trimmingCharacters(in: .whitespaces) }
                        ?? String(display_name.split(separator: ",").first ?? Substring(display_name)),
                     displayName: display_name, coordinate: coordinate,
                     countryCode: parts["country_code"]?.uppercased(), admin1: parts["state"],
                     category: isSettlement ? nil : type, address: postal.isEmpty ? nil : postal,
                     source: NominatimClient.providerName)
    }
}

/// Nominatim's error bodies: `{"error": {"code": 400, "message": "…"}}` or `{"error": "Unable to geocode"}`.
struct NominatimErrorBody: Decodable {
    var message: String?

    private enum CodingKeys: String, CodingKey { case error }
    private struct Detail: Decodable { var message: String? }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let text = try? c.decode(String.self, forKey: .error) {
            message = text
        } else {
            message = try c.decode(Detail.self, forKey: .error).message
        }
    }
}
