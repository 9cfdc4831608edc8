import Foundation
import GRDB
import PindropCore

/// The user's saved places and recent addresses, in their own SQLite file in the data folder
/// (apart from the index, so rebuilding the index never touches them).
///
/// - Whole places are stored (name, coordinates, address...), so a saved place keeps them after the index changes.
/// - WAL journal with `synchronous = FULL`: a write is on disk when the call returns, and a crash (even
///   `kill -9`) right after loses nothing.
/// - The schema only grows through named, append-only migrations (`DatabaseMigrator`).
public final class UserDataStore: SavedPlaces, RecentPlaces, Sendable {
    /// The file's name inside the data folder.
    public static let fileName = "userdata.sqlite"
    /// How many recent places are kept; older ones are dropped.
    public static let recentKept = 100

    /// The SQLite file.
    public let path: String
    private let pool: DatabasePool

    /// Opens (creating if needed) the store at `path` and brings its schema up to date.
    public init(path: String) throws(PindropError) {
        self.path = path
        var configuration = Configuration()
        configuration.label = "PindropUserData"
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        do {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw .indexUnavailable("the user data file \(path) cannot be opened: \(Self.describe(error))")
        }
    }

    /// Opens the store in `folder` (the data folder, `$PINDROP_HOME`).
    public static func open(inFolder folder: String) throws(PindropError) -> UserDataStore {
        try UserDataStore(path: (folder as NSString).appendingPathComponent(fileName))
    }

    /// The names of the migrations applied to the file, oldest first.
    public func appliedMigrations() throws(PindropError) -> [String] {
        do { return try pool.read { db in try Self.migrator.appliedMigrations(db) } } catch {
            throw .indexUnavailable("the user data file \(path) cannot be read: \(Self.describe(error))")
        }
    }

    // MARK: Schema

    /// Append-only: never edit a registered migration; add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 saved places") { db in
            try db.execute(sql: """
                CREATE TABLE saved_place (
                    \(UserDataPlaceColumns.definitions),
                    position INTEGER NOT NULL
                )
                """)
        }
        migrator.registerMigration("v1 recent places") { db in
            try db.execute(sql: """
                CREATE TABLE recent_place (
                    \(UserDataPlaceColumns.definitions),
                    position INTEGER NOT NULL
                );
                CREATE INDEX recent_place_position ON recent_place(position);
                """)
        }
        return migrator
    }

    // MARK: SavedPlaces

    /// Saved places newest first, `limit` of them from the `offset`th.
    public func page(offset: Int, limit: Int) async throws -> [Place] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM saved_place ORDER BY position DESC LIMIT ? OFFSET ?",
                             arguments: [min(max(0, limit), Int(Int64.max)), max(0, offset)]).map(UserDataPlaceColumns.place)
        }
    }

    /// How many places are saved.
    public func count() async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM saved_place") ?? 0 }
    }

    /// Saves a place; saving it again keeps one copy, refreshed with the new data, in its original position.
    public func save(_ place: Place) async throws {
        try await write { db in
            try db.execute(sql: """
                INSERT INTO saved_place (\(UserDataPlaceColumns.names), position)
                VALUES (\(UserDataPlaceColumns.placeholders), (SELECT COALESCE(MAX(position), 0) + 1 FROM saved_place))
                ON CONFLICT(id) DO UPDATE SET \(UserDataPlaceColumns.updates)
                """, arguments: UserDataPlaceColumns.arguments(place))
        }
    }

    /// Removes a place; returns whether it was saved.
    @discardableResult public func remove(id: String) async throws -> Bool {
        try await write { db in
            try db.execute(sql: "DELETE FROM saved_place WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    /// Whether the id is saved.
    public func contains(id: String) async throws -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM saved_place WHERE id = ?)", arguments: [id]) ?? false
        }
    }

    // MARK: RecentPlaces

    /// Recent places newest first, `limit` of them from the `offset`th.
    public func recent(offset: Int, limit: Int) async throws -> [Place] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM recent_place ORDER BY position DESC LIMIT ? OFFSET ?",
                             arguments: [max(0, limit), max(0, offset)]).map(UserDataPlaceColumns.place)
        }
    }

    /// Records a place as the newest, moving it up (and refreshing it) if it was already there; the same address
    /// twice in a row (same id, or same `displayName` under another id) is kept once, as the newer.
    public func remember(_ place: Place) async throws {
        try await write { db in
            try db.execute(sql: """
                DELETE FROM recent_place WHERE display_name = ? AND id != ?
                AND position = (SELECT MAX(position) FROM recent_place)
                """, arguments: [place.displayName, place.id])
            try db.execute(sql: """
                INSERT INTO recent_place (\(UserDataPlaceColumns.names), position)
                VALUES (\(UserDataPlaceColumns.placeholders), (SELECT COALESCE(MAX(position), 0) + 1 FROM recent_place))
                ON CONFLICT(id) DO UPDATE SET \(UserDataPlaceColumns.updates), position = excluded.position
                """, arguments: UserDataPlaceColumns.arguments(place))
            try db.execute(sql: """
                DELETE FROM recent_place WHERE position <= (
                    SELECT position FROM recent_place ORDER BY position DESC LIMIT 1 OFFSET ?)
                """, arguments: [Self.recentKept])
        }
    }

    // MARK: Access

    private func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do { return try await pool.read(body) } catch {
            throw PindropError.indexUnavailable("the user data file \(path) cannot be read: \(Self.describe(error))")
        }
    }

    private func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do { return try await pool.write(body) } catch {
            throw PindropError.indexUnavailable("the user data file \(path) cannot be written: \(Self.describe(error))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? String(describing: error)
    }
}

/// How a `Place` is laid out in the user data tables: one column per field, coordinates as two columns.
enum UserDataPlaceColumns {
    static let all = ["id", "name", "display_name", "latitude", "longitude", "country_code", "admin1", "population",
                      "category", "house_number", "street", "postcode", "town", "source"]

    static let definitions = """
        id TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        display_name TEXT NOT NULL,
        latitude REAL NOT NULL,
        longitude REAL NOT NULL,
        country_code TEXT,
        admin1 TEXT,
        population INTEGER NOT NULL DEFAULT 0,
        category TEXT,
        house_number TEXT,
        street TEXT,
        postcode TEXT,
        town TEXT,
        source TEXT
        """

    static let names = all.joined(separator: ", ")
    static let placeholders = all.map { _ in "?" }.joined(separator: ", ")
    static let updates = all.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    static func arguments(_ place: Place) -> StatementArguments {
        let a = place.address
        return [place.id, place.name, place.displayName, place.coordinate.latitude, place.coordinate.longitude,
                place.countryCode, place.admin1, place.population, place.category,
                a?.houseNumber, a?.street, a?.postcode, a?.town, place.source]
    }

    static func place(_ row: Row) -> Place {
        let address = Address(houseNumber: row["house_number"], street: row["street"], postcode: row["postcode"], town: row["town"])
        return Place(id: row["id"], name: row["name"], displayName: row["display_name"],
                     coordinate: Coordinate(latitude: row["latitude"], longitude: row["longitude"]),
                     countryCode: row["country_code"], admin1: row["admin1"], population: row["population"],
                     category: row["category"], address: address.isEmpty ? nil : address, source: row["source"])
    }
}
