import PindropCore
import PindropTesting
import Testing

/// A store that names places in the reader's language where their tags say, and keeps one outline.
struct NamingStore: PlaceStore {
    let inner = FakeStore(places: [Self.vaduz] + SamplePlaces.all)
    static let outline = PlaceGeometry.polygon([[Coordinate(latitude: 47.1, longitude: 9.5), Coordinate(latitude: 47.1, longitude: 9.6),
                                                 Coordinate(latitude: 47.2, longitude: 9.6), Coordinate(latitude: 47.1, longitude: 9.5)]])
    static let vaduz: Place = {
        var place = Place(id: "osm:relation/1155956", name: "Vaduz", displayName: "Vaduz", coordinate: Coordinate(latitude: 47.14, longitude: 9.52),
                          countryCode: "LI", category: "city", boundingBox: BoundingBox(south: 47.09, west: 9.5, north: 47.18, east: 9.63),
                          kind: .area)
        place.tags = ["name:ru": "Вадуц"]
        return place
    }()

    var attribution: [String] { [] }
    var streetAttribution: [String] { [] }
    func search(_ request: SearchRequest) async throws -> [PlaceResult] { try await inner.search(request) }
    func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] { try await inner.suggest(request) }
    func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] { try await inner.reverse(request) }
    func nearbyPage(_ request: NearbyRequest) async throws -> NearbyPage { try await inner.nearbyPage(request) }
    func place(id: String) async throws -> Place? { try await inner.place(id: id) }
    func place(id: String, languages: [String]) async throws -> Place? {
        guard var place = try await inner.place(id: id) else { return nil }
        place.name = place.name(for: languages)
        return place
    }
    func status() async throws -> StoreStatus { try await inner.status() }
    func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) async throws -> [MapFeature] { [] }
    func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) async throws -> [MapLabel] { [] }
    func geometry(id: String) async throws -> PlaceGeometry? { id == Self.vaduz.id ? Self.outline : nil }
}

@Suite("The facade's languages and shapes")
struct PlaceServiceSeamTests {
    @Test("lookup asks the store in the reader's languages; without them, as before")
    func lookupLanguages() async throws {
        let service = try PlaceService(store: NamingStore())
        #expect(try await service.lookup(id: NamingStore.vaduz.id, languages: ["xx", "ru"]).name == "Вадуц")
        #expect(try await service.lookup(id: NamingStore.vaduz.id).name == "Vaduz")
        await #expect(throws: PindropError.self) { try await service.lookup(id: "osm:node/1", languages: ["ru"]) }
    }

    @Test("a place's shape: the store's outline where it keeps one, else its box for an area, else its point")
    func geometry() async throws {
        let service = try PlaceService(store: NamingStore())
        #expect(await service.geometry(of: NamingStore.vaduz) == NamingStore.outline)
        #expect(await service.geometry(of: SamplePlaces.helsinki) == .point(SamplePlaces.helsinki.coordinate))
        var area = Place(id: "osm:relation/2", name: "Vaduz", displayName: "Vaduz", coordinate: NamingStore.vaduz.coordinate,
                         boundingBox: NamingStore.vaduz.boundingBox, kind: .area)
        area.tags = NamingStore.vaduz.tags
        guard case .polygon(let rings) = await service.geometry(of: area) else { Issue.record("an area is its box"); return }
        #expect(rings == [[Coordinate(latitude: 47.09, longitude: 9.5), Coordinate(latitude: 47.09, longitude: 9.63),
                           Coordinate(latitude: 47.18, longitude: 9.63), Coordinate(latitude: 47.18, longitude: 9.5),
                           Coordinate(latitude: 47.09, longitude: 9.5)]])
    }
}
