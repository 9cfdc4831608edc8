import Foundation
import GRDB
import GRDBSQLite
import PindropCore

/// The index file: a SQLite database holding the places as rows (the durable, queryable truth), the country and
/// admin1 tables, and meta, which names the structures file beside it (`StructureFile`: the read structures
/// derived from the rows, mapped at open rather than rebuilt or copied) and the build id both files carry.
/// Migrations are named and append-only.
final class IndexDatabase {
    /// Bumped whenever the blob layout or what the blobs hold changes (14: street-level towns in their GeoNames
    /// name, postcodes lent by the nearest address, and each row's alternate names for `matchedName`; 15: the
    /// own-names-first segment tree stored, not built at open; 16: 64 KiB pages, and a structure over
    /// `ArrayBlob.partBytes` cut into several rows; 17: OSM areas, and each street-level row's suburb, county, state
    /// and country; 18: the structures in a file of their own beside the database, mapped at open, with the name
    /// index's buckets and street-level entries stored; 19: a venue's OSM key; 20: the town lookup as the largest
    /// population under each node of the place tree, in place of a tree of its own, and a venue tree per category;
    /// 21: the name index's segment trees by blocks of 16 entries, and the place trees' boxes in `Float`; 22: each place
    /// tree's node in one 64-byte record (point, box, place, axis, and for the place tree its population and the
    /// largest below it), where four columns and the town lookup's own held them); 23: where each alternate-name
    /// entry's name lies among its place's alternate names, and each name tree node's entry with its score; 24: the
    /// corrections of "did you mean" and the map labels' order of places (both were made by a first query); 25: the name
    /// index's fence; 26: each place's town (reverse's "near X, Town" walked the place tree for it); 27: whether a place could be a
    /// section, in its kind byte, and whether an alternate-name entry's name has other spellings; an index of another
    /// version is rebuilt, not misread.
    static let structureVersion = "27"
    /// Meta key of the build id, which the structures file's header repeats: a pair from two imports is refused.
    static let buildIDKey = "build_id"
    /// Meta key of the structures file's name (in the database's folder).
    static let structuresKey = "structures"
    /// Meta `origin` of an index built from the data shipped with Pindrop: it may be rebuilt unasked.
    static let shippedOrigin = "shipped"
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
        // Format 18 keeps the structures in a file of their own.
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

/// GeoNames rows on their way into the place table, as they are read (a later row with the same id replaces the
/// earlier); `finish` stores the last few. Bound through SQLite's own calls (GRDB's argument arrays cost
/// twice what SQLite does, per row), and several rows to a statement: each run of a statement opens its table
/// afresh, and that was a third of an import's time storing rows. A struct, so that its buffers are not checked
/// for exclusive access at every append as a class's would be.
struct PlaceInserter {
    static let rowsPerStatement = 32
    /// The `place` columns that hold text, in the order each row's texts are kept.
    private static let textColumns: [Int32] = [2, 3, 4, 7, 8, 9, 11]
    private let connection: SQLiteConnection
    /// One statement of `rowsPerStatement` rows, and one of a single row for the last few.
    private let many: Statement, one: Statement
    /// The waiting rows' texts back to back, bound where they lie (SQLITE_STATIC) rather than each copied by SQLite
    /// into an allocation of its own; where each row's texts lie (`textColumns.count` a row); and its numbers.
    private var text: [UInt8] = [], spans: [(start: Int, count: Int)] = []
    private var numbers: [(id: Int64, latitude: Double, longitude: Double, population: Int64)] = []

    init(_ db: Database) throws {
        func insert(rows: Int) -> String {
            "INSERT OR REPLACE INTO place VALUES " + Array(repeating: "(?,?,?,?,?,?,?,?,?,?,?)", count: rows).joined(separator: ",")
        }
        many = try db.makeStatement(sql: insert(rows: Self.rowsPerStatement))
        one = try db.makeStatement(sql: insert(rows: 1))
        connection = db.sqliteConnection!
    }

    mutating func insert(_ r: GeoNamesRecord) throws {
        func add(_ field: String) {
            let start = text.count
            text.append(contentsOf: field.utf8)
            spans.append((start, text.count - start))
        }
        add(r.name)
        add(r.asciiName)
        // The alternate names comma-separated, as the dump has them.
        let start = text.count
        text.append(contentsOf: r.alternateNamesText.utf8)
        for i in start..<text.count where text[i] == GeoNamesRecord.alternateSeparator { text[i] = UInt8(ascii: ",") }
        spans.append((start, text.count - start))
        add(r.featureCode)
        add(r.countryCode)
        add(r.admin1Code)
        add(r.timezone)
        numbers.append((Int64(r.geonameID), r.latitude, r.longitude, Int64(r.population)))
        if numbers.count == Self.rowsPerStatement {
            try run(many, rows: 0..<numbers.count)
            clear()
        }
    }

    /// Stores the rows still waiting.
    mutating func finish() throws {
        for row in numbers.indices { try run(one, rows: row..<(row + 1)) }
        clear()
    }

    private mutating func clear() {
        text.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
        numbers.removeAll(keepingCapacity: true)
    }

    private func run(_ statement: Statement, rows: Range<Int>) throws {
        let s = statement.sqliteStatement
        sqlite3_reset(s)
        let code = text.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { bytes in
                for (n, row) in rows.enumerated() {
                    let base = Int32(11 * n), values = numbers[row]
                    sqlite3_bind_int64(s, base + 1, values.id)
                    sqlite3_bind_double(s, base + 5, values.latitude)
                    sqlite3_bind_double(s, base + 6, values.longitude)
                    sqlite3_bind_int64(s, base + 10, values.population)
                    for (k, column) in Self.textColumns.enumerated() {
                        let (start, count) = spans[Self.textColumns.count * row + k]
                        if count == 0 { sqlite3_bind_text(s, base + column, "", 0, nil) } else { sqlite3_bind_text(s, base + column, bytes.baseAddress! + start, Int32(count), nil) }
                    }
                }
                // The texts stay where they are bound until the statement has run.
                return sqlite3_step(s)
            }
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(connection)))
        }
    }
}
