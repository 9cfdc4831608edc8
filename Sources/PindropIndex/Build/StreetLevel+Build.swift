import Foundation
import PindropCore

/// Making the street level from an import's rows, and its stored form.
extension StreetLevel {
    /// Builds from the street-level rows (`places`, row r of it the index's row `firstRow + r`: venue, address and
    /// street rows) and the street lines (their rows the index's).
    init(places: PlaceTable, firstRow: Int, addressPoints: [(row: Int, point: Coordinate)], streetLines: [(row: Int, points: [Coordinate])],
         features: [MapFeature], areas: AreaIndex) {
        self.areas = areas
        // The map's shapes need none of the trees: made on another core meanwhile.
        let shapes = Background { StreetMapShapes(features: features) }
        func rows(_ kind: PlaceTable.RowKind) -> Range<Int> {
            let all = places.kind.indices.filter { places.rowKind($0) == kind }
            return (all.first ?? 0)..<((all.last ?? -1) + 1)
        }
        func inIndex(_ rows: Range<Int>) -> Range<Int> { rows.isEmpty ? 0..<0 : (firstRow + rows.lowerBound)..<(firstRow + rows.upperBound) }
        let venueTableRows = rows(.venue)
        venueRows = inIndex(venueTableRows)
        addressRows = inIndex(rows(.address))
        venues = SpatialIndex(latitudes: places.latitude[venueTableRows], longitudes: places.longitude[venueTableRows])
        let categories = venueTableRows.map { places.category($0) ?? "" }
        let names = Array(Set(categories)).sorted()
        let number = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        let grouped = groupedByKey(categories.map { number[$0]! }, keyCount: names.count), firstVenue = venueTableRows.lowerBound
        venuesByCategory = SpatialIndex(concatenating: names.indices.map { k in
            let own = Array(grouped.order[Int(grouped.start[k])..<Int(grouped.start[k + 1])])
            let rows = own.map { firstVenue + Int($0) }
            return (SpatialIndex(latitudes: rows.map { places.latitude[$0] }, longitudes: rows.map { places.longitude[$0] }), own)
        })
        categoryStart = Column(grouped.start)
        addresses = SpatialIndex(latitudes: addressPoints.map(\.point.latitude), longitudes: addressPoints.map(\.point.longitude))
        addressPointRow = Column(addressPoints.map { Int32($0.row) })
        var lats: [Double] = [], lons: [Double] = [], owners: [Int32] = []
        for line in streetLines {
            for (a, b) in zip(line.points, line.points.dropFirst()) {
                let steps = max(1, Int((a.distance(to: b) / Self.streetPointSpacing).rounded(.up)))
                for s in 0..<steps {
                    let t = Double(s) / Double(steps)
                    lats.append(a.latitude + (b.latitude - a.latitude) * t)
                    lons.append(a.longitude + (b.longitude - a.longitude) * t)
                    owners.append(Int32(line.row))
                }
            }
            if let last = line.points.last { lats.append(last.latitude); lons.append(last.longitude); owners.append(Int32(line.row)) }
        }
        streetPoints = SpatialIndex(latitudes: lats, longitudes: lons)
        streetPointRow = Column(owners)
        let map = shapes.wait()
        self.map = map
        let slotOfPoint = addresses.slotOfPlace()
        // Each address point meets only the buildings of its grid cell; the pairs are then grouped by building
        // (a counting sort, stable, so each building keeps its points in input order).
        var pairs: [(feature: Int32, slot: Int32)] = []
        for (i, a) in addressPoints.enumerated() {
            for f in map.grid.candidates(at: a.point) where map.isBuilding(Int(f))
                && map.boxes[Int(f)].contains(a.point) && map.contains(a.point, feature: Int(f)) {
                pairs.append((f, slotOfPoint[i]))
            }
        }
        let (start, order) = groupedByKey(pairs.map { Int($0.feature) }, keyCount: map.count)
        buildingSlotStart = Column(start)
        buildingSlots = Column(order.map { pairs[Int($0)].slot })
    }

    func blobs() -> [StoredArray] {
        var blobs = map.blobs() + areas.blobs()
        blobs.append(StoredArray("street.rows", [Int64(venueRows.lowerBound), Int64(venueRows.upperBound),
                                                 Int64(addressRows.lowerBound), Int64(addressRows.upperBound)]))
        for (name, tree) in [("venues", venues), ("category_venues", venuesByCategory), ("addresses", addresses), ("points", streetPoints)] {
            blobs.append(StoredArray("street.\(name).nodes", tree.nodes))
        }
        blobs += [StoredArray("street.point_row", streetPointRow), StoredArray("street.address_point_row", addressPointRow),
                  StoredArray("street.building_slot_start", buildingSlotStart), StoredArray("street.building_slots", buildingSlots),
                  StoredArray("street.category_start", categoryStart)]
        return blobs
    }
}
