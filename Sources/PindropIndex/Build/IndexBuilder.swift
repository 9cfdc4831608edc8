import Foundation
import PindropCore

/// The embedded store's writer: builds the index at `path` from imported data. It reads (the sources check the
/// whole input first), derives the read structures, writes them to new structures files and the rows to a
/// temporary database beside the index, opens them as a reader would (checking every value), and only then
/// renames the database over the index in one step, which publishes them all (`IndexFiles`): a failed import
/// leaves the previous index answering exactly as before.
public struct IndexBuilder: PlaceStoreWriter {
    /// The index file it writes.
    public let path: String
    /// Whether it builds from the data shipped with Pindrop. The index records it (meta `origin`), so that
    /// such an index may be rebuilt unasked (after a format upgrade) and a user's own import never is.
    public let fromShippedData: Bool

    /// A writer of the index file at `path`.
    public init(path: String, fromShippedData: Bool = false) {
        self.path = path
        self.fromShippedData = fromShippedData
    }

    /// Builds the index from GeoNames data and, when given, OpenStreetMap street-level data.
    public func importGeoNames(_ source: any GeoNamesSource, streets: (any StreetDataSource)?,
                               progress: ImportProgress?) async throws -> ImportReport {
        try Self.build(from: source, streets: streets, to: path, origin: origin, progress: progress)
    }

    /// Replaces the street-level part of the index with `source`, reusing the stored GeoNames part.
    public func importStreets(_ source: any StreetDataSource, progress: ImportProgress?) async throws -> ImportReport {
        try Self.rebuild(path, streets: source, origin: origin, progress: progress)
    }

    /// Makes the street level `source`'s: laid over the stored one when the changes allow (`update`), else rebuilt.
    public func updateStreets(_ source: any StreetDataSource, progress: ImportProgress?) async throws -> ImportReport {
        try Self.update(path, streets: source, origin: origin, progress: progress)
    }

    /// Builds the index at `path` as the index at `base` with its street level replaced by `source`, reusing the
    /// base's stored GeoNames part; the index at `base` is left as it was.
    public func importStreets(_ source: any StreetDataSource, over base: String, progress: ImportProgress?) async throws -> ImportReport {
        try Self.rebuild(path, over: base, streets: source, origin: origin, progress: progress)
    }

    /// The `origin` the index records.
    var origin: String { fromShippedData ? IndexDatabase.shippedOrigin : IndexDatabase.importOrigin }

    /// Builds the index at `path` from GeoNames data and any OpenStreetMap extracts (street addresses, streets,
    /// venues), in three stages: the rows are read and stored in a new database beside the index (`stage`), the read
    /// structures derived from them and written to a new structures file (`derive`), and the pair read back with every
    /// value checked, then renamed over the index in one step (`publish`). `progress` gets (stage, fraction).
    static func build(from source: any GeoNamesSource, streets: (any StreetDataSource)? = nil, to path: String,
                      origin: String = IndexDatabase.importOrigin, progress: ImportProgress? = nil) throws -> ImportReport {
        let started = Date()
        ImportMemory.mapLargeBlocks()
        var report = ImportReport()
        let temporary = path + ".building"
        let buildID = UUID(), structures = IndexFiles.structuresName(forIndexAt: path, buildID: buildID)
        let structuresPath = IndexFiles.structuresPath(forIndexAt: path, named: structures)
        let geonamesID = UUID(), geonames = IndexFiles.geonamesStructuresName(forIndexAt: path, buildID: geonamesID)
        let geonamesPath = IndexFiles.structuresPath(forIndexAt: path, named: geonames)
        do {
            try writing(path) {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                // Rows go to the file as they are read, and into compact columns; the structures are derived
                // from those and written in the same transaction. Kept in this scope so that they are freed
                // before the new file is read back.
                try IndexDatabase(creatingAt: temporary).write { db in
                    var build = try GeoNamesBuild(source: source, streets: streets, db: db, progress: progress)
                    var rows = try build.stage(report: &report)
                    try build.derive(&rows, report: &report, writing: StructureTarget(path: structuresPath, buildID: buildID),
                                     geonames: StructureTarget(path: geonamesPath, buildID: geonamesID),
                                     meta: ["origin": origin, IndexDatabase.structuresKey: structures, IndexDatabase.geonamesStructuresKey: geonames])
                }
            }
            try publish(temporary, as: path)
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            unlink(structuresPath)
            unlink(geonamesPath)
            throw error
        }
        IndexFiles.removeStructures(besideIndexAt: path, except: [structures, geonames])
        progress?("done", 1)
        report.storeBytes = PlaceIndex.files(at: path).reduce(0) { $0 + (FileManager.default.fileSize(atPath: $1) ?? 0) }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// The new index at `temporary` read back, every value checked, then renamed over `path`: rename(2) swaps the file
    /// in one step, so a reader finds the old index or the new one, never none.
    private static func publish(_ temporary: String, as path: String) throws {
        ImportMemory.returnFreed()
        do {
            try PlaceIndex.verify(at: temporary)
        } catch {
            throw PindropError.internalFailure("the new index did not read back (\(error.message))")
        }
        guard rename(temporary, path) == 0 else {
            throw PindropError.indexUnavailable("cannot move the new index into place at \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// The name entries `entries` gives, sorted on a thread of their own, and their structures (a run of the name
    /// index, named `prefix` + the column's name): the rest of the structures is written meanwhile.
    static func sortingNames(_ entries: @escaping () -> NameEntries, prefix: String) -> Background<SortedNames> {
        Background {
            let names = entries().index()
            return (names, IndexStructures.encode(names: names, prefix: prefix))
        }
    }

    /// A name index and its structures.
    typealias SortedNames = (index: NameIndex, structures: [StoredArray])

    /// The name structures of `sorting`, waited for when the file reaches them.
    static func nameStructures(_ sorting: Background<SortedNames>, prefix: String) -> [StoredArray] {
        StoredArray.later(like: IndexStructures.encode(names: NameEntries(keys: []).index(), prefix: prefix)) { sorting.read().structures }
    }

    /// Builds the index from records in memory (tests), as from a dump holding them.
    static func build(records: [GeoNamesRecord], countries: [GeoNamesCountry], admin1Names: [String: String],
                      streets: (any StreetDataSource)?, source: String, origin: String = IndexDatabase.importOrigin,
                      to path: String, progress: ImportProgress?) throws -> ImportReport {
        struct Records: GeoNamesSource {
            let records: [GeoNamesRecord], countryList: [GeoNamesCountry], admin1: [String: String], label: String
            func countries() -> [GeoNamesCountry] { countryList }
            func admin1Names() -> [String: String] { admin1 }
            func readPlaces(progress: ((Double) -> Void)?, _ body: (GeoNamesRecord) throws -> Void) throws -> ImportSummary {
                for r in records { try body(r) }
                var summary = ImportSummary()
                summary.rowsRead = records.count
                summary.rowsImported = records.count
                return summary
            }
        }
        return try build(from: Records(records: records, countryList: countries, admin1: admin1Names, label: source),
                         streets: streets, to: path, origin: origin, progress: progress)
    }

    /// Runs a write, turning a database or file system failure (disk full, no permission) into the one error
    /// users see.
    static func writing(_ path: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as PindropError {
            throw error
        } catch {
            throw PindropError.indexUnavailable("cannot write the index at \(path) (\(IndexDatabase.describe(error)))")
        }
    }
}

extension ImportReport {
    /// Fills in the street-level counts of an index whose street-level rows are `places`, with `areas` areas.
    mutating func count(_ places: PlaceTable, areas: Int) {
        let kinds = (0..<places.count).map { places.rowKind($0) }
        venues = kinds.filter { $0 == .venue }.count
        addresses = kinds.filter { $0 == .address }.count
        streets = kinds.filter { $0 == .street }.count
        self.areas = areas
    }

    /// Fills in the street-level counts of a built index.
    mutating func count(_ street: StreetLevel, _ places: PlaceTable) {
        venues = street.venueRows.count
        addresses = street.addressRows.count
        streets = places.kind.filter { $0 == PlaceTable.RowKind.street.rawValue }.count
        areas = street.areas.areas.count
    }
}
