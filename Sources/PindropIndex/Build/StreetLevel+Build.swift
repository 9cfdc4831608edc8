import Foundation
import PindropCore

/// Making the street level from an import's rows, and its stored form.
extension StreetLevel {
    /// Builds from the street-level rows (`places`, row r of it the index's row `firstRow + r`: venue, address and
    /// street rows) and the street lines (their rows the index's).
    init(places: PlaceTable, firstRow: Int, addressPoints: [(row: Int, point: Coordinate)], streetLines: [(row: Int, points: [Coordinate])],
         features: [MapFeature], areas: AreaIndex) {
        self.areas = areas
        // The map's shapes and what the lookups read from the rows need none of the trees: made meanwhile.
        let shapes = Background { StreetMapShapes(features: features) }
        let ofRows = Background { Lookups.ofRows(places, firstRow: firstRow) }
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
            Self.forEachPoint(along: line.points) { lats.append($0); lons.append($1); owners.append(Int32(line.row)) }
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
                && map.box(Int(f)).contains(a.point) && map.contains(a.point, feature: Int(f)) {
                pairs.append((f, slotOfPoint[i]))
            }
        }
        let (start, order) = groupedByKey(pairs.map { Int($0.feature) }, keyCount: map.count)
        buildingSlotStart = Column(start)
        buildingSlots = Column(order.map { pairs[Int($0)].slot })
        lookups = Lookups(places: places, firstRow: firstRow, ofRows: ofRows.wait(), streetPoints: streetPoints,
                          streetPointRow: streetPointRow, map: map)
    }

    /// The points laid along a street's line, `streetPointSpacing` apart or less, its ends included: their latitude
    /// and longitude.
    static func forEachPoint(along line: [Coordinate], _ body: (Double, Double) -> Void) {
        for (a, b) in zip(line, line.dropFirst()) {
            let steps = max(1, Int((a.distance(to: b) / streetPointSpacing).rounded(.up)))
            for s in 0..<steps {
                let t = Double(s) / Double(steps)
                body(a.latitude + (b.latitude - a.latitude) * t, a.longitude + (b.longitude - a.longitude) * t)
            }
        }
        if let last = line.last { body(last.latitude, last.longitude) }
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
        return blobs + lookups.blobs()
    }
}

extension StreetLevel.Lookups {
    /// The lookups of a street level's rows (`places`, row r of it the index's row `firstRow + r`; `ofRows` what
    /// `ofRows(_:firstRow:)` read of them), the points laid along its streets (with the index's row of each) and its
    /// map's shapes.
    init(places: PlaceTable, firstRow: Int, ofRows: RowLookups, streetPoints: SpatialIndex, streetPointRow: Column<Int32>,
         map: StreetMapShapes) {
        let (townOfRow, townNames, byID) = ofRows
        // Street points grouped by their street's row (a counting sort), so a street's distance is a scan of its own points.
        let rowOfSlot = streetPoints.nodes.map { Int(streetPointRow[Int($0.place)]) - firstRow }
        let (pointStart, pointSlots) = groupedByKey(rowOfSlot, keyCount: places.count)
        let rows = (0..<places.count).map { Coordinate(latitude: places.latitude[$0], longitude: places.longitude[$0]) }
        let corners = (0..<map.count).flatMap { f in
            let b = map.box(f)
            return [Coordinate(latitude: b.south, longitude: b.west), Coordinate(latitude: b.north, longitude: b.east)]
        }
        let coverage = BoundingBox(covering: rows + corners).map {
            BoundingBox(south: $0.south - 0.01, west: $0.west - 0.02, north: $0.north + 0.01, east: $0.east + 0.02)
        }
        self.init(townOfRow: Column(townOfRow), townNames: townNames, rowsByID: Column(byID), pointStart: Column(pointStart),
                  pointSlots: Column(pointSlots), coverage: coverage)
    }

    /// Each row's town (a number into the town names, -1 for none), the town names, and the rows by id, sorted.
    typealias RowLookups = (townOfRow: [Int32], townNames: [String], byID: [UInt64])

    /// What the lookups read from the rows alone (`places`, row r of it the index's row `firstRow + r`), made while
    /// the trees are built.
    static func ofRows(_ places: PlaceTable, firstRow: Int) -> RowLookups {
        var townOfRow: [Int32] = [], townNames: [String] = [], numbers: [String: Int32] = [:], byID: [UInt64] = []
        townOfRow.reserveCapacity(places.count)
        byID.reserveCapacity(places.count)
        for r in 0..<places.count {
            guard let extras = places.extras(r) else { townOfRow.append(-1); continue }
            // Each town folded once: thousands of rows share one.
            if let town = extras.address.town {
                if numbers[town] == nil {
                    numbers[town] = Int32(townNames.count)
                    townNames.append(TextFolding.fold(town))
                }
                townOfRow.append(numbers[town]!)
            } else {
                townOfRow.append(-1)
            }
            byID.append(Self.idKey(extras.id) | UInt64(firstRow + r))
        }
        // Rows sharing an id (a street cut at a town boundary) sort by row: the first one answers.
        byID.sort()
        return (townOfRow, townNames, byID)
    }

    func blobs() -> [StoredArray] {
        var text: [UInt8] = [], textStart: [UInt32] = [0]
        for name in townNames {
            text += name.utf8
            textStart.append(UInt32(text.count))
        }
        return [StoredArray("street.town_of_row", townOfRow), StoredArray("street.town_text", text), StoredArray("street.town_text_start", textStart),
                StoredArray("street.rows_by_id", rowsByID), StoredArray("street.point_start", pointStart),
                StoredArray("street.point_slots", pointSlots),
                StoredArray("street.coverage", coverage.map { [$0.south, $0.west, $0.north, $0.east] } ?? [])]
    }
}
