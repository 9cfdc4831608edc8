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

    static let empty = StreetLevel(venueRows: 0..<0, addressRows: 0..<0, venues: SpatialIndex(latitudes: [], longitudes: []),
                                   venuesByCategory: SpatialIndex(latitudes: [], longitudes: []), categoryStart: [0],
                                   addresses: SpatialIndex(latitudes: [], longitudes: []), addressPointRow: [],
                                   streetPoints: SpatialIndex(latitudes: [], longitudes: []), streetPointRow: [],
                                   map: StreetMapShapes(features: []), buildingSlotStart: [0], buildingSlots: [], areas: .empty)

    var isEmpty: Bool { venueRows.isEmpty && addressRows.isEmpty && streetPointRow.isEmpty && areas.isEmpty }

    /// Spacing of the points laid along streets, metres.
    static let streetPointSpacing = 10.0

    init(venueRows: Range<Int>, addressRows: Range<Int>, venues: SpatialIndex, venuesByCategory: SpatialIndex, categoryStart: Column<Int32>,
         addresses: SpatialIndex, addressPointRow: Column<Int32>, streetPoints: SpatialIndex, streetPointRow: Column<Int32>, map: StreetMapShapes,
         buildingSlotStart: Column<Int32>, buildingSlots: Column<Int32>, areas: AreaIndex) {
        self.areas = areas
        self.buildingSlotStart = buildingSlotStart; self.buildingSlots = buildingSlots
        self.venueRows = venueRows; self.addressRows = addressRows; self.venues = venues; self.addresses = addresses
        self.venuesByCategory = venuesByCategory; self.categoryStart = categoryStart
        self.addressPointRow = addressPointRow
        self.streetPoints = streetPoints; self.streetPointRow = streetPointRow; self.map = map
    }

    /// The address of the building a point is inside, if that building has any: the nearest of the addresses
    /// tagged in it, as a corner or block building has one per street door. Its row and distance.
    func buildingAddress(at c: Coordinate) -> (row: Int, meters: Double)? {
        for f in map.grid.candidates(at: c).lazy.map({ Int($0) }) where buildingSlotStart[f] < buildingSlotStart[f + 1]
            && map.boxes[f].contains(c) && map.contains(c, feature: f) {
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

    /// The nearest address point within `meters`: its row and distance.
    func nearestAddress(to c: Coordinate, within meters: Double) -> (row: Int, meters: Double)? {
        guard let hit = addresses.nearest(latitude: c.latitude, longitude: c.longitude) else { return nil }
        let d = Geo.meters(forUnitChord: hit.chord2.squareRoot())
        return d <= meters ? (Int(addressPointRow[Int(hit.place)]), d) : nil
    }

    /// The nearest street within `meters` (measured to the nearest point laid along it).
    func nearestStreet(to c: Coordinate, within meters: Double) -> (row: Int, meters: Double)? {
        guard let hit = streetPoints.nearest(latitude: c.latitude, longitude: c.longitude) else { return nil }
        let d = Geo.meters(forUnitChord: hit.chord2.squareRoot())
        return d <= meters ? (Int(streetPointRow[Int(hit.place)]), d) : nil
    }

    static func decode(_ blobs: MappedStructures, placeCount: Int) throws(PindropError) -> StreetLevel {
        guard blobs.has("street.rows") else { return .empty }
        func tree(_ name: String) throws(PindropError) -> SpatialIndex {
            let tree = SpatialIndex(nodes: try blobs.column("street.\(name).nodes"))
            guard tree.nodesAreValid(places: tree.count) else {
                throw .indexUnavailable("the index is corrupt: street-level structures do not agree")
            }
            return tree
        }
        let rows: [Int64] = try blobs.array("street.rows")
        guard rows.count == 4, rows.allSatisfy({ $0 >= 0 && $0 <= placeCount }), rows[0] <= rows[1], rows[2] <= rows[3] else {
            throw .indexUnavailable("the index is corrupt: street-level rows out of range")
        }
        let level = StreetLevel(
            venueRows: Int(rows[0])..<Int(rows[1]), addressRows: Int(rows[2])..<Int(rows[3]),
            venues: try tree("venues"), venuesByCategory: try tree("category_venues"), categoryStart: try blobs.column("street.category_start"),
            addresses: try tree("addresses"),
            addressPointRow: try blobs.column("street.address_point_row"),
            streetPoints: try tree("points"),
            streetPointRow: try blobs.column("street.point_row"),
            map: try StreetMapShapes.decode(blobs),
            buildingSlotStart: try blobs.column("street.building_slot_start"),
            buildingSlots: try blobs.column("street.building_slots"),
            areas: try AreaIndex.decode(blobs))
        guard level.venues.count == level.venueRows.count, level.venuesByCategory.count == level.venues.count,
              level.categoryStart.first == 0, level.categoryStart.last.map({ Int($0) == level.venues.count }) == true,
              zip(level.categoryStart, level.categoryStart.dropFirst()).allSatisfy({ $0 <= $1 }),
              level.addresses.count == level.addressPointRow.count,
              level.addressPointRow.allSatisfy({ level.addressRows.contains(Int($0)) }),
              level.streetPoints.count == level.streetPointRow.count,
              level.buildingSlotStart.count == level.map.count + 1, level.buildingSlotStart.first == 0,
              zip(level.buildingSlotStart, level.buildingSlotStart.dropFirst()).allSatisfy({ $0 <= $1 }),
              level.buildingSlotStart.last.map({ Int($0) == level.buildingSlots.count }) == true,
              level.buildingSlots.allSatisfy({ $0 >= 0 && Int($0) < level.addresses.count }),
              level.streetPointRow.allSatisfy({ $0 >= 0 && Int($0) < placeCount }) else {
            throw .indexUnavailable("the index is corrupt: street-level structures do not agree")
        }
        return level
    }
}
