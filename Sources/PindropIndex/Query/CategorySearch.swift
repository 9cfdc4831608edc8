import PindropCore

/// Places of a category (`CategoryQuery`): in a named place's area or near it, near the user, or in the view; nearest
/// to the place (or the user, or the view's centre) first.
struct CategorySearch {
    let contents: IndexContents
    let nearby: NearbySearch

    init(contents: IndexContents) {
        self.contents = contents
        nearby = NearbySearch(contents: contents)
    }

    /// Where to look: a point, how far from it, and the area that must hold each place (nil: the circle alone).
    struct Scope { var centre: Coordinate; var radius: Double; var area: Int? }

    /// The places of `query`'s tags in its scope, nearest first, `request.limit` of them, filtered as the request says
    /// (countries, a bounded box). `anchor` finds the place the query names.
    func search(_ query: CategoryQuery, _ request: SearchRequest, anchor: (String) throws(PindropError) -> (Place, Int?)?) throws(PindropError) -> [PlaceResult] {
        guard let scope = try scope(query, request, anchor: anchor) else { return [] }
        var found: [PlaceResult] = []
        for tag in query.tags {
            let page = nearby.page(try NearbyRequest(coordinate: scope.centre, radiusMeters: min(scope.radius, RequestLimits.radiusMeters.upperBound),
                                                     limit: RequestLimits.maxNearbyPage, category: tag.value))
            found += page.results.filter { keeps($0.place, tag, scope, request.within) }
        }
        found.sort { ($0.distanceMeters ?? 0) < ($1.distanceMeters ?? 0) }
        return Array(found.prefix(request.limit))
    }

    /// The scope of a query: the named place's area or surroundings, else the user's position, else the view.
    private func scope(_ query: CategoryQuery, _ request: SearchRequest,
                       anchor: (String) throws(PindropError) -> (Place, Int?)?) throws(PindropError) -> Scope? {
        if !query.place.isEmpty {
            guard let (place, area) = try anchor(query.place) else { return nil }
            let box = area.map { contents.street.areas.areas[$0].box } ?? place.boundingBox
            let radius = box.map { Self.halfDiagonal($0) } ?? Self.reach(of: place)
            return Scope(centre: place.coordinate, radius: query.near ? max(radius, 2_000) : radius, area: query.near ? nil : area)
        }
        if let near = request.near { return Scope(centre: near, radius: 5_000, area: nil) }
        guard let box = request.within.box else { return nil }
        let centre = Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        return Scope(centre: centre, radius: Self.halfDiagonal(box), area: nil)
    }

    /// Whether a place found near the scope's centre is of the tag, in the scope's area and in what the request allows.
    private func keeps(_ place: Place, _ tag: CategoryPhrases.Tag, _ scope: Scope, _ within: AreaFilter) -> Bool {
        guard place.categoryKey == tag.key || place.categoryKey == nil else { return false }
        if let area = scope.area, !contents.street.areas.contains(area, place.coordinate) { return false }
        if let box = within.box, !box.contains(place.coordinate) { return false }
        if !within.countries.isEmpty, !(place.countryCode.map { within.countries.contains($0) } ?? false) { return false }
        return true
    }

    /// Metres from a box's centre to its corner, at least 500.
    static func halfDiagonal(_ box: BoundingBox) -> Double {
        let centre = Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        return max(500, centre.distance(to: Coordinate(latitude: box.north, longitude: box.east)))
    }

    /// How far around a place without an extent its places are looked for: a town's reach (`AddressContext.reach`),
    /// 2 to 30 km; a street's or a smaller place's surroundings, 1 km.
    static func reach(of place: Place) -> Double {
        switch place.kind {
        case .place?: min(30_000, max(2_000, AddressContext.reach(population: Int32(clamping: place.population))))
        case .venue? where place.categoryKey == "place": 1_500
        default: 1_000
        }
    }
}
