import PindropCore

/// The structures of an open index and the few small lookups opening derives from them (by area, by venue category):
/// what every query stage reads. Immutable once made, so any number of threads may read it at once.
final class IndexContents: Sendable {
    let places: PlaceTable
    let names: NameRuns
    let spatial: SpatialIndex
    /// The stored street level, and what an update laid over it.
    let street: StreetLayers
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
    var streetCoverage: BoundingBox? { street.coverage }
    /// Every folded qualifier form → the countries and admin1 divisions it names ("il" → Illinois and others).
    let qualifierForms: [String: Division]
    /// Each venue category's tree: its slots in the stored level's `venuesByCategory`, and in the overlay's.
    let venueCategorySlots: [String: Range<Int>]
    let overlayCategorySlots: [String: Range<Int>]
    /// The rows that stand for an area (an area row, or a GeoNames place an area is the boundary of), sorted, and
    /// the area of each: a binary search per answer instead of a hash.
    let areaRows: [Int32]
    let areaOfAreaRow: [Int]

    /// The countries and admin1 divisions a qualifier form names.
    struct Division: Sendable { var countries: [UInt16] = []; var admin1s: [Int32] = [] }

    init(_ structures: IndexStructures.Decoded) {
        let places = structures.places
        self.places = places; names = structures.names; spatial = structures.spatial
        townFinder = structures.towns; corrections = structures.corrections; labelOrder = structures.labelOrder
        firstStreetLevelRow = places.geonamesCount
        street = StreetLayers(stored: structures.street, firstRow: firstStreetLevelRow, overlay: structures.overlay)
        areaExtent = street.areas.extent
        venueCategorySlots = Self.venueCategorySlots(places, street.stored)
        overlayCategorySlots = structures.overlay.map { Self.venueCategorySlots(places, $0.level) } ?? [:]
        qualifierForms = Self.qualifierForms(places)
        (areaRows, areaOfAreaRow) = Self.areaRows(places, street.areas, masked: street.maskedRows)
    }

    /// Each category's name from its tree's first venue.
    private static func venueCategorySlots(_ places: PlaceTable, _ street: StreetLevel) -> [String: Range<Int>] {
        Dictionary(uniqueKeysWithValues: zip(street.categoryStart, street.categoryStart.dropFirst()).compactMap { lo, hi in
            lo < hi ? (places.category(street.venueRows.lowerBound + Int(street.venuesByCategory.place(atSlot: Int(lo)))) ?? "", Int(lo)..<Int(hi)) : nil
        })
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
    private static func areaRows(_ places: PlaceTable, _ areas: AreaIndex, masked: RowMask) -> ([Int32], [Int]) {
        var areaOfRow: [Int32: Int] = [:], areaOfID: [String: Int] = [:]
        for (a, area) in areas.areas.enumerated() {
            if areas.twins[a] >= 0 { areaOfRow[areas.twins[a]] = a } else { areaOfID[area.id] = a }
        }
        for i in places.geonamesCount..<places.count where (places.rowKind(i) == .area || places.rowKind(i) == .postcode) && !masked.contains(i) {
            if let id = places.extras(i)?.id, let a = areaOfID[id] { areaOfRow[Int32(i)] = a }
        }
        let rows = areaOfRow.keys.sorted()
        return (rows, rows.map { areaOfRow[$0]! })
    }

    /// Street-level row `row`'s town as its address names it, folded; nil for none (and for a GeoNames row).
    func streetTown(_ row: Int) -> String? {
        guard row >= firstStreetLevelRow else { return nil }
        return street.withLevel(ofRow: row) { level, r in
            let towns = level.lookups.townOfRow
            guard r < towns.count, towns[r] >= 0 else { return nil }
            return level.lookups.townNames[Int(towns[r])]
        }
    }

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
