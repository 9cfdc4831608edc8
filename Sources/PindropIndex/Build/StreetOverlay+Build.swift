import Foundation
import PindropCore

/// Laying changed data over the stored street level: the rows a fresh import of the data makes are matched with the
/// stored ones; those without an equal stored row become the overlay's, and the stored rows left without an equal
/// new one are masked. So the index answers from exactly the rows a fresh import would make.
extension StreetOverlay {
    /// An overlay, its rows (a place table of their own: row r is the index's row `overlay.firstRow + r`) and their
    /// name entries.
    struct Laid {
        var overlay: StreetOverlay
        var places: PlaceTable
        var names: NameIndex
    }

    /// The overlay that makes the index `contents` (its stored street level; an overlay it has is replaced) answer as
    /// a fresh import of the street-level rows `places` would (with their `names` and what `made` holds besides).
    /// Nil when a rebuild is due instead: the areas changed, which an overlay does not hold.
    static func lay(over contents: IndexContents, places: PlaceTable, names: [(primary: [String], alternate: [String])],
                    made: StreetLevelRows.Made) -> Laid? {
        let stored = contents.street.stored
        let firstStored = contents.firstStreetLevelRow, storedEnd = contents.street.overlay?.firstRow ?? contents.places.count
        guard sameBytes(stored.areas.blobs(), made.areas.blobs()) else { return nil }

        // The rows: each stored row is kept by a new row equal to it. The map's features, alike.
        // The rows' records (their points) are freed before the features are matched.
        var rowMatch = { () -> Match in
            let newRows = newRecords(made, places: places, firstRow: firstStored)
            let storedRows = storedRecords(stored, table: contents.places, firstRow: firstStored, rows: storedEnd - firstStored)
            return Match(newKeys: (0..<newRows.count).map(newRows.hash),
                         stored: (0..<storedRows.count).lazy.map { (storedRows.hash($0), firstStored + $0) },
                         equal: { newRows.row($0, equals: $1 - firstStored, of: storedRows) })
        }()
        // A feature is keyed by its kind and outline's start, and compared whole with the stored ones of its key.
        var extras: [UInt8] = []
        var featureMatch = Match(newKeys: made.features.map { FeatureKey($0).hashValue },
                                 stored: (0..<stored.map.count).lazy.map { (FeatureKey(stored.map, $0).hashValue, $0) },
                                 equal: { stored.map.holds(made.features[$0], at: $1, scratch: &extras) })
        closeOverBuildings(&rowMatch, &featureMatch, stored: stored, made: made, firstStored: firstStored)
        let (laid, masked, laidFeatures, maskedFeatures) = (rowMatch.laid, rowMatch.masked, featureMatch.laid, featureMatch.masked)

        // The overlay's rows in the order a fresh import makes them (each kind's rows together), numbered on from the
        // stored rows.
        let rows = laid.sorted()
        var number = [Int: Int](minimumCapacity: rows.count)
        for (n, r) in rows.enumerated() { number[r] = storedEnd + n }
        let own = places.rows(rows)
        let level = StreetLevel(
            places: own, firstRow: storedEnd,
            addressPoints: made.addressPoints.compactMap { a in number[a.row - firstStored].map { ($0, a.point) } },
            streetLines: made.streetLines.compactMap { l in number[l.row - firstStored].map { ($0, l.points) } },
            features: laidFeatures.sorted().map { made.features[$0] }, areas: .empty)
        var entries = NameEntries(keys: [])
        entries.addRows(rows.map { names[$0] }, firstRow: storedEnd, places: own)
        return Laid(overlay: StreetOverlay(level: level, firstRow: storedEnd, maskedRows: RowMask(masked), maskedFeatures: RowMask(maskedFeatures)),
                    places: own, names: entries.index())
    }

    /// A building answers with the address points inside it, of its own level: a building with an address point of
    /// the overlay inside it is the overlay's, and so is every address row with a point inside such a building; a
    /// stored building with a masked address inside it is masked. Widens both matches until that holds.
    private static func closeOverBuildings(_ rows: inout Match, _ features: inout Match, stored: StreetLevel,
                                           made: StreetLevelRows.Made, firstStored: Int) {
        var newOfStored: [Int: Int] = [:]
        for (f, g) in features.keptAs.enumerated() { if let g { newOfStored[g] = f } }
        let inside = NewBuildings(features, newOfStored: newOfStored, stored: stored.map, made: made, firstStored: firstStored)
        // Of each stored row, the stored buildings it has an address point inside.
        var storedPairs: [(row: Int, building: Int)] = []
        for f in 0..<stored.map.count {
            for i in Int(stored.buildingSlotStart[f])..<Int(stored.buildingSlotStart[f + 1]) {
                storedPairs.append((Int(stored.addressPointRow[Int(stored.addresses.place(atSlot: Int(stored.buildingSlots[i])))]), f))
            }
        }
        storedPairs.sort { ($0.row, $0.building) < ($1.row, $1.building) }

        // Each rule's consequences, until none is left: a masked stored row masks the stored buildings it is inside
        // (and lays the new ones equal to them); a laid feature lays the rows inside it; a laid row, the buildings it is
        // inside. What each lays masks the stored one it kept.
        var maskedRows = Array(rows.masked), laidFeatures = Array(features.laid), laidRows = Array(rows.laid)
        func layFeature(_ f: Int) {
            guard features.laid.insert(f).inserted else { return }
            laidFeatures.append(f)
            if let g = features.keptAs[f] { features.masked.insert(g) }
        }
        func layRow(_ r: Int) {
            guard rows.laid.insert(r).inserted else { return }
            laidRows.append(r)
            if let g = rows.keptAs[r], rows.masked.insert(g).inserted { maskedRows.append(g) }
        }
        while true {
            if let g = maskedRows.popLast() {
                let first = firstIndex(in: storedPairs.indices) { storedPairs[$0].row >= g }
                for pair in storedPairs[first...].prefix(while: { $0.row == g }) where features.masked.insert(pair.building).inserted {
                    if let new = newOfStored[pair.building] { layFeature(new) }
                }
            } else if let f = laidFeatures.popLast() {
                inside.rows(inBuilding: f).forEach(layRow)
            } else if let r = laidRows.popLast() {
                inside.buildings(ofRow: r).forEach(layFeature)
            } else {
                return
            }
        }
    }

    /// Which new address rows have a point inside which new buildings, both ways: found among the stored buildings
    /// for a new building equal to a stored one (its shape is), else among the new buildings left.
    private struct NewBuildings {
        /// (row, building) pairs sorted by row, and the same sorted by building; rows counted from the first stored row.
        let byRow: [(row: Int, building: Int)], byBuilding: [(row: Int, building: Int)]

        /// `newOfStored`: of each stored feature a new one keeps, that new one.
        init(_ features: Match, newOfStored: [Int: Int], stored: StreetMapShapes, made: StreetLevelRows.Made, firstStored: Int) {
            let unmatched = features.laid.sorted().filter { made.features[$0].kind == .building }
            let unmatchedFeatures = unmatched.map { made.features[$0] }
            let own = StreetMapShapes(features: unmatchedFeatures), ownOrder = StreetMapShapes.storedOrder(of: unmatchedFeatures)
            var pairs: [(row: Int, building: Int)] = []
            func addPairs(in map: StreetMapShapes, numbered: (Int) -> Int?) {
                for a in made.addressPoints {
                    for s in map.grid.candidates(at: a.point).map({ Int($0) }) where map.isBuilding(s)
                        && map.box(s).contains(a.point) && map.contains(a.point, feature: s) {
                        if let f = numbered(s) { pairs.append((a.row - firstStored, f)) }
                    }
                }
            }
            addPairs(in: stored) { newOfStored[$0] }
            addPairs(in: own) { unmatched[ownOrder[$0]] }
            byRow = pairs.sorted { ($0.row, $0.building) < ($1.row, $1.building) }
            byBuilding = pairs.sorted { ($0.building, $0.row) < ($1.building, $1.row) }
        }

        func rows(inBuilding f: Int) -> [Int] {
            let first = firstIndex(in: byBuilding.indices) { byBuilding[$0].building >= f }
            return byBuilding[first...].prefix { $0.building == f }.map(\.row)
        }

        func buildings(ofRow r: Int) -> [Int] {
            let first = firstIndex(in: byRow.indices) { byRow[$0].row >= r }
            return byRow[first...].prefix { $0.row == r }.map(\.building)
        }
    }

    /// Whether two lists of structures hold the same bytes, compared in place.
    private static func sameBytes(_ a: [StoredArray], _ b: [StoredArray]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { x, y in
            var same = false
            try? x.withBytes { p in
                try y.withBytes { q in same = p.count == q.count && (p.isEmpty || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0) }
            }
            return same
        }
    }

    /// The new rows, with their points (their address points, or those laid along their streets) as the trees hold them.
    private static func newRecords(_ made: StreetLevelRows.Made, places: PlaceTable, firstRow: Int) -> RowRecords {
        var points: [(row: Int, point: PointBits)] = made.addressPoints.map { ($0.row - firstRow, PointBits($0.point.latitude, $0.point.longitude)) }
        for line in made.streetLines {
            StreetLevel.forEachPoint(along: line.points) { points.append((line.row - firstRow, PointBits($0, $1))) }
        }
        return RowRecords(places, firstRow: 0, rows: places.count, points: points)
    }

    /// The stored rows `firstRow ..< firstRow + rows` of `table`, with their points, as `newRecords`.
    private static func storedRecords(_ level: StreetLevel, table: PlaceTable, firstRow: Int, rows: Int) -> RowRecords {
        var points: [(row: Int, point: PointBits)] = []
        for (tree, rowOf) in [(level.addresses, level.addressPointRow), (level.streetPoints, level.streetPointRow)] {
            for node in tree.nodes { points.append((Int(rowOf[Int(node.place)]), PointBits(node))) }
        }
        return RowRecords(table, firstRow: firstRow, rows: rows, points: points)
    }
}

extension PlaceIndex {
    /// This index with `laid` over its stored street level (in place of any overlay it has), held in memory.
    func laying(_ laid: StreetOverlay.Laid) -> PlaceIndex {
        let c = contents
        let decoded = IndexStructures.Decoded(
            places: c.places.keeping(laid.overlay.firstRow, appending: laid.places),
            names: NameRuns(geonames: c.names.geonames, street: c.names.street, overlay: laid.names), spatial: c.spatial,
            street: c.street.stored, overlay: laid.overlay, towns: c.townFinder, corrections: c.corrections, labelOrder: c.labelOrder)
        return PlaceIndex(decoded, path: path, buildID: buildID, replication: replication)
    }
}

/// The street-level rows an update made and could not lay over the index (`IndexBuilder.update`), and the build of
/// the index they were made over: a rebuild over that build uses them rather than read the extract again.
struct MadeStreetLevel {
    var places: PlaceTable
    var names: [(primary: [String], alternate: [String])]
    let firstRow: Int
    var made: StreetLevelRows.Made
    let buildID: String
    let skippedAreas: [String]
}

extension IndexBuilder {
    /// How many rows (and map features) an overlay holds and masks at most, of `stored` ones, before an update
    /// rebuilds the street level instead (folding the overlay in): a tenth of them, and at least 10,000.
    static func overlayBound(_ stored: Int) -> Int { max(10_000, stored / 10) }

    /// Makes the street level of the index at `path` `source`'s: the changes laid over the stored street level, in
    /// an overlay file of their own that the meta then names (`StreetOverlay.lay`); rebuilt instead (`rebuild`) when
    /// they cannot be, or would pass `overlayBound`. A failure before the meta names the new overlay leaves the index
    /// as it was.
    static func update(_ path: String, streets source: any StreetDataSource, origin: String = IndexDatabase.importOrigin,
                       progress: ImportProgress? = nil) throws -> ImportReport {
        let started = Date()
        var report = ImportReport(), laidName: String?, kept: Set<String> = [], unlaid: MadeStreetLevel?
        try writing(path) {
            let stored = try PlaceIndex.open(at: path), contents = stored.contents
            guard !contents.street.stored.isEmpty else { return }
            progress?("reading", 0.1)
            // The features are freed as soon as the rows are made of them, as an import frees them.
            let rows = try { () throws -> MadeStreetLevel in
                var rows = try streetLevelRows(source, of: contents, report: &report)
                let made = rows.appendRows()
                return MadeStreetLevel(places: rows.places, names: rows.names, firstRow: rows.firstRow, made: made, buildID: stored.buildID,
                                       skippedAreas: report.skippedAreas)
            }()
            ImportMemory.returnFreed()
            let made = rows.made
            progress?("indexing", 0.5)
            let storedRows = (contents.street.overlay?.firstRow ?? contents.places.count) - contents.firstStreetLevelRow
            guard let laid = StreetOverlay.lay(over: contents, places: rows.places, names: rows.names, made: made),
                  laid.places.count + laid.overlay.maskedRows.count <= overlayBound(storedRows),
                  laid.overlay.level.map.count + laid.overlay.maskedFeatures.count <= overlayBound(contents.street.stored.map.count) else {
                unlaid = rows
                return
            }
            progress?("writing", 0.8)
            let buildID = UUID(), name = IndexFiles.overlayStructuresName(forIndexAt: path, buildID: buildID)
            let file = IndexFiles.structuresPath(forIndexAt: path, named: name)
            do {
                try StructureFile.write(IndexStructures.encode(overlay: laid), buildID: buildID, to: file)
                let database = try IndexDatabase(updatingAt: path), meta = try database.meta()
                var names = try IndexReader.structureNames(meta, path: path)
                (names.overlay, names.overlayBuildID) = (name, buildID.uuidString)
                do throws(PindropError) {
                    _ = try IndexReader.decode(database, names, checks: .buildFile)
                } catch {
                    throw PindropError.internalFailure("the new overlay did not read back (\(error.message))")
                }
                try database.replaceMeta(["places": String(contents.firstStreetLevelRow + rows.places.count),
                                          "osm_sources": source.labels.joined(separator: ","), "origin": origin,
                                          IndexDatabase.overlayStructuresKey: name, IndexDatabase.overlayBuildIDKey: buildID.uuidString.lowercased()]
                                         .merging(IndexDatabase.replicationMeta(source.replication)) { $1 })
                kept = [names.structures, names.geonames, name]
            } catch {
                unlink(file)
                throw error
            }
            laidName = name
            report.count(rows.places, areas: made.areas.areas.count)
            report.summary.rowsRead = contents.firstStreetLevelRow
            report.summary.rowsImported = contents.firstStreetLevelRow
        }
        guard laidName != nil else { return try rebuild(path, streets: source, origin: origin, progress: progress, made: unlaid.take()) }
        IndexFiles.removeStructures(besideIndexAt: path, except: kept)
        progress?("done", 1)
        report.seconds = Date().timeIntervalSince(started)
        report.storeBytes = PlaceIndex.files(at: path).reduce(0) { $0 + (FileManager.default.fileSize(atPath: $1) ?? 0) }
        return report
    }

    /// The overlay that makes `index` answer as a fresh import of `source`'s street level over its GeoNames part would;
    /// nil when a rebuild is due instead (`StreetOverlay.lay`).
    static func overlay(of index: PlaceIndex, streets source: any StreetDataSource) throws -> StreetOverlay.Laid? {
        var report = ImportReport()
        var rows = try streetLevelRows(source, of: index.contents, report: &report)
        let made = rows.appendRows()
        return StreetOverlay.lay(over: index.contents, places: rows.places, names: rows.names, made: made)
    }
}
