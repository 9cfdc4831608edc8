import PindropCore

/// The postcode, town and areas a street-level address is shown with. Its own `addr:*` tags win; the OSM
/// areas that hold the spot fill what they lack (town, postcode, suburb, county, state, country); where no area
/// does, the nearest address lends its postcode or town, and the town failing that is the containing GeoNames
/// place. A tagged town is written as the GeoNames place's own name, the one people use ("Helsinki", not the
/// tag's "Helsingin kaupunki").
struct AddressContext {
    /// How far from a spot another address may lend it its postcode or town, metres.
    static let lendingReach = 300.0
    /// How far a tagged town name is looked for among GeoNames places, metres.
    static let townNameReach = 30_000.0
    /// How far the nearest postcode is lent where no address within `lendingReach` has one (a street in the hills),
    /// metres: Nominatim gives every street and house the nearest postcode.
    static let postcodeReach = 2_000.0
    /// The settlements' place nodes, which name a part of a town (Silum in Triesenberg), and how far each kind reaches,
    /// in degrees: half the diameter Nominatim gives a place node of that rank.
    static let townPartReach: [String: Double] = ["city": 0.08, "town": 0.04, "village": 0.02, "hamlet": 0.01,
                                                  "isolated_dwelling": 0.01, "farm": 0.01]

    /// How far a populated place reaches, metres: 15 m × √population (Helsinki ≈ 12 km, Kamppi ≈ 1.6 km,
    /// Vaduz ≈ 1.1 km). A heuristic: GeoNames gives points, not boundaries.
    static func reach(population: Int32) -> Double { 15 * Double(max(population, 0)).squareRoot() }

    /// The town a point lies in: of the GeoNames places whose reach covers it, the most populous (so a
    /// district such as Kamppi gives way to Helsinki); else the nearest place within 30 km; else nil. Its slot.
    static func containingTown(at c: Coordinate, places: PlaceTable, spatial: SpatialIndex) -> Int? {
        var hits: [(place: Int32, chord2: Double)] = []
        spatial.within(c, meters: townNameReach, into: &hits)
        var best: (slot: Int, population: Int32)?, nearest: (slot: Int, chord2: Double)?
        for hit in hits {
            let i = Int(hit.place), meters = Geo.meters(forUnitChord: hit.chord2.squareRoot())
            if meters <= reach(population: places.population[i]), places.population[i] > best?.population ?? -1 {
                best = (i, places.population[i])
            }
            if hit.chord2 < nearest?.chord2 ?? .infinity { nearest = (i, hit.chord2) }
        }
        return best?.slot ?? nearest?.slot
    }

    /// The GeoNames places near the street data, the only ones a tagged town name can mean.
    static func nearbyTowns(of features: OSMFeatures, spatial: SpatialIndex) -> Set<Int> {
        // Each kind's box, then the box of their corners (a country's street points, gathered, were tens of megabytes).
        let boxes = [BoundingBox(covering: features.addressPoints.lazy.map(\.coordinate)), BoundingBox(covering: features.venues.lazy.map(\.coordinate)),
                     BoundingBox(covering: features.streets.lazy.flatMap(\.points))].compactMap { $0 }
        let corners = boxes.flatMap { [Coordinate(latitude: $0.south, longitude: $0.west), Coordinate(latitude: $0.north, longitude: $0.east)] }
        guard let box = BoundingBox(covering: corners) else { return [] }
        let centre = Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        let corner = Coordinate(latitude: box.north, longitude: box.east)
        var hits: [(place: Int32, chord2: Double)] = []
        spatial.within(centre, meters: centre.distance(to: corner) + townNameReach, into: &hits)
        return Set(hits.map { Int($0.place) })
    }

    let places: PlaceTable
    let spatial: SpatialIndex
    /// `containingTown` without the scan of every place within 30 km (the same answers).
    let towns: TownFinder
    /// The GeoNames places of `nearbyTowns` by name.
    let townNames: TownNames
    /// Address points whose town was recognised, and that town.
    let townPoints: SpatialIndex, townOfPoint: [String]
    /// Address points with a postcode, and that postcode.
    let postcodePoints: SpatialIndex, postcodeOfPoint: [String]
    let areas: AreaIndex
    /// The place nodes of `townPartReach`'s kinds, and each one's name and kind.
    let townParts: SpatialIndex, townPartOfPoint: [(name: String, kind: String, at: Coordinate)]

    /// `places` holds the GeoNames rows first (only they are read), `spatial` is their tree, `towns` their town lookup;
    /// `townNames` the places of
    /// `nearbyTowns` by name.
    init(features: OSMFeatures, places: PlaceTable, spatial: SpatialIndex, towns: TownFinder, townNames: TownNames, areas: AreaIndex) {
        self.places = places; self.spatial = spatial; self.towns = towns; self.townNames = townNames; self.areas = areas
        var towns: [(Coordinate, String)] = [], postcodes: [(Coordinate, String)] = []
        // Each point's tagged town recognised on every core (a folding, a lookup and the distances to its namesakes).
        let recognised = features.addressPoints.concurrentMap {
            Self.recognisedTown($0.address.town, at: $0.coordinate, places: places, townNames: townNames)
        }
        for (a, town) in zip(features.addressPoints, recognised) {
            if let town { towns.append((a.coordinate, town)) }
            if let postcode = a.address.postcode { postcodes.append((a.coordinate, postcode)) }
        }
        townPoints = SpatialIndex(latitudes: towns.map(\.0.latitude), longitudes: towns.map(\.0.longitude))
        townOfPoint = towns.map(\.1)
        postcodePoints = SpatialIndex(latitudes: postcodes.map(\.0.latitude), longitudes: postcodes.map(\.0.longitude))
        postcodeOfPoint = postcodes.map(\.1)
        let parts = features.venues.filter { $0.categoryKey == "place" && Self.townPartReach[$0.category] != nil }
        townParts = SpatialIndex(latitudes: parts.map(\.coordinate.latitude), longitudes: parts.map(\.coordinate.longitude))
        townPartOfPoint = parts.map { ($0.name, $0.category, $0.coordinate) }
    }

    /// A tagged town as the GeoNames name of the nearest place near `c` called so ("Helsingfors" → "Helsinki");
    /// nil when no place near `c` has that name ("Helsingin kaupunki", a stray "7").
    static func recognisedTown(_ tag: String?, at c: Coordinate, places: PlaceTable, townNames: TownNames) -> String? {
        guard let tag else { return nil }
        let slots = townNames.places(named: TextFolding.fold(tag))
        // A loop, not closures: a closure holding `places` copied the table (a retain of each column) every call.
        var nearest: (slot: Int, meters: Double)?
        for i in slots {
            let meters = Geo.haversineMeters(c.latitude, c.longitude, places.latitude[i], places.longitude[i])
            if meters <= townNameReach, meters < nearest?.meters ?? .infinity { nearest = (i, meters) }
        }
        return nearest.map { places.name($0.slot) }
    }

    /// The address with its town in its common name and, when `postcode` is set, its missing postcode filled.
    /// Far from any GeoNames place (a partial dump) a tagged town that reads as a name is kept as tagged.
    func complete(_ address: Address, at c: Coordinate, postcode: Bool) -> Address {
        var a = address
        let held = areas.isEmpty ? Address() : areas.address(of: areas.containing(c))
        a.town = Self.recognisedTown(a.town, at: c, places: places, townNames: townNames)
            ?? held.town
            ?? Self.lend(townPoints, townOfPoint, to: c)
            ?? towns.containingTown(at: c, spatial: spatial).map { places.name($0) }
            ?? a.town.flatMap { $0.contains(where: \.isLetter) ? $0 : nil }
        if postcode, a.postcode == nil {
            a.postcode = held.postcode ?? Self.lend(postcodePoints, postcodeOfPoint, to: c)
                ?? Self.lend(postcodePoints, postcodeOfPoint, to: c, within: Self.postcodeReach)
        }
        if a.place == nil, let part = townPart(at: c, town: a.town, street: a.street) { (a.place, a.placeKind) = (part.name, part.kind) }
        if let place = a.place, a.placeKind == nil { a.placeKind = settlementKind(of: place, near: c) }
        a.suburb = a.suburb ?? held.suburb
        a.county = a.county ?? held.county
        a.state = a.state ?? held.state
        a.country = a.country ?? held.country
        a.subdivisionCodes = a.subdivisionCodes ?? held.subdivisionCodes
        return a
    }

    /// The value of the nearest point within `within` metres.
    private static func lend(_ points: SpatialIndex, _ values: [String], to c: Coordinate, within: Double = lendingReach) -> String? {
        guard let hit = points.nearest(latitude: c.latitude, longitude: c.longitude),
              Geo.meters(forUnitChord: hit.chord2.squareRoot()) <= within else { return nil }
        return values[Int(hit.place)]
    }

    /// The kind of the settlement called `name` whose node is near `c` ("village" for the Silum of "6 Silum"); nil
    /// when no such node is within its reach.
    func settlementKind(of name: String, near c: Coordinate) -> String? {
        let folded = TextFolding.fold(name)
        for hit in townParts.nearest(latitude: c.latitude, longitude: c.longitude, k: 8) {
            let part = townPartOfPoint[Int(hit.place)]
            if TextFolding.fold(part.name) == folded, c.distance(to: part.at) <= 5_000 { return part.kind }
        }
        return nil
    }

    /// The part of the town a point lies in: the nearest settlement's node within its reach, unless that is the town
    /// itself, as Nominatim adds it to an address ("village: Silum" beside "town: Triesenberg"); one named as the
    /// street is passed over, as Nominatim names a part once (the hamlet Grosssteg on the street Grosssteg).
    func townPart(at c: Coordinate, town: String?, street: String?) -> (name: String, kind: String)? {
        let folded = town.map(TextFolding.fold), streetName = street.map(TextFolding.fold)
        for hit in townParts.nearest(latitude: c.latitude, longitude: c.longitude, k: 3) {
            let part = townPartOfPoint[Int(hit.place)], p = part.at
            let degrees = ((p.latitude - c.latitude) * (p.latitude - c.latitude) + (p.longitude - c.longitude) * (p.longitude - c.longitude)).squareRoot()
            guard degrees <= Self.townPartReach[part.kind] ?? 0, TextFolding.fold(part.name) != streetName else { continue }
            return TextFolding.fold(part.name) == folded ? nil : (part.name, part.kind)
        }
        return nil
    }
}
