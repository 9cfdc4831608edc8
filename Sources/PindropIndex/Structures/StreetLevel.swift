import Foundation
import PindropCore

/// The street-level part of the index (OpenStreetMap): spatial trees over venues, address points and points
/// along streets (every ~10 m, so "nearest street" is a point query), and the street and building shapes
/// handed to the web map. The rows themselves live in the `PlaceTable`, after the GeoNames rows.
struct StreetLevel: Sendable {
    /// Rows of each kind, contiguous in the place table.
    var venueRows: Range<Int>
    var addressRows: Range<Int>
    var venues: SpatialIndex
    /// The venues again, one tree per category (categories sorted by name), the trees one after another; its
    /// places are venue numbers, as `venues`'. Nearby with a category walks only that category's tree.
    var venuesByCategory: SpatialIndex
    /// Where each category's tree starts in `venuesByCategory` (one entry more than categories).
    var categoryStart: Column<Int32>
    /// Every tagged address point (several may share one address: the shops of one building).
    var addresses: SpatialIndex
    /// The address row of each address point.
    var addressPointRow: Column<Int32>
    var streetPoints: SpatialIndex
    /// The street row of each street point.
    var streetPointRow: Column<Int32>
    var map: StreetMapShapes
    /// For each map feature, where its slots start in `buildingSlots` (one entry more than features).
    var buildingSlotStart: Column<Int32>
    /// Building after building, the slots in `addresses` of the address points inside it: its own (at its
    /// centroid) and those of its shops and entrances.
    var buildingSlots: Column<Int32>
    /// Boundaries, postcode areas and places drawn as polygons.
    var areas: AreaIndex
    /// What queries look the rows up by.
    var lookups: Lookups

    /// What queries look street-level rows up by: made by the import and stored, so that opening reads none of the rows.
    struct Lookups: Sendable {
        /// Each street-level row's town as its address names it, folded, as a number into `townNames` (-1: none), so
        /// "Aleksanterinkatu 52, Helsinki" narrows by town; row r is the index's row `firstRow + r`.
        var townOfRow: Column<Int32>
        var townNames: [String]
        /// The rows by their OSM id ("osm:way/122595241"), sorted, each its `idKey` with the index's row in the low 32
        /// bits: a row is found by id with a binary search instead of reading every row's id.
        var rowsByID: Column<UInt64>
        /// The points laid along each street (slots in `streetPoints`), by row: row r's are
        /// `pointSlots[pointStart[r] ..< pointStart[r + 1]]`.
        var pointStart: Column<Int32>, pointSlots: Column<Int32>
        /// Everything street-level, widened by ~1 km: outside it no street-level answer can be within reach (nil: no rows).
        var coverage: BoundingBox?

        static let empty = Lookups(townOfRow: [], townNames: [], rowsByID: [], pointStart: [0], pointSlots: [], coverage: nil)

        /// The high 32 bits of an id's FNV-1a hash, in the high half of a key.
        static func idKey(_ id: String) -> UInt64 { StructureFile.fnv1a(id.utf8) & idKeyBits }
        static let idKeyBits: UInt64 = 0xFFFF_FFFF_0000_0000
    }

    static let empty = StreetLevel(venueRows: 0..<0, addressRows: 0..<0, venues: SpatialIndex(latitudes: [], longitudes: []),
                                   venuesByCategory: SpatialIndex(latitudes: [], longitudes: []), categoryStart: [0],
                                   addresses: SpatialIndex(latitudes: [], longitudes: []), addressPointRow: [],
                                   streetPoints: SpatialIndex(latitudes: [], longitudes: []), streetPointRow: [],
                                   map: StreetMapShapes(features: []), buildingSlotStart: [0], buildingSlots: [], areas: .empty, lookups: .empty)

    var isEmpty: Bool { venueRows.isEmpty && addressRows.isEmpty && streetPointRow.isEmpty && areas.isEmpty }

    /// Spacing of the points laid along streets, metres.
    static let streetPointSpacing = 10.0

    init(venueRows: Range<Int>, addressRows: Range<Int>, venues: SpatialIndex, venuesByCategory: SpatialIndex, categoryStart: Column<Int32>,
         addresses: SpatialIndex, addressPointRow: Column<Int32>, streetPoints: SpatialIndex, streetPointRow: Column<Int32>, map: StreetMapShapes,
         buildingSlotStart: Column<Int32>, buildingSlots: Column<Int32>, areas: AreaIndex, lookups: Lookups) {
        self.areas = areas; self.lookups = lookups
        self.buildingSlotStart = buildingSlotStart; self.buildingSlots = buildingSlots
        self.venueRows = venueRows; self.addressRows = addressRows; self.venues = venues; self.addresses = addresses
        self.venuesByCategory = venuesByCategory; self.categoryStart = categoryStart
        self.addressPointRow = addressPointRow
        self.streetPoints = streetPoints; self.streetPointRow = streetPointRow; self.map = map
    }

    /// The address of the building a point is inside, if that building has any: the nearest of the addresses
    /// tagged in it, as a corner or block building has one per street door. Its row and distance. Buildings `skipping`
    /// holds are passed over.
    func buildingAddress(at c: Coordinate, skipping: RowMask = .none) -> (row: Int, meters: Double)? {
        for f in map.grid.candidates(at: c).lazy.map({ Int($0) }) where buildingSlotStart[f] < buildingSlotStart[f + 1]
            && !skipping.contains(f) && map.box(f).contains(c) && map.contains(c, feature: f) {
            let (qx, qy, qz) = Geo.unitVector(latitude: c.latitude, longitude: c.longitude)
            var best = 0, bestD2 = Double.infinity
            for i in Int(buildingSlotStart[f])..<Int(buildingSlotStart[f + 1]) {
                let slot = Int(buildingSlots[i]), d2 = addresses.nodes[slot].distance2(qx, qy, qz)
                if d2 < bestD2 { best = slot; bestD2 = d2 }
            }
            return (Int(addressPointRow[Int(addresses.place(atSlot: best))]), Geo.meters(forUnitChord: bestD2.squareRoot()))
        }
        return nil
    }

    /// The nearest address point within `meters` whose row `skipping` does not hold: its row and distance.
    func nearestAddress(to c: Coordinate, within meters: Double, skipping: RowMask = .none) -> (row: Int, meters: Double)? {
        Self.nearest(in: addresses, to: c, within: meters, skipping: skipping) { Int(addressPointRow[$0]) }
    }

    /// The nearest street within `meters` (measured to the nearest point laid along it) whose row `skipping` does not hold.
    func nearestStreet(to c: Coordinate, within meters: Double, skipping: RowMask = .none) -> (row: Int, meters: Double)? {
        Self.nearest(in: streetPoints, to: c, within: meters, skipping: skipping) { Int(streetPointRow[$0]) }
    }

    /// The nearest point of `tree` within `meters` whose row (`row` of its place) `skipping` does not hold: the nearest
    /// point, else the nearest few, more each time (a mask holds few rows, and seldom the nearest).
    private static func nearest(in tree: SpatialIndex, to c: Coordinate, within meters: Double, skipping: RowMask,
                                row: (Int) -> Int) -> (row: Int, meters: Double)? {
        guard let hit = tree.nearest(latitude: c.latitude, longitude: c.longitude) else { return nil }
        var found: (row: Int, chord2: Double)? = (row(Int(hit.place)), hit.chord2)
        if let f = found, skipping.contains(f.row) {
            found = nil
            var k = 8
            while found == nil {
                let hits = tree.nearest(latitude: c.latitude, longitude: c.longitude, k: k)
                if let h = hits.first(where: { !skipping.contains(row(Int($0.place))) }) { found = (row(Int(h.place)), h.chord2) }
                if hits.count < k || Geo.meters(forUnitChord: (hits.last?.chord2 ?? 0).squareRoot()) > meters { break }
                k *= 8
            }
        }
        guard let found else { return nil }
        let d = Geo.meters(forUnitChord: found.chord2.squareRoot())
        return d <= meters ? (found.row, d) : nil
    }

    /// The stored street level of the index's rows `rows` (those after the GeoNames ones). Opening checks what costs
    /// nothing per value (`valuesAreValid` checks the rest).
    static func decode(_ blobs: MappedStructures, rows streetRows: Range<Int>) throws(PindropError) -> StreetLevel {
        guard blobs.has("street.rows") else { return .empty }
        let rows: [Int64] = try blobs.array("street.rows")
        guard rows.count == 4, rows.allSatisfy({ $0 >= 0 && $0 <= streetRows.upperBound }), rows[0] <= rows[1], rows[2] <= rows[3] else {
            throw .indexUnavailable("the index is corrupt: street-level rows out of range")
        }
        let coverage: [Double] = try blobs.array("street.coverage")
        let townText: Column<UInt8> = try blobs.column("street.town_text"), townTextStart: Column<UInt32> = try blobs.column("street.town_text_start")
        guard townTextStart.first == 0, Int(townTextStart.last ?? 1) == townText.count, townTextStart.isAscending,
              coverage.count == 0 || coverage.count == 4 else {
            throw .indexUnavailable("the index is corrupt: street-level lookups do not agree")
        }
        let lookups = Lookups(
            townOfRow: try blobs.column("street.town_of_row"),
            townNames: zip(townTextStart, townTextStart.dropFirst()).map { String(decoding: townText[Int($0)..<Int($1)], as: UTF8.self) },
            rowsByID: try blobs.column("street.rows_by_id"),
            pointStart: try blobs.column("street.point_start"), pointSlots: try blobs.column("street.point_slots"),
            coverage: coverage.isEmpty ? nil : BoundingBox(south: coverage[0], west: coverage[1], north: coverage[2], east: coverage[3]))
        let level = StreetLevel(
            venueRows: Int(rows[0])..<Int(rows[1]), addressRows: Int(rows[2])..<Int(rows[3]),
            venues: SpatialIndex(nodes: try blobs.column("street.venues.nodes")),
            venuesByCategory: SpatialIndex(nodes: try blobs.column("street.category_venues.nodes")),
            categoryStart: try blobs.column("street.category_start"),
            addresses: SpatialIndex(nodes: try blobs.column("street.addresses.nodes")),
            addressPointRow: try blobs.column("street.address_point_row"),
            streetPoints: SpatialIndex(nodes: try blobs.column("street.points.nodes")),
            streetPointRow: try blobs.column("street.point_row"),
            map: try StreetMapShapes.decode(blobs),
            buildingSlotStart: try blobs.column("street.building_slot_start"),
            buildingSlots: try blobs.column("street.building_slots"),
            areas: try AreaIndex.decode(blobs), lookups: lookups)
        let l = level.lookups
        guard level.venues.count == level.venueRows.count, level.venuesByCategory.count == level.venues.count,
              level.categoryStart.first == 0, level.categoryStart.last.map({ Int($0) == level.venues.count }) == true,
              level.categoryStart.isAscending,
              level.addresses.count == level.addressPointRow.count,
              level.streetPoints.count == level.streetPointRow.count,
              level.buildingSlotStart.count == level.map.count + 1, level.buildingSlotStart.first == 0,
              level.buildingSlotStart.last.map({ Int($0) == level.buildingSlots.count }) == true,
              l.townOfRow.count == streetRows.count, l.rowsByID.count <= streetRows.count,
              l.pointStart.count == streetRows.count + 1, l.pointStart.first == 0, Int(l.pointStart.last!) == l.pointSlots.count,
              l.pointSlots.count == level.streetPoints.count else {
            throw .indexUnavailable("the index is corrupt: street-level structures do not agree")
        }
        return level
    }

    /// Whether every value is in range (its trees' nodes, the rows and slots its columns name, ascending offsets): a
    /// pass over all of them, which an import makes of what it wrote. `rows`: the index's street-level rows.
    func valuesAreValid(rows: Range<Int>) -> Bool {
        let l = lookups
        return [venues, venuesByCategory, addresses, streetPoints].allSatisfy { $0.nodesAreValid(places: $0.count) }
            && addressPointRow.allSatisfy { addressRows.contains(Int($0)) }
            && streetPointRow.allSatisfy { rows.contains(Int($0)) }
            && buildingSlotStart.isAscending && buildingSlots.allSatisfy { $0 >= 0 && Int($0) < addresses.count }
            && map.valuesAreValid()
            && l.townOfRow.allSatisfy { $0 >= -1 && Int($0) < l.townNames.count }
            && l.rowsByID.allSatisfy { rows.contains(Int($0 & 0xFFFF_FFFF)) } && l.rowsByID.isAscending
            && l.pointStart.isAscending && l.pointSlots.allSatisfy { $0 >= 0 && Int($0) < streetPoints.count }
    }
}
