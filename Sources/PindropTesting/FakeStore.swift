import PindropCore

/// An in-memory `PlaceStore` over a fixed list of places (and street-map features), for tests of anything
/// that sits on top of a store (the facade, the server, the web app). It keeps the list's order as the
/// "engine order", matches folded text simply (every query word is a prefix of a word in the display name),
/// and answers reverse and nearby by great-circle distance.
public final class FakeStore: PlaceStore {
    /// The places, in the order searches return them.
    public let places: [Place]
    /// The streets and buildings it hands out for the street basemap.
    public let mapFeatures: [MapFeature]
    private let foldedNames: [[Substring]]

    /// Makes a store answering from `places` and `mapFeatures`.
    public init(places: [Place], mapFeatures: [MapFeature] = []) {
        self.places = places
        self.mapFeatures = mapFeatures
        self.foldedNames = places.map { TextFolding.words(TextFolding.fold($0.displayName)) }
    }

    /// Credits of the test data.
    public let attribution = ["Test data"]

    /// Credits of the street data, when there is any.
    public var streetAttribution: [String] { mapFeatures.isEmpty ? [] : ["© OpenStreetMap contributors"] }

    /// The features with a point inside `box`, streets first, at most `limit`; with a `zoom`, those drawn at it
    /// (`MapDetail.isDrawn`) and from `MapDetail.poiZoom` the places with a category, as points.
    public func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) async throws -> [MapFeature] {
        let inside = mapFeatures.filter { feature in
            guard feature.lines.contains(where: { line in line.contains(where: box.contains) }) else { return false }
            guard let zoom, let extent = BoundingBox(covering: feature.lines.joined()) else { return true }
            return MapDetail.isDrawn(feature.kind, feature.category, box: extent, zoom: zoom)
        }
        let venues = (zoom ?? 0) < MapDetail.poiZoom ? [] : places.filter { $0.category != nil && box.contains($0.coordinate) }.map {
            MapFeature(kind: .poi, id: $0.id, name: $0.name, category: $0.category, lines: [[$0.coordinate]])
        }
        let ordered = inside.filter { $0.kind == .street } + inside.filter { $0.kind != .street } + venues
        return Array(ordered.prefix(max(0, limit)))
    }

    /// The places inside `box` by population, de-cluttered as the embedded index does it.
    public func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) async throws -> [MapLabel] {
        var placement = MapLabelPlacement(zoom: zoom, limit: limit)
        for place in places.filter({ box.contains($0.coordinate) }).sorted(by: { $0.population > $1.population }) {
            placement.offer(MapLabel(id: place.id, name: place.name, coordinate: place.coordinate, population: place.population))
        }
        return placement.placed
    }

    /// Places whose display name holds every query word as a word prefix, in list order.
    public func search(_ request: SearchRequest) async throws -> [PlaceResult] {
        matches(request.text, countryCode: request.countryCode, limit: request.limit)
    }

    /// As `search` (the facade applies the minimum length).
    public func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] {
        matches(request.text, countryCode: request.countryCode, limit: request.limit)
    }

    /// The nearest places to the point, nearest first.
    public func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] {
        Array(byDistance(from: request.coordinate).prefix(request.limit))
    }

    /// Places within the radius (and of the category, when given) in the nearby order, the page after
    /// `request.after`, and how many there are.
    public func nearbyPage(_ request: NearbyRequest) async throws -> NearbyPage {
        let inside = byDistance(from: request.coordinate).filter { result in
            (result.distanceMeters ?? .infinity) <= request.radiusMeters
                && (request.category == nil || result.place.category == request.category)
                && (!request.venuesOnly || result.place.category.map { !NearbyRequest.notVenues.contains($0) } ?? false)
        }.sorted { NearbyPosition($0) < NearbyPosition($1) }
        let rest = inside.filter { result in request.after.map { $0 < NearbyPosition(result) } ?? true }
        return NearbyPage(results: Array(rest.prefix(request.limit)), total: inside.count)
    }

    /// The place with this id, or nil.
    public func place(id: String) async throws -> Place? {
        places.first { $0.id == id }
    }

    /// Describes the fake store.
    public func status() async throws -> StoreStatus {
        StoreStatus(name: "fake", placeCount: places.count, location: "memory", attribution: attribution)
    }

    private func matches(_ text: String, countryCode: String?, limit: Int) -> [PlaceResult] {
        let queryWords = TextFolding.words(TextFolding.fold(text))
        guard !queryWords.isEmpty else { return [] }
        var results: [PlaceResult] = []
        for (index, place) in places.enumerated() where results.count < limit {
            if let countryCode, place.countryCode != countryCode { continue }
            let words = foldedNames[index]
            if queryWords.allSatisfy({ q in words.contains { $0.hasPrefix(q) } }) {
                results.append(PlaceResult(place: place))
            }
        }
        return results
    }

    private func byDistance(from point: Coordinate) -> [PlaceResult] {
        places.map { PlaceResult(place: $0, distanceMeters: $0.coordinate.distance(to: point)) }
            .sorted { $0.distanceMeters! < $1.distanceMeters! }
    }
}
