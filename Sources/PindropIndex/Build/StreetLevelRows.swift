import PindropCore

/// An import's OpenStreetMap features made rows after the GeoNames ones: venues, address points (one row per
/// address), streets (one per name and town) and areas (those no GeoNames place stands for). Each row takes its
/// country and admin1 from the nearest GeoNames place, and its town and postcode as `AddressContext` completes them.
struct StreetLevelRows {
    let features: OSMFeatures
    /// The street-level rows made so far: row r of it is row `firstRow + r` of the index.
    var places: PlaceTable
    /// The index's row of the first street-level row: the number of GeoNames rows.
    let firstRow: Int
    /// Each appended row's names: its own (primary) and its other ones.
    var names: [(primary: [String], alternate: [String])] = []
    /// The GeoNames rows (first in the table; rows after them are not read) and their tree, which rows are placed by.
    let geonamesRows: PlaceTable
    let geonames: SpatialIndex
    var areas: AreaIndex
    let context: AddressContext
    /// The GeoNames places near the data by name.
    let townNames: TownNames
    /// The kind of each settlement by its folded name (`townKinds`).
    let townKinds: [String: String]
    /// The entrances on each building, venue or addressed way, by its id.
    let entrances: [String: [PlaceEntrance]]

    init(_ features: OSMFeatures, geonamesRows places: PlaceTable, geonames: SpatialIndex, towns: TownFinder, townNames: TownNames) {
        self.features = Self.withPlaceCodes(features) { c in
            geonames.nearest(latitude: c.latitude, longitude: c.longitude).flatMap { places.countryInfo(Int($0.place))?.code }
        }
        self.places = PlaceTable.empty
        firstRow = geonames.count
        geonamesRows = places
        self.geonames = geonames
        self.townNames = townNames
        areas = AreaIndex(self.features.areas, labels: Self.townLabels(self.features))
        townKinds = Self.townKinds(self.features)
        entrances = Self.entrances(self.features)
        context = AddressContext(features: self.features, places: places, spatial: geonames, towns: towns, townNames: townNames, areas: areas)
    }

    /// Appends every kind of row and returns the street level built over them. Each kind's scratch (placements,
    /// lookups) lives in a call of its own, freed before the next kind's: at the end the street level is built beside
    /// the features, the import's peak.
    mutating func append() -> StreetLevel {
        let made = appendRows()
        return StreetLevel(places: places, firstRow: firstRow, addressPoints: made.addressPoints, streetLines: made.streetLines,
                           features: made.features, areas: made.areas)
    }

    /// What a street level is built from besides its rows: the address points and street lines (with the index's row
    /// of each), the map's shapes and the areas.
    struct Made {
        var addressPoints: [(row: Int, point: Coordinate)], streetLines: [(row: Int, points: [Coordinate])]
        var features: [MapFeature], areas: AreaIndex
    }

    /// Appends every kind of row (`append`), and returns what the street level is built from besides them.
    mutating func appendRows() -> Made {
        appendVenues()
        let addressPoints = appendAddresses()
        let lines = appendStreets()
        appendAreas()
        appendPostcodes()
        let shapes = features.streets.map { MapFeature(kind: .street, id: $0.id, name: $0.name, category: $0.highway, lines: [$0.points]) }
            + features.buildings.map { MapFeature(kind: .building, id: $0.id, name: $0.name, category: $0.kind, lines: $0.outlines) }
            + features.mapShapes
        return Made(addressPoints: addressPoints, streetLines: lines, features: shapes, areas: areas)
    }

    /// Where a row belongs: the nearest GeoNames place, whose country and admin1 it takes (one in the same town where
    /// a boundary says which that is, so a street near a border is not filed under the neighbouring town's admin1),
    /// and its address. Only reads, so rows are placed on every core at once.
    func placement(_ c: Coordinate, _ kind: PlaceTable.RowKind, _ address: Address?) -> (nearest: Int?, address: Address) {
        let town = areas.isEmpty ? nil : areas.chain(at: c)[.city]
        let nearest = town.flatMap { town in
            geonames.nearest(latitude: c.latitude, longitude: c.longitude, k: 8).lazy.map { Int($0.place) }
                .first { areas.contains(town, Coordinate(latitude: geonamesRows.latitude[$0], longitude: geonamesRows.longitude[$0])) }
        } ?? geonames.nearest(latitude: c.latitude, longitude: c.longitude).map { Int($0.place) }
        // An area's address is the areas that hold it, as given; everything else is completed where it lies (a street
        // and anything on one with the postcode there, as Nominatim gives every street one).
        let completed = kind == .area ? address ?? Address()
            : context.complete(address ?? Address(), at: c, postcode: address?.street != nil || address?.place != nil)
        return (nearest, completed)
    }

    /// The placements of rows of `kind` at these points, on every core.
    private func placements(_ rows: [(Coordinate, Address?)], _ kind: PlaceTable.RowKind) -> [(nearest: Int?, address: Address)] {
        rows.concurrentMap { placement($0.0, kind, $0.1) }
    }

    /// Appends one row: its name, point, kind and extras (whose address is completed where the row lies unless
    /// `placed` gives it), its names to search it by, and whether it is a landmark (`PlaceTable.landmark`).
    mutating func append(_ name: String, _ c: Coordinate, _ kind: PlaceTable.RowKind, _ extras: PlaceExtras, primary: [String],
                         alternate: [String] = [], landmark: Bool = false, placed: (nearest: Int?, address: Address)? = nil) {
        let (nearest, address) = placed ?? placement(c, kind, extras.address.isEmpty ? nil : extras.address)
        var extras = extras
        extras.address = address
        extras.address.townKind = extras.address.townKind ?? address.town.flatMap { townKinds[TextFolding.fold($0)] }
        places.geonameID.append(0)
        places.latitude.append(c.latitude)
        places.longitude.append(c.longitude)
        places.population.append(0)
        places.country.append(nearest.map { geonamesRows.country[$0] } ?? PlaceTable.noCountry)
        places.admin1.append(nearest.map { geonamesRows.admin1[$0] } ?? -1)
        places.nameBytes.append(contentsOf: name.utf8)
        places.nameStart.append(UInt32(places.nameBytes.count))
        places.kind.append(kind.rawValue | (landmark ? PlaceTable.landmark : 0))
        places.extraBytes.modify { PlaceTable.appendExtras(to: &$0, extras) }
        places.extraStart.append(UInt32(places.extraBytes.count))
        names.append((primary, alternate))
    }

    /// The named objects: venues, landmarks, and the place nodes no GeoNames place of the same name near it stands for.
    private mutating func appendVenues() {
        let venues = features.venues.filter { !isGeoNamesTwin($0) && !Self.isBoundaryLabel($0) }
        // Placed from a copy, which is gone before the rows are appended (else each column would be copied on write).
        let venuesPlaced = placements(venues.map { ($0.coordinate, $0.address) }, .venue)
        for (v, placed) in zip(venues, venuesPlaced) {
            let names = v.tags.filter { PlaceTags.isName($0.key) && $0.key != "name" && $0.value != v.name }.map(\.value).sorted()
            append(v.name, v.coordinate, .venue,
                   PlaceExtras(id: v.id, category: v.category, categoryKey: v.categoryKey, address: v.address ?? Address(),
                               tags: v.tags.isEmpty ? nil : v.tags, box: v.box, entrances: entrances[v.id]),
                   primary: [v.name], alternate: names, landmark: Self.isLandmark(v), placed: placed)
        }
    }

    /// Whether a named object ranks above a venue: a feature of the landscape, a landmark or a settlement's place node
    /// (Nominatim's search rank 22 or lower).
    static func isLandmark(_ v: OSMVenue) -> Bool {
        PlaceRank.of(key: v.categoryKey, value: v.category).search <= 22
    }

    /// Whether a place node labels a country, state or county (`PlaceRank.boundaryLabels`).
    static func isBoundaryLabel(_ v: OSMVenue) -> Bool {
        v.categoryKey == "place" && PlaceRank.boundaryLabels.contains(v.category)
    }

    /// Whether a place node stands for a GeoNames place near the data of the same name (Vaduz's node and GeoNames'
    /// Vaduz), within 5 km: the GeoNames row answers for it.
    private func isGeoNamesTwin(_ v: OSMVenue) -> Bool {
        guard v.categoryKey == "place" else { return false }
        return townNames.places(named: TextFolding.fold(v.name)).contains {
            Geo.haversineMeters(v.coordinate.latitude, v.coordinate.longitude, geonamesRows.latitude[$0], geonamesRows.longitude[$0]) < 5_000
        }
    }

    /// The kind of each settlement whose place node the data has (folded name → "city", "town", "village", "hamlet").
    static func townKinds(_ features: OSMFeatures) -> [String: String] {
        var kinds: [String: String] = [:]
        for v in features.venues where v.categoryKey == "place" && ["city", "town", "village", "hamlet"].contains(v.category) {
            kinds[TextFolding.fold(v.name)] = kinds[TextFolding.fold(v.name)] ?? v.category
        }
        return kinds
    }

    /// How far apart two points of one street and number may be and still be one address (a large building's shops).
    static let sameAddressMeters = 500.0

    /// One row per address (many shops inside one building carry the same address), but every point kept for
    /// reverse geocoding, so anywhere in that building answers with its address. Returns the points and their rows.
    private mutating func appendAddresses() -> [(row: Int, point: Coordinate)] {
        var addressPoints: [(row: Int, point: Coordinate)] = []
        var rowsOfAddress: [String: [(row: Int, at: Coordinate)]] = [:]
        var addressRows: [(point: OSMAddressPoint, interpolation: String?)] = []
        // The tagged addresses first: an interpolated number never stands for a house that is there.
        let interpolated = InterpolatedAddresses.points(features.interpolations)
        for (a, interpolation) in features.addressPoints.map({ ($0, String?.none) }) + interpolated.map({ ($0.address, $0.scheme) }) {
            // A house without a street is found by the place it belongs to ("6 Silum").
            guard let street = a.address.street ?? a.address.place, let number = a.address.houseNumber else { continue }
            // The shops of one building are one address; the same address in two towns ("Landstrasse 12" in Schaan and
            // in Triesen) is two: points of one address more than `sameAddressMeters` apart are rows of their own.
            let key = TextFolding.fold("\(street) \(number)")
            if let row = rowsOfAddress[key]?.first(where: { $0.at.distance(to: a.coordinate) <= Self.sameAddressMeters })?.row {
                if interpolation == nil { addressPoints.append((row, a.coordinate)) }
                continue
            }
            let row = firstRow + places.count + addressRows.count
            rowsOfAddress[key, default: []].append((row, a.coordinate))
            addressPoints.append((row, a.coordinate))
            addressRows.append((a, interpolation))
        }
        let addressesPlaced = placements(addressRows.map { ($0.point.coordinate, $0.point.address) }, .address)
        for ((a, interpolation), placed) in zip(addressRows, addressesPlaced) {
            let street = a.address.street ?? a.address.place ?? "", number = a.address.houseNumber ?? ""
            // An interpolated number says so, with its line's scheme, as Nominatim's answer for one does.
            let tags = interpolation.map { ["addr:interpolation": $0] }
            append("\(street) \(number)", a.coordinate, .address,
                   PlaceExtras(id: a.id, category: nil, categoryKey: nil, address: a.address, tags: tags,
                               entrances: interpolation == nil ? entrances[a.id] : nil),
                   primary: ["\(street) \(number)"], alternate: ["\(number) \(street)"], placed: placed)
        }
        return addressPoints
    }

    /// One row per street name and town (a "Landstrasse" in each of three towns is three streets), at a point of its
    /// longest piece in that town; every piece feeds the nearest-street tree. Returns the pieces and their rows.
    private mutating func appendStreets() -> [(row: Int, points: [Coordinate])] {
        var lines: [(row: Int, points: [Coordinate])] = []
        let pieces = Self.splitAtTownBoundaries(features.streets.filter { $0.points.count >= 2 }, areas: areas)
        let context = context
        let pieceTowns = pieces.concurrentMap { context.complete(Address(), at: $0.label, postcode: false).town ?? "" }
        let byName = Dictionary(grouping: zip(pieces, pieceTowns)) { piece, town in
            TextFolding.fold(piece.street.name) + "\u{1F}" + town
        }.mapValues { $0.map(\.0) }
        for key in byName.keys.sorted() {
            let ways = byName[key]!
            let longest = ways.max { Self.length($0.street.points) < Self.length($1.street.points) }!
            let row = firstRow + places.count
            append(longest.street.name, longest.label, .street,
                   PlaceExtras(id: longest.street.id, category: longest.street.highway, categoryKey: nil, address: Address(street: longest.street.name)),
                   primary: [longest.street.name])
            lines += ways.map { (row, $0.street.points) }
        }
        return lines
    }

    /// Areas by name: one that a GeoNames place inside it is named after (Vaduz) lends that place its box at answer
    /// time (its twin); any other (a district, a county) becomes a row of its own, at its centre.
    private mutating func appendAreas() {
        areas.twins = areas.areas.indices.map { a in
            let area = areas.areas[a]
            guard area.level != .postcode else { return -1 }
            let twin = townNames.places(named: TextFolding.fold(area.name))
                .filter { areas.contains(a, Coordinate(latitude: geonamesRows.latitude[$0], longitude: geonamesRows.longitude[$0])) }
                .max { geonamesRows.population[$0] < geonamesRows.population[$1] }
            if let twin { return Int32(twin) }
            let osm = features.areas[a]
            let centre = areas.centre(of: a)
            let address = areas.address(of: areas.containing(centre).filter { areas.areas[$0].level < area.level })
            append(area.name, centre, .area, PlaceExtras(id: area.id, category: "\(area.level)", categoryKey: nil, address: address,
                                                         tags: Self.tags(of: osm)),
                   primary: [area.name], alternate: (Array(osm.localizedNames.values) + osm.otherNames.values).filter { $0 != area.name })
            return -1
        }
    }

    /// An area's names in other languages ("name:de") and its admin level, as a place's tags; nil for none.
    static func tags(of area: OSMArea) -> [String: String]? {
        var tags = Dictionary(uniqueKeysWithValues: area.localizedNames.map { ("name:\($0.key)", $0.value) })
        tags.merge(area.otherNames) { own, _ in own }
        if let level = area.adminLevel { tags["admin_level"] = String(level) }
        return tags.isEmpty ? nil : tags
    }

    /// For each area, what Nominatim takes from the place node it links a town's boundary to (its `label` member,
    /// else a place node of the same name): the node's place type ("town"), and the postcode of the boundary, else the
    /// one whose addresses centre nearest that node (as Nominatim gives a town the nearest postcode). Nil for others.
    static func townLabels(_ features: OSMFeatures) -> [(placeType: String?, postcode: String?)] {
        let nodes = features.venues.filter { $0.categoryKey == "place" }
        let byID = Dictionary(nodes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let byName = Dictionary(nodes.map { (TextFolding.fold($0.name), $0) }, uniquingKeysWith: { first, _ in first })
        let centres = postcodeCentres(features)
        return features.areas.map { area in
            guard area.level == .city, let node = area.label.flatMap({ byID[$0] }) ?? byName[TextFolding.fold(area.name)] else {
                return (nil, area.postcode)
            }
            let nearest = centres.min { $0.value.distance(to: node.coordinate) < $1.value.distance(to: node.coordinate) }
            return (node.category, area.postcode ?? nearest?.key)
        }
    }

    /// The features with every postcode as its country's postcode places know it (`Postcode.placeCode`: a US ZIP+4 as its
    /// five digits), the country as tagged or else that of the nearest GeoNames place.
    static func withPlaceCodes(_ features: OSMFeatures, countryAt: (Coordinate) -> String?) -> OSMFeatures {
        // Only a ZIP+4's shape is looked at further, and only what changes is written: the arrays are copied only then.
        func placeCode(_ address: Address?, _ c: Coordinate, _ tagged: String?) -> String? {
            guard let code = address?.postcode, Postcode.fiveDigitZIP(of: code) != nil else { return nil }
            let placed = Postcode.placeCode(code, country: tagged ?? countryAt(c))
            return placed == code ? nil : placed
        }
        var features = features
        for (i, a) in features.addressPoints.enumerated() {
            if let code = placeCode(a.address, a.coordinate, a.countryCode) { features.addressPoints[i].address.postcode = code }
        }
        for (i, v) in features.venues.enumerated() {
            if let code = placeCode(v.address, v.coordinate, v.countryCode) { features.venues[i].address?.postcode = code }
        }
        for (i, line) in features.interpolations.enumerated() {
            for (s, stop) in line.stops.enumerated() {
                if let code = placeCode(stop.address, line.points[stop.point], nil) { features.interpolations[i].stops[s].address.postcode = code }
            }
        }
        return features
    }

    /// Each postcode the addresses carry, at the mean of their points.
    static func postcodeCentres(_ features: OSMFeatures) -> [String: Coordinate] {
        var points: [String: [Coordinate]] = [:]
        for a in features.addressPoints {
            guard let code = a.address.postcode?.trimmingWhitespace(), !code.isEmpty else { continue }
            points[code, default: []].append(a.coordinate)
        }
        return points.compactMapValues(centre(of:))
    }

    /// One row per postcode the addresses carry, named by it: at the centre of its postcode area where the data has
    /// one (the row then stands for the area, and answers with its box), else at the centre of the addresses tagged
    /// with it; its address is where that point lies (town, county, state, country).
    private mutating func appendPostcodes() {
        let centres = Self.postcodeCentres(features)
        var areaOfCode: [String: Int] = [:]
        for (a, area) in areas.areas.enumerated() where area.level == .postcode { areaOfCode[area.name] = areaOfCode[area.name] ?? a }
        for code in Set(centres.keys).union(areaOfCode.keys).sorted() {
            let area = areaOfCode[code]
            guard let c = area.map({ areas.centre(of: $0) }) ?? centres[code] else { continue }
            let placed = placement(c, .postcode, Address(postcode: code))
            let country = placed.nearest.flatMap { geonamesRows.countryInfo($0)?.code.lowercased() } ?? "xx"
            let id = area.map { areas.areas[$0].id } ?? PlaceID.postcode(country: country, code: code).description
            append(code, c, .postcode, PlaceExtras(id: id, category: "postcode", categoryKey: "place", address: placed.address),
                   primary: [code], placed: placed)
        }
    }

    /// The mean of the points (fine at the size of a postcode's addresses); nil for none.
    static func centre(of points: [Coordinate]) -> Coordinate? {
        guard !points.isEmpty else { return nil }
        let n = Double(points.count)
        return Coordinate(latitude: points.reduce(0) { $0 + $1.latitude } / n, longitude: points.reduce(0) { $0 + $1.longitude } / n)
    }

    /// The streets cut where they cross from one town's boundary into another's, so each part counts as a street of
    /// the town it runs through, each with a point inside that town to stand for it (its middle vertex there). A part
    /// keeps the segments that cross into its neighbours, so the parts still join up. Where the index has no town
    /// boundaries, each street is one part, labelled at its middle vertex.
    static func splitAtTownBoundaries(_ streets: [OSMStreet], areas: AreaIndex) -> [(street: OSMStreet, label: Coordinate)] {
        guard areas.areas.contains(where: { $0.level == .city }) else { return streets.map { ($0, $0.points[$0.points.count / 2]) } }
        var parts: [(street: OSMStreet, label: Coordinate)] = []
        for street in streets {
            let towns = street.points.map { areas.chain(at: $0)[.city] ?? -1 }
            var runStart = 0
            for end in 1...street.points.count where end == street.points.count || towns[end] != towns[end - 1] {
                // The run runStart ..< end lies in one town; with the vertices either side, it keeps its crossings.
                let points = Array(street.points[max(runStart - 1, 0)...min(end, street.points.count - 1)])
                parts.append((OSMStreet(id: street.id, name: street.name, highway: street.highway, points: points),
                              street.points[(runStart + end - 1) / 2]))
                runStart = end
            }
        }
        return parts
    }

    /// A line's length in metres.
    static func length(_ points: [Coordinate]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }
}

extension StreetLevelRows {
    /// The entrance nodes of each way they lie on, in id order.
    static func entrances(_ features: OSMFeatures) -> [String: [PlaceEntrance]] {
        var byWay: [String: [PlaceEntrance]] = [:]
        for e in features.entrances {
            guard case .osm(let object)? = PlaceID(e.id), object.kind == .node else { continue }
            let entrance = PlaceEntrance(nodeID: object.number, kind: e.kind, coordinate: e.coordinate, tags: e.tags.isEmpty ? nil : e.tags)
            for way in e.ways { byWay[way, default: []].append(entrance) }
        }
        return byWay.mapValues { $0.sorted { $0.nodeID < $1.nodeID } }
    }
}
