import PindropCore

/// The structures of an open index and what opening derives from them (lookups by id, by town, by area): what every
/// query stage reads. Immutable once made, so any number of threads may read it at once.
final class IndexContents: Sendable {
    let places: PlaceTable
    let names: NameRuns
    let spatial: SpatialIndex
    let street: StreetLevel
    /// GeoNames places by population, biggest first, for the map's labels (stored in the index).
    let labelOrder: Column<Int32>
    /// The names a weak match may be corrected to (stored in the index).
    let corrections: CorrectionForms
    /// The town lookup of reverse's "near X, Town", stored in the index.
    let townFinder: TownFinder
    /// `places.geonamesCount`, which is counted, kept for the ranking's per-candidate tests.
    let firstStreetLevelRow: Int
    /// The box around every area (nil without areas).
    let areaExtent: BoundingBox?
    /// Where street-level answers can come from (nil without street data).
    let streetCoverage: BoundingBox?
    /// Every folded qualifier form → the countries and admin1 divisions it names ("il" → Illinois and others).
    let qualifierForms: [String: Division]
    /// Street-level rows' folded town, so "Aleksanterinkatu 52, Helsinki" narrows by town.
    let streetTowns: [Int32: String]
    /// Street-level rows by their OSM id ("osm:way/122595241"), sorted, each its `idKey` with the row in the low 32 bits:
    /// a row is found by id with a binary search instead of reading every row's id.
    let rowsByID: [UInt64]
    /// Each venue category's tree: its slots in `street.venuesByCategory`.
    let venueCategorySlots: [String: Range<Int>]
    /// The points laid along each street (slots in `street.streetPoints`), by row: street-level row r's are
    /// streetPointSlots[streetPointStart[r − geonamesCount] ..< streetPointStart[r − geonamesCount + 1]].
    let streetPointStart: [Int32]
    let streetPointSlots: [Int32]
    /// The rows that stand for an area (an area row, or a GeoNames place an area is the boundary of), sorted, and
    /// the area of each: a binary search per answer instead of a hash.
    let areaRows: [Int32]
    let areaOfAreaRow: [Int]

    /// The countries and admin1 divisions a qualifier form names.
    struct Division: Sendable { var countries: [UInt16] = []; var admin1s: [Int32] = [] }

    init(_ structures: IndexStructures.Decoded) {
        let (places, street) = (structures.places, structures.street)
        self.places = places; names = structures.names; spatial = structures.spatial; self.street = street
        townFinder = structures.towns; corrections = structures.corrections; labelOrder = structures.labelOrder
        firstStreetLevelRow = places.geonamesCount
        areaExtent = street.areas.extent
        (streetTowns, rowsByID) = Self.townsAndIDs(places)
        venueCategorySlots = Self.venueCategorySlots(places, street)
        streetCoverage = Self.streetCoverage(places, street)
        qualifierForms = Self.qualifierForms(places)
        // Street points grouped by their street's row (a counting sort), so a street's distance is a scan of its own points.
        let first = places.geonamesCount
        let rowOfSlot = street.streetPoints.nodes.map { Int(street.streetPointRow[Int($0.place)]) - first }
        (streetPointStart, streetPointSlots) = groupedByKey(rowOfSlot, keyCount: places.count - first)
        (areaRows, areaOfAreaRow) = Self.areaRows(places, street.areas)
    }

    /// Each street-level row's folded town, and the rows by id (`rowsByID`).
    private static func townsAndIDs(_ places: PlaceTable) -> ([Int32: String], [UInt64]) {
        var towns: [Int32: String] = [:], folded: [String: String] = [:]
        var byID: [UInt64] = []
        byID.reserveCapacity(places.count - places.geonamesCount)
        for i in places.geonamesCount..<places.count {
            guard let extras = places.extras(i) else { continue }
            // Each town folded once: thousands of rows share one.
            if let town = extras.address.town {
                if folded[town] == nil { folded[town] = TextFolding.fold(town) }
                towns[Int32(i)] = folded[town]
            }
            byID.append(idKey(extras.id) | UInt64(i))
        }
        // Rows sharing an id (a street cut at a town boundary) sort by row: the first one answers.
        byID.sort()
        return (towns, byID)
    }

    /// Each category's name from its tree's first venue.
    private static func venueCategorySlots(_ places: PlaceTable, _ street: StreetLevel) -> [String: Range<Int>] {
        Dictionary(uniqueKeysWithValues: zip(street.categoryStart, street.categoryStart.dropFirst()).compactMap { lo, hi in
            lo < hi ? (places.category(street.venueRows.lowerBound + Int(street.venuesByCategory.place(atSlot: Int(lo)))) ?? "", Int(lo)..<Int(hi)) : nil
        })
    }

    /// Everything street-level, widened by ~1 km: outside it no street-level answer can be within reach.
    private static func streetCoverage(_ places: PlaceTable, _ street: StreetLevel) -> BoundingBox? {
        let streetRows = (places.geonamesCount..<places.count).map { Coordinate(latitude: places.latitude[$0], longitude: places.longitude[$0]) }
        let corners = street.map.boxes.flatMap { [Coordinate(latitude: $0.south, longitude: $0.west), Coordinate(latitude: $0.north, longitude: $0.east)] }
        return BoundingBox(covering: streetRows + corners).map {
            BoundingBox(south: $0.south - 0.01, west: $0.west - 0.02, north: $0.north + 0.01, east: $0.east + 0.02)
        }
    }

    private static func qualifierForms(_ places: PlaceTable) -> [String: Division] {
        var forms: [String: Division] = [:]
        for (i, c) in places.countries.enumerated() {
            for form in c.qualifierForms { forms[form, default: Division()].countries.append(UInt16(i)) }
        }
        for (i, a) in places.admin1s.enumerated() {
            for form in a.qualifierForms { forms[form, default: Division()].admin1s.append(Int32(i)) }
        }
        return forms
    }

    /// `areaRows` and `areaOfAreaRow`.
    private static func areaRows(_ places: PlaceTable, _ areas: AreaIndex) -> ([Int32], [Int]) {
        var areaOfRow: [Int32: Int] = [:], areaOfID: [String: Int] = [:]
        for (a, area) in areas.areas.enumerated() {
            if areas.twins[a] >= 0 { areaOfRow[areas.twins[a]] = a } else { areaOfID[area.id] = a }
        }
        for i in places.geonamesCount..<places.count where places.rowKind(i) == .area || places.rowKind(i) == .postcode {
            if let id = places.extras(i)?.id, let a = areaOfID[id] { areaOfRow[Int32(i)] = a }
        }
        let rows = areaOfRow.keys.sorted()
        return (rows, rows.map { areaOfRow[$0]! })
    }

    /// The high 32 bits of an id's FNV-1a hash, in the high half of a key.
    static func idKey(_ id: String) -> UInt64 { StructureFile.fnv1a(id.utf8) & idKeyBits }
    static let idKeyBits: UInt64 = 0xFFFF_FFFF_0000_0000

    /// The area row `row` stands for, if any.
    func area(ofRow row: Int) -> Int? {
        let i = firstIndex(in: areaRows.indices) { areaRows[$0] >= row }
        return i < areaRows.count && areaRows[i] == row ? areaOfAreaRow[i] : nil
    }

    /// Where row `row` lies.
    func coordinate(_ row: Int) -> Coordinate { Coordinate(latitude: places.latitude[row], longitude: places.longitude[row]) }

    /// Metres from `c` to row `row`'s point, by great-circle distance.
    func distance(_ row: Int, _ c: Coordinate) -> Double {
        Geo.haversineMeters(c.latitude, c.longitude, places.latitude[row], places.longitude[row])
    }
}
