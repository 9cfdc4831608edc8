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

    /// Builds from the rows already appended to `places` (venue, address and street rows) and the street lines.
    init(places: PlaceTable, addressPoints: [(row: Int, point: Coordinate)], streetLines: [(row: Int, points: [Coordinate])],
         features: [MapFeature], areas: AreaIndex) {
        self.areas = areas
        // The map's shapes need none of the trees: made on another core meanwhile.
        let shapes = Background { StreetMapShapes(features: features) }
        func rows(_ kind: PlaceTable.RowKind) -> Range<Int> {
            let all = places.kind.indices.filter { places.rowKind($0) == kind }
            return (all.first ?? 0)..<((all.last ?? -1) + 1)
        }
        venueRows = rows(.venue)
        addressRows = rows(.address)
        venues = SpatialIndex(latitudes: places.latitude[venueRows], longitudes: places.longitude[venueRows])
        let categories = venueRows.map { places.category($0) ?? "" }
        let names = Array(Set(categories)).sorted()
        let number = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        let grouped = groupedByKey(categories.map { number[$0]! }, keyCount: names.count), firstVenue = venueRows.lowerBound
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

/// Street lines and building outlines, for drawing; found by bounding box. Kept flat, as the structures file
/// holds them (in an open index, its mapped columns): a feature is made into a `MapFeature` only when a view asks
/// for it, so opening a country's streets reads no shape one by one.
struct StreetMapShapes: Sendable {
    /// Per feature, streets first: 0 a street, 1 a building.
    let kinds: Column<UInt8>
    /// Per feature, its lines (a building's rings); per line, its points.
    let lineCounts: Column<UInt32>, pointCounts: Column<UInt32>
    /// Latitude, longitude of every point, line after line.
    let coordinates: Column<Double>
    /// Per feature, its id, category and name (`PlaceTable.appendExtras`), read through `labels.extras`.
    let labels: PlaceTable
    /// Where each feature's lines start (`lineStart[f] ..< lineStart[f + 1]`), and each line's points.
    let lineStart: [Int32], pointStart: [Int32]
    /// south, west, north, east per feature.
    let boxes: [BoundingBox]
    /// The boxes by grid cell, so neither a point nor a view scans every feature.
    let grid: BoxGrid

    /// From an import's features: streets first, so that a limit keeps the streets.
    init(features: [MapFeature]) {
        var kinds: [UInt8] = [], lineCounts: [UInt32] = [], pointCounts: [UInt32] = [], coordinates: [Double] = []
        var text: [UInt8] = [], textStart: [UInt32] = [0]
        // Sized up front and filled in two passes (streets, then the rest) rather than from a sorted copy: at
        // country size the features and their flat copy are most of an import's peak.
        coordinates.reserveCapacity(2 * features.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.count } })
        for streets in [true, false] {
            for f in features where (f.kind == .street) == streets {
                kinds.append(streets ? 0 : 1)
                lineCounts.append(UInt32(f.lines.count))
                for line in f.lines {
                    pointCounts.append(UInt32(line.count))
                    for c in line { coordinates.append(c.latitude); coordinates.append(c.longitude) }
                }
                PlaceTable.appendExtras(to: &text, id: f.id, category: f.category, address: Address(street: f.name))
                textStart.append(UInt32(text.count))
            }
        }
        self.init(kinds: Column(kinds), lineCounts: Column(lineCounts), pointCounts: Column(pointCounts), coordinates: Column(coordinates),
                  text: Column(text), textStart: Column(textStart))
    }

    /// From the columns; they must agree (`decode` checks).
    private init(kinds: Column<UInt8>, lineCounts: Column<UInt32>, pointCounts: Column<UInt32>, coordinates: Column<Double>,
                 text: Column<UInt8>, textStart: Column<UInt32>) {
        self.kinds = kinds; self.lineCounts = lineCounts; self.pointCounts = pointCounts; self.coordinates = coordinates
        labels = PlaceTable(geonameID: [], latitude: [], longitude: [], population: [], country: [], admin1: [],
                            nameStart: [0], nameBytes: [], kind: [], extraStart: textStart, extraBytes: text, countries: [], admin1s: [])
        var lineStart: [Int32] = [0], pointStart: [Int32] = [0], boxes: [BoundingBox] = []
        lineStart.reserveCapacity(kinds.count + 1); pointStart.reserveCapacity(pointCounts.count + 1); boxes.reserveCapacity(kinds.count)
        for n in lineCounts { lineStart.append(lineStart[lineStart.count - 1] + Int32(n)) }
        for n in pointCounts { pointStart.append(pointStart[pointStart.count - 1] + Int32(n)) }
        for f in 0..<kinds.count {
            let points = Int(pointStart[Int(lineStart[f])])..<Int(pointStart[Int(lineStart[f + 1])])
            boxes.append(BoundingBox(covering: points.lazy.map { Self.point($0, of: coordinates) }) ?? BoundingBox(south: 0, west: 0, north: 0, east: 0))
        }
        self.lineStart = lineStart; self.pointStart = pointStart; self.boxes = boxes
        grid = BoxGrid(boxes: boxes)
    }

    /// How many features there are.
    var count: Int { kinds.count }

    /// Whether feature `f` is a building (else a street).
    func isBuilding(_ f: Int) -> Bool { kinds[f] == 1 }

    /// Point `p` (an index into the points of every line).
    private func point(_ p: Int) -> Coordinate { Self.point(p, of: coordinates) }

    private static func point(_ p: Int, of coordinates: Column<Double>) -> Coordinate {
        Coordinate(latitude: coordinates[2 * p], longitude: coordinates[2 * p + 1])
    }

    /// Whether a point is inside feature `f`'s outline (even-odd rule over its rings; lat/lon as a plane,
    /// fine at building size).
    func contains(_ c: Coordinate, feature f: Int) -> Bool {
        var inside = false
        for line in Int(lineStart[f])..<Int(lineStart[f + 1]) {
            let ring = Int(pointStart[line])..<Int(pointStart[line + 1])
            guard ring.count >= 3 else { continue }
            var j = ring.upperBound - 1
            for i in ring {
                let a = point(i), b = point(j)
                if (a.latitude > c.latitude) != (b.latitude > c.latitude),
                   c.longitude < (b.longitude - a.longitude) * (c.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude {
                    inside.toggle()
                }
                j = i
            }
        }
        return inside
    }

    /// Feature `f` as an answer.
    func feature(_ f: Int) -> MapFeature {
        let lines = (Int(lineStart[f])..<Int(lineStart[f + 1])).map { line in
            (Int(pointStart[line])..<Int(pointStart[line + 1])).map(point)
        }
        let extras = labels.extras(f)
        return MapFeature(kind: isBuilding(f) ? .building : .street, id: extras?.id ?? "", name: extras?.address.street,
                          category: extras?.category, lines: lines)
    }

    func features(in box: BoundingBox, limit: Int) -> [MapFeature] {
        var found: [MapFeature] = []
        let candidates: [Int] = grid.candidates(overlapping: box)?.map { Int($0) } ?? Array(boxes.indices)
        for i in candidates where boxes[i].south <= box.north && boxes[i].north >= box.south
            && boxes[i].west <= box.east && boxes[i].east >= box.west {
            found.append(feature(i))
            if found.count == limit { break }
        }
        return found
    }

    func blobs() -> [StoredArray] {
        [StoredArray("map.kind", kinds), StoredArray("map.line_count", lineCounts),
         StoredArray("map.point_count", pointCounts), StoredArray("map.coordinates", coordinates),
         StoredArray("map.text", labels.extraBytes), StoredArray("map.text_start", labels.extraStart)]
    }

    static func decode(_ blobs: MappedStructures) throws(PindropError) -> StreetMapShapes {
        let kinds: Column<UInt8> = try blobs.column("map.kind"), lineCounts: Column<UInt32> = try blobs.column("map.line_count")
        let pointCounts: Column<UInt32> = try blobs.column("map.point_count"), coordinates: Column<Double> = try blobs.column("map.coordinates")
        let text: Column<UInt8> = try blobs.column("map.text"), textStart: Column<UInt32> = try blobs.column("map.text_start")
        guard kinds.count == lineCounts.count, textStart.count == kinds.count + 1, kinds.allSatisfy({ $0 <= 1 }),
              lineCounts.reduce(0, { $0 + Int($1) }) == pointCounts.count, pointCounts.reduce(0, { $0 + Int($1) }) * 2 == coordinates.count,
              coordinates.count < Int(Int32.max), Int(textStart.last ?? 0) == text.count,
              zip(textStart, textStart.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw .indexUnavailable("the index is corrupt: street map shapes do not agree")
        }
        return StreetMapShapes(kinds: kinds, lineCounts: lineCounts, pointCounts: pointCounts, coordinates: coordinates,
                               text: text, textStart: textStart)
    }
}
