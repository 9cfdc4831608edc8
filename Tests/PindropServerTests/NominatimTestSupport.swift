import Foundation
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropTesting
import Synchronization
import Testing

/// Liechtenstein as Nominatim's test data has it (`liechtenstein.osm.pbf`) and as the compatible APIs' scenarios
/// expect it: the country and a municipality as boundaries with their names and tags, a house that belongs to a
/// village without a street (`addr:place`), and a street.
enum Liechtenstein {
    static let country: Place = {
        var place = Place(id: "osm:relation/1155955", name: "Liechtenstein", displayName: "Liechtenstein",
                          coordinate: Coordinate(latitude: 47.1416307, longitude: 9.5531527), countryCode: "LI", category: "country",
                          boundingBox: BoundingBox(south: 47.0484291, west: 9.4716736, north: 47.270581, east: 9.6357143), kind: .area)
        place.tags = ["name:zh": "列支敦士登", "name:fo": "Liktinstein", "name:de": "Liechtenstein", "name:fr": "Liechtenstein",
                      "ISO3166-1": "LI", "wikidata": "Q347"]
        return place
    }()

    static let triesenberg: Place = {
        var place = Place(id: "osm:relation/1155948", name: "Triesenberg", displayName: "Triesenberg, Oberland, 9497",
                          coordinate: Coordinate(latitude: 47.1186181, longitude: 9.5433663), countryCode: "LI", category: "city",
                          address: Address(postcode: "9497", county: "Oberland", country: "Liechtenstein"),
                          boundingBox: BoundingBox(south: 47.0781382, west: 9.5304765, north: 47.1665343, east: 9.6357143), kind: .area)
        place.tags = ["admin_level": "8", "linked_place": "town", "population": "2634", "website": "https://www.triesenberg.li/",
                      "wikidata": "Q49651", "wikipedia": "de:Triesenberg", "name:de": "Triesenberg"]
        return place
    }()

    static let silum6 = Place(id: "osm:node/3000000006", name: "6", displayName: "6 Silum, 9497 Triesenberg",
                              coordinate: Coordinate(latitude: 47.1270, longitude: 9.5545), countryCode: "LI",
                              address: Address(houseNumber: "6", postcode: "9497", town: "Triesenberg", county: "Oberland",
                                               place: "Silum", townKind: "town", placeKind: "village"),
                              kind: .address)

    static let gnetsch = Place(id: "osm:way/3000000007", name: "Gnetsch", displayName: "Gnetsch, 9496 Balzers",
                               coordinate: Coordinate(latitude: 47.0662, longitude: 9.5027), countryCode: "LI", category: "residential",
                               address: Address(postcode: "9496", town: "Balzers", suburb: "Mäls", county: "Oberland",
                                                neighbourhood: "Gnetsch-Nord", townKind: "town"),
                               kind: .street)

    static let all = [country, triesenberg, silum6, gnetsch]
}

/// A store that answers as `FakeStore` and records what it was asked, with outlines for some of its places (the
/// seam the engine fills with its area rings).
final class RecordingStore: PlaceStore {
    let inner: FakeStore
    let outlines: [String: PlaceGeometry]
    private let asked = Mutex<(searches: [SearchRequest], suggestions: [SuggestRequest], reverses: [ReverseRequest], lookups: [[String]])>(
        ([], [], [], []))

    init(places: [Place], outlines: [String: PlaceGeometry] = [:]) {
        inner = FakeStore(places: places)
        self.outlines = outlines
    }

    var searches: [SearchRequest] { asked.withLock { $0.searches } }
    var suggestions: [SuggestRequest] { asked.withLock { $0.suggestions } }
    var reverses: [ReverseRequest] { asked.withLock { $0.reverses } }
    /// The languages of each lookup, in order.
    var lookups: [[String]] { asked.withLock { $0.lookups } }

    var attribution: [String] { inner.attribution }
    var streetAttribution: [String] { inner.streetAttribution }

    func search(_ request: SearchRequest) async throws -> [PlaceResult] {
        asked.withLock { $0.searches.append(request) }
        return try await inner.search(request)
    }

    func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] {
        asked.withLock { $0.suggestions.append(request) }
        return try await inner.suggest(request)
    }

    func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] {
        asked.withLock { $0.reverses.append(request) }
        return try await inner.reverse(request)
    }

    func place(id: String) async throws -> Place? { try await inner.place(id: id) }

    func place(id: String, languages: [String]) async throws -> Place? {
        asked.withLock { $0.lookups.append(languages) }
        return try await inner.place(id: id)
    }

    func nearbyPage(_ request: NearbyRequest) async throws -> NearbyPage { try await inner.nearbyPage(request) }
    func status() async throws -> StoreStatus {
        StoreStatus(name: "recording", placeCount: 4, location: "memory", attribution: [],
                    dataUpdated: Date(timeIntervalSince1970: 1_795_000_000))
    }
    func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) async throws -> [MapFeature] { [] }
    func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) async throws -> [MapLabel] { [] }
    func geometry(id: String) async throws -> PlaceGeometry? { outlines[id] }
}

extension TestClientProtocol {
    /// A GET with headers.
    func get(_ uri: String, headers: HTTPFields) async throws -> TestResponse {
        try await executeRequest(uri: uri, method: .get, headers: headers, body: nil)
    }

    /// A GET that must answer 200 with a JSON array (Nominatim's json and jsonv2 lists).
    func nominatimList(_ uri: String, headers: HTTPFields = [:]) async throws -> [[String: Any]] {
        let response = try await get(uri, headers: headers)
        #expect(response.status == .ok, "\(uri): \(String(buffer: response.body))")
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]], "\(uri)")
    }
}
