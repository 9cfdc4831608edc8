import Foundation
import PindropCore

/// Replacing only the street-level part of an index.
extension IndexBuilder {
    /// Replaces the OpenStreetMap part of the index at `path` with these extracts. The GeoNames part is
    /// reused as stored (its folded names and rows, and its structures file as it is), so only the street-level rows
    /// are derived anew and only the structures file of the build is rewritten: to a new one, checked, which one
    /// meta update then names (a failure before it leaves the index as it was). The index then holds the user's
    /// data: `origin` is an import's unless told otherwise.
    ///
    /// With `base`, the index at `path` is a new one: the index at `base` with its street level replaced (its
    /// database copied beside `path`, then renamed there once checked; its GeoNames structures file linked there),
    /// and the index at `base` is left as it was.
    ///
    /// `made` is the street-level rows an update made of `source` and could not lay over the index: used if the index
    /// is still the build they were made over, instead of reading the extract again.
    static func rebuild(_ path: String, over base: String? = nil, streets source: any StreetDataSource,
                        origin: String = IndexDatabase.importOrigin, progress: ImportProgress? = nil,
                        made: consuming MadeStreetLevel? = nil) throws -> ImportReport {
        let started = Date()
        ImportMemory.mapLargeBlocks()
        var report = ImportReport()
        let buildID = UUID(), structures = IndexFiles.structuresName(forIndexAt: path, buildID: buildID)
        let structuresPath = IndexFiles.structuresPath(forIndexAt: path, named: structures)
        // The database whose meta will name the new structures: the index's own, or a copy of the base's.
        let target = base == nil ? path : path + ".building"
        var geonames = GeoNamesStructures(name: "", buildID: "", linked: nil)
        do {
            try writing(path) {
                if let base {
                    try? FileManager.default.removeItem(atPath: target)
                    try FileManager.default.copyItem(atPath: base, toPath: target)
                }
                let rows = try writeStructures(of: base ?? path, streets: source, made: made.take(),
                                               writing: StructureTarget(path: structuresPath, buildID: buildID), report: &report, progress: progress)
                geonames = try GeoNamesStructures(of: base ?? path, for: path)
                // What the build held is freed: the read-back's pages do not come on top of it.
                ImportMemory.returnFreed()
                let database = try IndexDatabase(updatingAt: target)
                do throws(PindropError) {
                    _ = try IndexReader.decode(database, .init(structures: structures, buildID: buildID.uuidString,
                                                               geonames: geonames.name, geonamesBuildID: geonames.buildID), checks: .buildFile)
                } catch {
                    throw PindropError.internalFailure("the new index did not read back (\(error.message))")
                }
                try database.replaceMeta(["places": String(rows), "osm_sources": source.labels.joined(separator: ","), "origin": origin,
                                          IndexDatabase.buildIDKey: buildID.uuidString.lowercased(), IndexDatabase.structuresKey: structures,
                                          IndexDatabase.geonamesStructuresKey: geonames.name,
                                          IndexDatabase.overlayStructuresKey: "", IndexDatabase.overlayBuildIDKey: ""]
                                         .merging(IndexDatabase.replicationMeta(source.replication)) { $1 })
                if base != nil, rename(target, path) != 0 {
                    throw PindropError.indexUnavailable("cannot move the new index into place at \(path): \(String(cString: strerror(errno)))")
                }
            }
        } catch {
            if base != nil { try? FileManager.default.removeItem(atPath: target) }
            unlink(structuresPath)
            if let linked = geonames.linked { unlink(linked) }
            throw error
        }
        IndexFiles.removeStructures(besideIndexAt: path, except: [structures, geonames.name])
        progress?("done", 1)
        report.seconds = Date().timeIntervalSince(started)
        report.storeBytes = PlaceIndex.files(at: path).reduce(0) { $0 + (FileManager.default.fileSize(atPath: $1) ?? 0) }
        return report
    }

    /// `rebuild`'s structures: the stored GeoNames part of the index at `path` with the street-level rows of
    /// `source`, written to the target. Fills in the report's counts and returns the number of rows. What it builds
    /// is freed when it returns, and the features as soon as the rows are made from them.
    private static func writeStructures(of path: String, streets source: any StreetDataSource, made: consuming MadeStreetLevel?,
                                        writing target: StructureTarget, report: inout ImportReport, progress: ImportProgress?) throws -> Int {
        let index = try PlaceIndex.open(at: path)
        let stored = index.contents
        let geonamesCount = stored.places.geonamesCount
        progress?("reading", 0.1)
        let street: StreetLevel, streetPlaces: PlaceTable, rowNames: [(primary: [String], alternate: [String])]
        do {
            // The features and what made rows of them are freed at the end of this scope.
            if let given = made.take(), given.buildID == index.buildID {
                let m = given.made
                report.skippedAreas = given.skippedAreas
                street = StreetLevel(places: given.places, firstRow: given.firstRow, addressPoints: m.addressPoints, streetLines: m.streetLines,
                                     features: m.features, areas: m.areas)
                (streetPlaces, rowNames) = (given.places, given.names)
            } else {
                var rows = try streetLevelRows(source, of: stored, report: &report)
                street = rows.append()
                (streetPlaces, rowNames) = (rows.places, rows.names)
            }
        }
        ImportMemory.returnFreed()
        progress?("indexing", 0.4)
        // The street level's name entries, a run of their own (the GeoNames run stays in its file): gathered and sorted
        // on a thread of their own while the rest of the structures is written, and written last.
        let names = sortingNames({ [rowNames, streetPlaces] in
            var entries = NameEntries(keys: [])
            entries.addRows(rowNames, firstRow: geonamesCount, places: streetPlaces)
            return entries
        }, prefix: NameIndex.streetSections)
        progress?("writing", 0.8)
        let namesAfter = Int(stored.places.nameStart[geonamesCount])
        try StructureFile.write(IndexStructures.encode(streetPlaces: streetPlaces, namesAfter: namesAfter) + street.blobs()
                                    + nameStructures(names, prefix: NameIndex.streetSections),
                                buildID: target.buildID, to: target.path)
        report.summary.rowsRead = geonamesCount
        report.summary.rowsImported = geonamesCount
        report.nameEntries = stored.names.geonames.count + names.read().index.count
        report.count(street, streetPlaces)
        return geonamesCount + streetPlaces.count
    }

    /// The extract's features, ready to be made rows after the stored GeoNames ones; the towns' names are looked up
    /// in the stored (folded) name entries.
    static func streetLevelRows(_ source: any StreetDataSource, of stored: IndexContents,
                                        report: inout ImportReport) throws -> StreetLevelRows {
        let places = stored.places
        let features = try source.readFeatures()
        // The reader's blocks and node locations, freed.
        ImportMemory.returnFreed()
        report.skippedAreas = features.skippedAreas
        var isTown = [Bool](repeating: false, count: places.geonamesCount)
        for town in AddressContext.nearbyTowns(of: features, spatial: stored.spatial) { isTown[town] = true }
        return StreetLevelRows(features, geonamesRows: places, geonames: stored.spatial, towns: stored.townFinder,
                               townNames: TownNames(names: stored.names.geonames, isTown: isTown))
    }
}

/// The GeoNames structures file a rebuilt index names: its name beside the index, the build id its header
/// carries, and the link to it the rebuild made there (to remove should the rebuild fail), if it made one.
private struct GeoNamesStructures {
    var name: String, buildID: String
    var linked: String?
}

extension GeoNamesStructures {
    /// The GeoNames structures file of the index at `source`, made the index at `path`'s: the same file when they
    /// are the same index, else a hard link to it beside `path` (a copy across file systems), named after `path`.
    init(of source: String, for path: String) throws {
        let meta = try IndexDatabase(openingAt: source).meta()
        guard let stored = meta[IndexDatabase.geonamesStructuresKey], let id = meta[IndexDatabase.geonamesBuildIDKey].flatMap(UUID.init) else {
            throw PindropError.indexUnavailable("the index at \(source) names no GeoNames structures file; rebuild it with `pindrop import geonames`")
        }
        guard source != path else {
            self.init(name: stored, buildID: id.uuidString, linked: nil)
            return
        }
        let name = IndexFiles.geonamesStructuresName(forIndexAt: path, buildID: id)
        let from = IndexFiles.structuresPath(forIndexAt: source, named: stored), to = IndexFiles.structuresPath(forIndexAt: path, named: name)
        // One of that name is the same GeoNames build's (an earlier rebuild over it).
        guard !FileManager.default.fileExists(atPath: to) else {
            self.init(name: name, buildID: id.uuidString, linked: nil)
            return
        }
        if link(from, to) != 0 {
            try? FileManager.default.removeItem(atPath: to + ".building")
            try FileManager.default.copyItem(atPath: from, toPath: to + ".building")
            guard rename(to + ".building", to) == 0 else {
                throw PindropError.indexUnavailable("cannot move \(to).building to \(to): \(String(cString: strerror(errno)))")
            }
        }
        self.init(name: name, buildID: id.uuidString, linked: to)
    }
}
