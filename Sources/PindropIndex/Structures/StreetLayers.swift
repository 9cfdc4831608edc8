import PindropCore

/// What an update lays over the stored street level instead of rebuilding it: the rows that replace stored rows or
/// are new, as a street level of their own (trees, points, map shapes, lookups; rows numbered on from the index's
/// stored rows), and which stored rows and map features no answer may come from any more. Its name entries are the
/// name index's third run (`NameRuns.overlay`). Areas are not laid over: an update that changes them rebuilds.
struct StreetOverlay: Sendable {
    /// The overlay's rows' street level; its `areas` are empty (the stored level's hold).
    let level: StreetLevel
    /// The index's row of the overlay's first row: the number of stored rows.
    let firstRow: Int
    /// The stored street level's rows replaced by one of `level`'s, or gone.
    let maskedRows: RowMask
    /// The stored map's features replaced by one of `level`'s map, or gone.
    let maskedFeatures: RowMask
}

/// The street level an index answers from: the stored one, and the overlay an update laid over it, if any. Every
/// street-level question asks both, leaving out the stored rows and features the overlay masks.
struct StreetLayers: Sendable {
    let stored: StreetLevel
    /// The index's row of the stored level's first row: the number of GeoNames rows.
    let storedFirstRow: Int
    let overlay: StreetOverlay?

    init(stored: StreetLevel, firstRow: Int, overlay: StreetOverlay? = nil) {
        self.stored = stored; self.overlay = overlay; storedFirstRow = firstRow; areas = stored.areas
        maskedRows = overlay?.maskedRows ?? .none
        coverage = [stored.lookups.coverage, overlay?.level.lookups.coverage].compactMap { $0 }.reduce(nil) { box, next in
            box.map { BoundingBox(south: min($0.south, next.south), west: min($0.west, next.west),
                                  north: max($0.north, next.north), east: max($0.east, next.east)) } ?? next
        }
    }

    /// Boundaries, postcode areas and places drawn as polygons (the stored level's: an overlay holds none). Stored,
    /// not computed: a getter would hand each caller a copy, retaining each of its columns.
    let areas: AreaIndex
    var isEmpty: Bool { stored.isEmpty && overlay?.level.isEmpty != false }
    /// Everything street-level, widened by ~1 km (nil: no rows).
    let coverage: BoundingBox?
    /// The stored rows no answer comes from.
    let maskedRows: RowMask

    /// `body` of the level that holds street-level row `row`, and the row's number there (its lookups are by it): the
    /// overlay's rows come after the stored ones. The level is lent, not copied: a copy retains each of its columns.
    func withLevel<T>(ofRow row: Int, _ body: (StreetLevel, Int) -> T) -> T {
        if let first = overlay?.firstRow, row >= first { return body(overlay.unsafelyUnwrapped.level, row - first) }
        return body(stored, row - storedFirstRow)
    }

    /// The address of the building a point is inside (`StreetLevel.buildingAddress`): of the overlay's buildings
    /// first, which are the newer.
    func buildingAddress(at c: Coordinate) -> (row: Int, meters: Double)? {
        guard let overlay else { return stored.buildingAddress(at: c) }
        return overlay.level.buildingAddress(at: c) ?? stored.buildingAddress(at: c, skipping: overlay.maskedFeatures)
    }

    /// The nearest address point within `meters`: its row and distance.
    func nearestAddress(to c: Coordinate, within meters: Double) -> (row: Int, meters: Double)? {
        guard let overlay else { return stored.nearestAddress(to: c, within: meters) }
        return Self.nearer(stored.nearestAddress(to: c, within: meters, skipping: overlay.maskedRows),
                           overlay.level.nearestAddress(to: c, within: meters))
    }

    /// The nearest street within `meters` (to the nearest point laid along it).
    func nearestStreet(to c: Coordinate, within meters: Double) -> (row: Int, meters: Double)? {
        guard let overlay else { return stored.nearestStreet(to: c, within: meters) }
        return Self.nearer(stored.nearestStreet(to: c, within: meters, skipping: overlay.maskedRows),
                           overlay.level.nearestStreet(to: c, within: meters))
    }

    /// The nearer of two answers; the first of two as near.
    private static func nearer(_ a: (row: Int, meters: Double)?, _ b: (row: Int, meters: Double)?) -> (row: Int, meters: Double)? {
        guard let a else { return b }
        guard let b else { return a }
        return b.meters < a.meters ? b : a
    }

    /// The `k` venues nearest `c`, nearest first: their rows and squared chords.
    func nearestVenues(to c: Coordinate, k: Int) -> [(row: Int, chord2: Double)] {
        func nearest(_ level: borrowing StreetLevel, skipping: RowMask) -> [(row: Int, chord2: Double)] {
            let first = level.venueRows.lowerBound
            return level.venues.nearest(latitude: c.latitude, longitude: c.longitude, k: k, asking: k + skipping.count) {
                !skipping.contains(first + Int($0))
            }.map { (row: first + Int($0.place), chord2: $0.chord2) }
        }
        guard let overlay else { return nearest(stored, skipping: .none) }
        return (nearest(stored, skipping: maskedRows) + nearest(overlay.level, skipping: .none))
            .sorted { ($0.chord2, $0.row) < ($1.chord2, $1.row) }.prefix(k).map { $0 }
    }

    /// The venues within `meters` of `centre`: their rows, ascending.
    func venues(within meters: Double, of centre: Coordinate) -> [Int] {
        var hits: [(place: Int32, chord2: Double)] = []
        func rows(_ level: borrowing StreetLevel, skipping: RowMask) -> [Int] {
            hits.removeAll(keepingCapacity: true)
            level.venues.within(centre, meters: meters, into: &hits)
            let first = level.venueRows.lowerBound
            return hits.lazy.map { first + Int($0.place) }.filter { !skipping.contains($0) }.sorted()
        }
        guard let overlay else { return rows(stored, skipping: .none) }
        return rows(stored, skipping: maskedRows) + rows(overlay.level, skipping: .none)
    }

    /// The map's features whose box meets `box` (`StreetMapShapes.features`): the stored ones the overlay leaves, then
    /// the overlay's, streets first, at most `limit`.
    func mapFeatures(in box: BoundingBox, zoom: Int?, limit: Int) -> [MapFeature] {
        guard let overlay else { return stored.map.features(in: box, zoom: zoom, limit: limit) }
        let found = stored.map.features(in: box, zoom: zoom, limit: limit, skipping: overlay.maskedFeatures)
            + overlay.level.map.features(in: box, zoom: zoom, limit: limit)
        // Streets first, as one stored map gives them.
        return Array((found.filter { $0.kind == .street } + found.filter { $0.kind != .street }).prefix(limit))
    }

    /// The streets whose box meets `box` and whose name folds to `folded` (`StreetMapShapes.streets`).
    func mapStreets(named folded: String, in box: BoundingBox) -> [MapFeature] {
        guard let overlay else { return stored.map.streets(named: folded, in: box) }
        return stored.map.streets(named: folded, in: box, skipping: overlay.maskedFeatures) + overlay.level.map.streets(named: folded, in: box)
    }

    /// The row of the place with this id ("osm:way/122595241", "postcode:li:9490") whose extras `hasID` confirms: the
    /// overlay's first, then the stored rows it leaves.
    func row(ofID id: String, hasID: (Int) -> Bool) -> Int? {
        let key = StreetLevel.Lookups.idKey(id)
        func row(in level: borrowing StreetLevel, skipping: RowMask) -> Int? {
            let rows = level.lookups.rowsByID
            let first = firstIndex(in: rows.indices) { rows[$0] >= key }
            // Ids may share a key: each row found is checked by its id.
            for entry in rows[first...].prefix(while: { $0 & StreetLevel.Lookups.idKeyBits == key }) {
                let row = Int(entry & 0xFFFF_FFFF)
                if !skipping.contains(row), hasID(row) { return row }
            }
            return nil
        }
        if let overlay, let found = row(in: overlay.level, skipping: .none) { return found }
        return row(in: stored, skipping: maskedRows)
    }
}
