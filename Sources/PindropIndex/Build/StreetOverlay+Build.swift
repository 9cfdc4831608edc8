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
        let stored = contents.street.stored, table = contents.places
        let firstStored = contents.firstStreetLevelRow, storedEnd = contents.street.overlay?.firstRow ?? table.count
        guard bytes(of: stored.areas.blobs()) == bytes(of: made.areas.blobs()) else { return nil }

        // The rows: each stored row is kept by a new row equal to it. The map's features, alike.
        let newPoints = Self.newPoints(made, firstRow: firstStored, rows: places.count)
        let storedPoints = Self.storedPoints(stored, firstRow: firstStored, rows: storedEnd - firstStored)
        var rowMatch = Match(new: places.count, key: { RowRecord(places, $0, points: newPoints[$0]) },
                             stored: (firstStored..<storedEnd).lazy.map { (RowRecord(table, $0, points: storedPoints[$0 - firstStored]), $0) })
        // A feature is keyed by its kind and outline's start, and compared whole with the stored ones of its key: a
        // dictionary of every stored feature, made and hashed whole, would cost more than the rest of the update.
        var featureMatch = Match(new: made.features.count, key: { FeatureKey(made.features[$0]) },
                                 stored: (0..<stored.map.count).lazy.map { (FeatureKey(stored.map, $0), $0) },
                                 equal: { stored.map.feature($1) == made.features[$0] })
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

    /// New things matched with stored ones as multisets: each stored one is kept by a new one equal to it.
    private struct Match {
        /// Of each new one, the stored one it keeps.
        var keptAs: [Int?]
        /// The new ones without an equal stored one, and the stored ones without an equal new one.
        var laid: Set<Int>, masked: Set<Int>

        /// `new` new ones and the stored ones, each with its key; of the stored ones of a key, a new one keeps the
        /// last it is `equal` to (new, stored).
        init<Key: Hashable>(new: Int, key: (Int) -> Key, stored: some Sequence<(Key, Int)>, equal: (Int, Int) -> Bool = { _, _ in true }) {
            var byKey: [Key: [Int]] = [:]
            for (k, g) in stored { byKey[k, default: []].append(g) }
            let keptAs: [Int?] = (0..<new).map { n in
                let k = key(n)
                guard let i = byKey[k]?.lastIndex(where: { equal(n, $0) }) else { return nil }
                return byKey[k]?.remove(at: i)
            }
            self.keptAs = keptAs
            laid = Set(keptAs.indices.filter { keptAs[$0] == nil })
            masked = Set(byKey.values.joined())
        }
    }

    /// What tells a map feature from nearly every other without making it: its kind, its number of points and its
    /// first point.
    private struct FeatureKey: Hashable {
        var kind: MapFeature.Kind, points: Int, latitude: UInt64, longitude: UInt64

        init(_ feature: MapFeature) {
            let first = feature.lines.first?.first
            (kind, points) = (feature.kind, feature.lines.reduce(0) { $0 + $1.count })
            (latitude, longitude) = (first?.latitude.bitPattern ?? 0, first?.longitude.bitPattern ?? 0)
        }

        init(_ map: StreetMapShapes, _ f: Int) {
            let lines = Int(map.lineStart[f])..<Int(map.lineStart[f + 1])
            let from = Int(map.pointStart[lines.lowerBound]), to = Int(map.pointStart[lines.upperBound])
            (kind, points) = (map.kind(f), to - from)
            (latitude, longitude) = from < to ? (map.coordinates[2 * from].bitPattern, map.coordinates[2 * from + 1].bitPattern) : (0, 0)
        }
    }

    /// A building answers with the address points inside it, of its own level: a building with an address point of
    /// the overlay inside it is the overlay's, and so is every address row with a point inside such a building; a
    /// stored building with a masked address inside it is masked. Widens both matches until that holds.
    private static func closeOverBuildings(_ rows: inout Match, _ features: inout Match, stored: StreetLevel,
                                           made: StreetLevelRows.Made, firstStored: Int) {
        var newOfStored: [Int: Int] = [:]
        for (f, g) in features.keptAs.enumerated() { if let g { newOfStored[g] = f } }
        let shapes = StreetMapShapes(features: made.features), featureOfShape = StreetMapShapes.storedOrder(of: made.features)
        var buildingsOfRow: [Int: [Int]] = [:], rowsOfBuilding: [Int: [Int]] = [:]
        for a in made.addressPoints {
            for s in shapes.grid.candidates(at: a.point).map({ Int($0) }) where shapes.isBuilding(s)
                && shapes.box(s).contains(a.point) && shapes.contains(a.point, feature: s) {
                let f = featureOfShape[s]
                buildingsOfRow[a.row - firstStored, default: []].append(f)
                rowsOfBuilding[f, default: []].append(a.row - firstStored)
            }
        }
        let storedRowsOfBuilding = (0..<stored.map.count).map { f in
            (Int(stored.buildingSlotStart[f])..<Int(stored.buildingSlotStart[f + 1])).map { i in
                Int(stored.addressPointRow[Int(stored.addresses.place(atSlot: Int(stored.buildingSlots[i])))])
            }
        }
        var changed = true
        while changed {
            changed = false
            for f in 0..<stored.map.count where !features.masked.contains(f) && storedRowsOfBuilding[f].contains(where: rows.masked.contains) {
                features.masked.insert(f)
                if let new = newOfStored[f] { features.laid.insert(new) }
                changed = true
            }
            for f in features.laid {
                for r in rowsOfBuilding[f] ?? [] where !rows.laid.contains(r) {
                    rows.laid.insert(r)
                    if let g = rows.keptAs[r] { rows.masked.insert(g) }
                    changed = true
                }
            }
            for r in rows.laid {
                for f in buildingsOfRow[r] ?? [] where !features.laid.contains(f) {
                    features.laid.insert(f)
                    if let g = features.keptAs[f] { features.masked.insert(g) }
                    changed = true
                }
            }
        }
    }

    /// The bytes of structures, to compare.
    private static func bytes(of blobs: [StoredArray]) -> [[UInt8]] {
        blobs.map { blob in
            var bytes: [UInt8] = []
            try? blob.withBytes { bytes = Array($0) }
            return bytes
        }
    }

    /// Each new row's points (its address points, or those laid along its street), as the trees hold them: unit
    /// vectors, sorted.
    private static func newPoints(_ made: StreetLevelRows.Made, firstRow: Int, rows: Int) -> [[PointBits]] {
        var points = [[PointBits]](repeating: [], count: rows)
        for a in made.addressPoints { points[a.row - firstRow].append(PointBits(a.point.latitude, a.point.longitude)) }
        for line in made.streetLines {
            StreetLevel.forEachPoint(along: line.points) { points[line.row - firstRow].append(PointBits($0, $1)) }
        }
        return points.map { $0.sorted() }
    }

    /// Each stored row's points, as `newPoints`.
    private static func storedPoints(_ level: StreetLevel, firstRow: Int, rows: Int) -> [[PointBits]] {
        var points = [[PointBits]](repeating: [], count: rows)
        for (tree, rowOf) in [(level.addresses, level.addressPointRow), (level.streetPoints, level.streetPointRow)] {
            for node in tree.nodes { points[Int(rowOf[Int(node.place)]) - firstRow].append(PointBits(node)) }
        }
        return points.map { $0.sorted() }
    }

    /// A point of a tree, as the bits of its unit vector.
    struct PointBits: Hashable, Comparable {
        var x, y, z: UInt64

        init(_ latitude: Double, _ longitude: Double) {
            let (x, y, z) = Geo.unitVector(latitude: latitude, longitude: longitude)
            (self.x, self.y, self.z) = (x.bitPattern, y.bitPattern, z.bitPattern)
        }

        init(_ node: SpatialNode) { (x, y, z) = (node.x.bitPattern, node.y.bitPattern, node.z.bitPattern) }

        static func < (a: PointBits, b: PointBits) -> Bool { (a.x, a.y, a.z) < (b.x, b.y, b.z) }
    }

    /// A street-level row as answers read it: two rows are one when these are equal.
    struct RowRecord: Hashable {
        var name: [UInt8], extras: [UInt8], latitude: UInt64, longitude: UInt64, kind: UInt8, country: UInt16, admin1: Int32
        var points: [PointBits]

        init(_ table: PlaceTable, _ i: Int, points: [PointBits]) {
            name = Array(table.nameBytes[Int(table.nameStart[i])..<Int(table.nameStart[i + 1])])
            extras = Array(table.extraBytes[Int(table.extraStart[i])..<Int(table.extraStart[i + 1])])
            (latitude, longitude) = (table.latitude[i].bitPattern, table.longitude[i].bitPattern)
            (kind, country, admin1) = (table.kind[i], table.country[i], table.admin1[i])
            self.points = points
        }
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
