import Foundation
import GRDB
import GRDBSQLite
import PindropCore

/// The index file: a SQLite database holding the places as rows (the durable, queryable truth), the country and
/// admin1 tables, and meta, which names the structures file beside it (`StructureFile`: the read structures
/// derived from the rows, mapped at open rather than rebuilt or copied) and the build id both files carry.
/// Migrations are named and append-only.
final class IndexDatabase {
    /// The version of the structures' layout and meaning: bumped whenever a structure is added, removed or laid out
    /// anew, so that an index of another version is rebuilt, not misread (the history is in git).
    static let structureVersion = "35"
    /// Meta key of the build id, which the structures file's header repeats: a pair from two imports is refused.
    static let buildIDKey = "build_id"
    /// Meta key of the structures file's name (in the database's folder).
    static let structuresKey = "structures"
    /// Meta keys of the GeoNames structures file's name and of the build id its header carries.
    static let geonamesStructuresKey = "geonames_structures", geonamesBuildIDKey = "geonames_build_id"
    /// Meta keys of the overlay structures file's name and of its build id (`StreetOverlay`; empty when there is none).
    static let overlayStructuresKey = "overlay_structures", overlayBuildIDKey = "overlay_build_id"

    /// What a server tells builds apart by: the build id, and the overlay's when one is laid over it.
    static func publishedBuild(_ meta: [String: String]) -> String? {
        meta[buildIDKey].map { publishedBuild($0, overlay: meta[overlayBuildIDKey]) }
    }

    /// The published build of the build `build` with the overlay `overlay` (none when nil or empty) laid over it.
    static func publishedBuild(_ build: String, overlay: String?) -> String {
        guard let overlay, !overlay.isEmpty else { return build }
        return build + "+" + overlay
    }
    /// Meta `origin` of an index built from the data shipped with Pindrop: it may be rebuilt unasked.
    static let shippedOrigin = "shipped"

    /// The meta recording how far a replication feed was applied (empty values when none was).
    static func replicationMeta(_ state: ReplicationState?) -> [String: String] {
        ["replication_sequence": state?.sequence.map(String.init) ?? "",
         "replication_timestamp": state.map { String(Int64($0.timestamp.timeIntervalSince1970)) } ?? ""]
    }

    /// The replication state the meta records, if any.
    static func replication(in meta: [String: String]) -> ReplicationState? {
        guard let seconds = meta["replication_timestamp"].flatMap({ Int64($0) }) else { return nil }
        return ReplicationState(sequence: meta["replication_sequence"].flatMap { Int($0) },
                                timestamp: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }
    /// Meta `origin` of an index holding a user's import: never rebuilt unasked. An index from before
    /// `origin` was recorded has none, and is kept like this one.
    static let importOrigin = "import"

    let queue: DatabaseQueue
    let path: String

    /// Opens an existing index read-only.
    init(openingAt path: String) throws(PindropError) {
        guard FileManager.default.fileExists(atPath: path) else {
            throw .indexUnavailable("no index at \(path); build one with `pindrop import geonames <file-or-folder>`")
        }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            // Touch the schema so a file that is not SQLite fails here, with a clear message.
            _ = try queue.read { db in try db.tableExists("meta") }
        } catch {
            throw .indexUnavailable("the index at \(path) is not a Pindrop index or is corrupt (\(Self.describe(error)))")
        }
        self.path = path
    }

    /// Opens an existing index for writing (to replace its structures).
    init(updatingAt path: String) throws {
        queue = try DatabaseQueue(path: path)
        self.path = path
        try Self.migrator.migrate(queue)
    }

    /// Updates meta in one transaction (pointing the index at a new structures file): readers see the old index
    /// or the new.
    func replaceMeta(_ meta: [String: String]) throws {
        try queue.write { db in
            let insertMeta = try db.makeStatement(sql: "INSERT OR REPLACE INTO meta VALUES (?, ?)")
            for (key, value) in meta { try insertMeta.execute(arguments: [key, value]) }
        }
    }

    /// Creates a new, empty index file (replacing any file at `path`).
    init(creatingAt path: String) throws {
        try? FileManager.default.removeItem(atPath: path)
        var configuration = Configuration()
        configuration.journalMode = .default
        // Large pages (SQLite's largest): the place rows are written in one long run and read back in bulk.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA page_size = 65536") }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        self.path = path
        try Self.migrator.migrate(queue)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-geonames") { db in
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                CREATE TABLE country (code TEXT PRIMARY KEY NOT NULL, iso3 TEXT NOT NULL, name TEXT NOT NULL);
                CREATE TABLE admin1 (code TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL);
                CREATE TABLE place (
                    geonameid INTEGER PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL,
                    asciiname TEXT NOT NULL,
                    alternatenames TEXT NOT NULL,
                    latitude REAL NOT NULL,
                    longitude REAL NOT NULL,
                    feature_code TEXT NOT NULL,
                    country_code TEXT NOT NULL,
                    admin1_code TEXT NOT NULL,
                    population INTEGER NOT NULL,
                    timezone TEXT NOT NULL);
                CREATE TABLE structure (name TEXT PRIMARY KEY NOT NULL, data BLOB NOT NULL);
                """)
        }
        // The structures live in a file of their own (`StructureFile`), not in the database.
        migrator.registerMigration("v2-structures-file") { db in
            try db.execute(sql: "DROP TABLE structure")
        }
        return migrator
    }

    static func describe(_ error: any Error) -> String {
        if let e = error as? DatabaseError { return e.message ?? "\(e.resultCode)" }
        return "\(error)"
    }

    // MARK: Writing

    /// Runs `body` in one write transaction: all of it lands, or none.
    func write(_ body: (Database) throws -> Void) throws {
        try queue.write(body)
    }

    /// A stored place's name, ASCII name and alternate names, in that order.
    static func names(_ db: Database, geonameID: Int) throws -> [String] {
        guard let row = try Row.fetchOne(db, sql: "SELECT name, asciiname, alternatenames FROM place WHERE geonameid = ?",
                                         arguments: [geonameID]) else { return [] }
        let alternates: String = row[2]
        return [row[0], row[1]] + GeoNamesRecord.alternateNames(alternates.utf8)
    }

    /// Writes the country and admin1 tables and meta (with the format version).
    static func writeTables(_ db: Database, countries: [GeoNamesCountry], admin1Names: [String: String],
                            meta: [String: String]) throws {
        let insertCountry = try db.makeStatement(sql: "INSERT OR REPLACE INTO country VALUES (?, ?, ?)")
        for c in countries { try insertCountry.execute(arguments: [c.code, c.iso3, c.name]) }
        let insertAdmin = try db.makeStatement(sql: "INSERT OR REPLACE INTO admin1 VALUES (?, ?)")
        for (code, name) in admin1Names { try insertAdmin.execute(arguments: [code, name]) }
        let insertMeta = try db.makeStatement(sql: "INSERT OR REPLACE INTO meta VALUES (?, ?)")
        for (key, value) in meta.merging(["structure_version": Self.structureVersion], uniquingKeysWith: { a, _ in a }) {
            try insertMeta.execute(arguments: [key, value])
        }
    }

    // MARK: Reading

    func meta() throws(PindropError) -> [String: String] {
        try reading { db in try Self.dictionary(db, sql: "SELECT key, value FROM meta") }
    }

    /// The GeoNames places the index was built from (the durable rows, for rebuilding).
    func records() throws(PindropError) -> [GeoNamesRecord] {
        try reading { db in
            try Row.fetchAll(db, sql: "SELECT * FROM place ORDER BY geonameid").map { row in
                let alternates: String = row["alternatenames"]
                return GeoNamesRecord(
                    geonameID: row["geonameid"], name: row["name"], asciiName: row["asciiname"],
                    alternateNames: GeoNamesRecord.alternateNames(alternates.utf8),
                    latitude: row["latitude"], longitude: row["longitude"], featureClass: "P",
                    featureCode: row["feature_code"], countryCode: row["country_code"], admin1Code: row["admin1_code"],
                    population: row["population"], timezone: row["timezone"])
            }
        }
    }

    func countriesAndAdmin1() throws(PindropError) -> (countries: [GeoNamesCountry], admin1: [String: String]) {
        try reading { db in
            let countries = try Row.fetchAll(db, sql: "SELECT code, iso3, name FROM country ORDER BY code").map {
                GeoNamesCountry(code: $0[0], iso3: $0[1], name: $0[2])
            }
            let admin1: [String: String] = try Self.dictionary(db, sql: "SELECT code, name FROM admin1")
            return (countries, admin1)
        }
    }

    /// Runs a read; any failure is the one "cannot be read" error every reader gives.
    private func reading<T>(_ body: (Database) throws -> T) throws(PindropError) -> T {
        do {
            return try queue.read(body)
        } catch {
            throw .indexUnavailable("the index at \(path) cannot be read (\(Self.describe(error)))")
        }
    }

    /// A two-column table (a text key and its value) as a dictionary. `StatementColumnConvertible` keeps GRDB's
    /// direct column read.
    private static func dictionary<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ db: Database, sql: String) throws -> [String: Value] {
        var found: [String: Value] = [:]
        for row in try Row.fetchAll(db, sql: sql) { found[row[0]] = row[1] }
        return found
    }
}
