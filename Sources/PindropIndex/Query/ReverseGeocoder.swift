import PindropCore

/// Reverse geocoding: what is at a point, from the building's address down to the nearest places, or the area of a
/// level that holds it.
struct ReverseGeocoder {
    let contents: IndexContents
    let answers: Answers

    init(contents: IndexContents) {
        self.contents = contents
        answers = Answers(contents: contents)
    }

    /// How near a tagged address must be for reverse geocoding to answer with it, metres.
    static let addressReach = 50.0
    /// How near a street must be for reverse geocoding to answer with it (no house number), metres.
    static let streetReach = 100.0
    /// How near a point of interest must be for a reverse question about kinds of places (Nominatim's `layer`) to
    /// answer with it, metres.
    static let venueReach = 100.0

    /// The nearest places to a point, nearest first, by true great-circle distance. Where street data exists,
    /// the first answer is the address of the building the point is in, else the nearest address within 50 m,
    /// else the nearest street within 100 m; asked for kinds of places (`layers`), the venues within 100 m join them,
    /// nearest first. The first answer's `displayName` is the spot's address line:
    /// "Simonkatu 7, 00100 Helsinki"; "near Narinkkatori, 00100 Helsinki" for a street only (the postcode of
    /// the nearest address); "near Kamppi, Helsinki" for a place only (`nearName`).
    func reverse(_ request: ReverseRequest) -> [PlaceResult] {
        let c = request.coordinate
        var results: [PlaceResult] = []
        if let level = request.level.areaLevel {
            results += areaAnswer(at: c, level: level)
        } else if request.level == .street {
            if let hit = contents.street.nearestStreet(to: c, within: Self.streetReach), contents.streetCoverage?.contains(c) == true {
                var place = contents.places.place(hit.row)
                place.coordinate = c
                results.append(PlaceResult(place: place, distanceMeters: hit.meters))
            }
        } else {
            let hit = streetLevelHit(at: c)
            if let hit { results.append(PlaceResult(place: streetLevelPlace(hit.row, at: c), distanceMeters: hit.meters)) }
            if !request.layers.isEmpty {
                // Asked by kind, as Nominatim's reverse is: the points of interest near it too, the nearest first. The
                // building the point is in is at no distance, and an address comes before a venue as near.
                let inBuilding = hit?.inBuilding == true
                let ranked = (results + nearestVenues(to: c, count: request.limit)).enumerated().map { n, result in
                    (key: n == 0 && inBuilding ? 0 : result.distanceMeters ?? 0, order: n, result: result)
                }
                results = ranked.sorted { ($0.key, $0.order) < ($1.key, $1.order) }.prefix(request.limit).map(\.result)
            }
        }
        return results + nearestPlaces(to: c, count: request.limit - results.count, named: results.isEmpty)
    }

    /// The `count` venues nearest `c` within `venueReach`, nearest first.
    private func nearestVenues(to c: Coordinate, count: Int) -> [PlaceResult] {
        guard contents.streetCoverage?.contains(c) == true else { return [] }
        return contents.street.nearestVenues(to: c, k: count).compactMap { hit in
            let meters = Geo.meters(forUnitChord: hit.chord2.squareRoot())
            return meters <= Self.venueReach ? PlaceResult(place: answers.place(hit.row), distanceMeters: meters) : nil
        }
    }

    /// The area of `level` holding the point; for a city where no boundary is, the town whose reach covers it.
    private func areaAnswer(at c: Coordinate, level: AreaLevel) -> [PlaceResult] {
        if let area = containingArea(at: c, level: level) { return [PlaceResult(place: area, distanceMeters: 0)] }
        // No boundary here: the town whose reach covers the point, as for "near Kamppi, Helsinki".
        guard level == .city, let town = containingTown(at: c) else { return [] }
        return [PlaceResult(place: answers.place(town), distanceMeters: contents.distance(town, c))]
    }

    /// A street-level row as the answer at `c`: a street as the point on it, with the postcode of the nearest address.
    private func streetLevelPlace(_ row: Int, at c: Coordinate) -> Place {
        var place = contents.places.place(row)
        guard contents.places.rowKind(row) == .street else { return place }
        // The answer is the point on the street, not the street's label point.
        place.coordinate = c
        var address = place.address ?? Address(street: place.name)
        address.postcode = contents.street.nearestAddress(to: c, within: AddressContext.lendingReach)
            .flatMap { contents.places.extras($0.row)?.address.postcode }
        place.address = address
        place.displayName = "near " + AddressFormatter.streetLine(address, countryCode: place.countryCode)
        return place
    }

    /// The `count` GeoNames places nearest `c`; with `named`, the first one named as the spot ("near Kamppi, Helsinki")
    /// with the spot's own areas.
    private func nearestPlaces(to c: Coordinate, count: Int, named: Bool) -> [PlaceResult] {
        let towns = contents.spatial.nearest(latitude: c.latitude, longitude: c.longitude, k: count)
        // Every answer's row asked for at once: made one after the other, each waited for its own reads (ten places'
        // rows lie far apart in columns of hundreds of megabytes at scale).
        if towns.count > 1 { contents.places.prefetchPlaces(towns.lazy.map { Int($0.place) }) }
        return towns.enumerated().map { n, hit in
            let i = Int(hit.place)
            // The name first: its town's walk gives the row's values time to arrive (`nearName`).
            let near = named && n == 0 ? nearName(ofRow: i) : nil
            var place = answers.place(i)
            if let near {
                place.displayName = near
                // The spot's own areas, not the place's: up the mountain in Balzers, near the village of Planken.
                if !contents.street.areas.isEmpty {
                    let held = contents.street.areas.address(of: contents.street.areas.containing(c))
                    if !held.isEmpty { place.address = held }
                }
            }
            return PlaceResult(place: place, distanceMeters: contents.distance(i, c))
        }
    }

    /// The areas the point lies in (OSM boundaries, postcode areas, places drawn as polygons), coarse to fine.
    func areas(containing c: Coordinate) -> [(name: String, level: AreaLevel)] {
        contents.street.areas.containing(c).map { (contents.street.areas.areas[$0].name, contents.street.areas.areas[$0].level) }
    }

    /// The area of `level` the point lies in, as a place with its boundary's box: the finest area at that level
    /// or coarser (a point in no suburb answers its town). Nil where the index has no area there.
    func containingArea(at c: Coordinate, level: AreaLevel) -> Place? {
        let areas = contents.street.areas
        guard !areas.isEmpty else { return nil }
        let chain = areas.containing(c).filter { areas.areas[$0].level != .postcode }
        guard let pick = chain.last(where: { areas.areas[$0].level <= level }) else { return nil }
        let area = areas.areas[pick]
        let nearest = contents.spatial.nearest(latitude: c.latitude, longitude: c.longitude).map { contents.places.place(Int($0.place)) }
        let address = areas.address(of: chain.filter { areas.areas[$0].level <= area.level })
        // "Balzers, Oberland, Liechtenstein": the area, then each coarser one (an area named like its parent once).
        var names: [String] = []
        for a in chain.reversed() where areas.areas[a].level <= area.level && names.last != areas.areas[a].name {
            names.append(areas.areas[a].name)
        }
        return Place(id: area.id, name: area.name, displayName: names.joined(separator: ", "), coordinate: areas.centre(of: pick),
                     countryCode: nearest?.countryCode, admin1: address.state, category: "\(area.level)",
                     address: address, source: "embedded", boundingBox: area.box, kind: .area)
    }

    /// A GeoNames place as the answer for a spot with no street address: "near Kamppi, Helsinki" (with the town it
    /// lies in, stored for each place by `TownFinder`), or "near Helsinki" when it is the town.
    func nearName(ofRow i: Int) -> String {
        // The row's values, asked for now, arrive while the town's name is read.
        contents.places.prefetchRow(i)
        let town = contents.townFinder.town(ofPlace: i, at: contents.coordinate(i), spatial: contents.spatial).map { contents.places.name($0) }
        let name = contents.places.name(i)
        return "near " + ([name] + [town].compactMap { $0 }.filter { $0 != name }).joined(separator: ", ")
    }

    /// The GeoNames town a point lies in (`AddressContext.containingTown`): its row.
    func containingTown(at c: Coordinate) -> Int? {
        contents.townFinder.containingTown(at: c, spatial: contents.spatial)
    }

    /// The street-level answer at a point: the building's address (`inBuilding`), else the nearest address within
    /// 50 m, else the nearest street within 100 m.
    func streetLevelHit(at c: Coordinate) -> (row: Int, meters: Double, inBuilding: Bool)? {
        guard let coverage = contents.streetCoverage, coverage.contains(c) else { return nil }
        if let building = contents.street.buildingAddress(at: c) { return (building.row, building.meters, true) }
        guard let hit = contents.street.nearestAddress(to: c, within: Self.addressReach)
            ?? contents.street.nearestStreet(to: c, within: Self.streetReach) else { return nil }
        return (hit.row, hit.meters, false)
    }

    /// The nearest GeoNames place to a point: its row and distance in metres.
    func nearestPlace(latitude: Double, longitude: Double) -> (row: Int, meters: Double)? {
        guard let hit = contents.spatial.nearest(latitude: latitude, longitude: longitude) else { return nil }
        let i = Int(hit.place)
        return (i, Geo.haversineMeters(latitude, longitude, contents.places.latitude[i], contents.places.longitude[i]))
    }
}
