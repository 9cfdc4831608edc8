import Foundation
import GRDB
import PindropCore

/// Users, and each user's saved places and recent addresses, in their own SQLite file in the data folder
/// (apart from the index, so rebuilding the index never touches them).
///
/// - Named users (`pindrop users add NAME`) are known by a token whose SHA-256 only is kept (`UserTokens`); the
///   local user (`localUser`, id 0, no row) holds what a request without a token saves, and what files made
///   before there were users held.
/// - Whole places are stored (name, coordinates, address...), so a saved place keeps them after the index changes.
/// - WAL journal with `synchronous = FULL`: a write is on disk when the call returns, and a crash (even
///   `kill -9`) right after loses nothing.
/// - The schema only grows through named, append-only migrations (`DatabaseMigrator`).
public final class UserDataStore: UserAccounts, Sendable {
    /// The file's name inside the data folder.
    public static let fileName = "userdata.sqlite"
    /// How many recent places are kept for each user; older ones are dropped.
    public static let recentKept = 100
    /// The local user's id; named users' ids start at 1.
    public static let localUserID: Int64 = 0

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
            pool = try Self.openAndMigrate(path: path, configuration: configuration)
        } catch {
            throw .indexUnavailable("the user data file \(path) cannot be opened: \(Self.describe(error))")
        }
    }

    /// Opens the file and brings it up to date. Two processes starting on one fresh home (two servers, a server
    /// and `pindrop users add`) race: turning on WAL answers "database is locked" at once, without waiting, and a
    /// migration may be applied by the other between our reading which were applied and our applying it. So a
    /// failure is tried again, four times at most, a little later each time; a real failure fails every time.
    private static func openAndMigrate(path: String, configuration: Configuration) throws -> DatabasePool {
        var attempt = 0
        while true {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                try migrator.migrate(pool)
                return pool
            } catch {
                attempt += 1
                guard attempt < 5 else { throw error }
                Thread.sleep(forTimeInterval: 0.05 * Double(attempt))
            }
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
        // Places belong to a user: the tables are made anew with a user id (SQLite cannot change a primary key),
        // and the rows already there become the local user's.
        migrator.registerMigration("v2 users") { db in
            let columns = "id, name, display_name, latitude, longitude, country_code, admin1, population, category, "
                + "house_number, street, postcode, town, source, position"
            let placeColumns = """
                user_id INTEGER NOT NULL,
                id TEXT NOT NULL,
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
                source TEXT,
                position INTEGER NOT NULL,
                PRIMARY KEY (user_id, id)
                """
            try db.execute(sql: """
                CREATE TABLE user_account (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL UNIQUE,
                    token_sha256 BLOB NOT NULL UNIQUE,
                    created_at TEXT NOT NULL
                );
                CREATE TABLE saved_place_v2 (\(placeColumns));
                INSERT INTO saved_place_v2 (user_id, \(columns)) SELECT 0, \(columns) FROM saved_place;
                DROP TABLE saved_place;
                ALTER TABLE saved_place_v2 RENAME TO saved_place;
                CREATE INDEX saved_place_position ON saved_place(user_id, position);
                CREATE TABLE recent_place_v2 (\(placeColumns));
                INSERT INTO recent_place_v2 (user_id, \(columns)) SELECT 0, \(columns) FROM recent_place;
                DROP TABLE recent_place;
                ALTER TABLE recent_place_v2 RENAME TO recent_place;
                CREATE INDEX recent_place_position ON recent_place(user_id, position);
                """)
        }
        // A place is kept whole: the address's suburb, county, state and country, the category's key, the kind and
        // the bounding box were accepted and answered, then lost.
        migrator.registerMigration("v3 whole places") { db in
            for table in ["saved_place", "recent_place"] {
                for column in UserDataPlaceColumns.addedInV3 { try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column)") }
            }
        }
        return migrator
    }

    // MARK: UserAccounts

    /// Adds a user and returns their new token (only its SHA-256 is kept). Throws `invalidInput` when the name
    /// is empty, malformed or taken.
    public func addUser(named name: String) async throws -> String {
        let name = try UserAccount.validatedName(name)
        let token = UserTokens.make()
        let hash = Data(UserTokens.hash(token))
        try await write { db in
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM user_account WHERE name = ?)", arguments: [name]) == true {
                throw PindropError.invalidInput("a user named \"\(name)\" already exists")
            }
            try db.execute(sql: "INSERT INTO user_account (name, token_sha256, created_at) VALUES (?, ?, ?)",
                           arguments: [name, hash, ISO8601DateFormatter().string(from: Date())])
        }
        return token
    }

    /// Every named user, oldest first (the local user is not one).
    public func users() async throws -> [UserAccount] {
        try await read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, created_at FROM user_account ORDER BY id").map(Self.account)
        }
    }

    /// Removes a user with their saved places and recent addresses, in one transaction; returns whether the name
    /// was known.
    @discardableResult public func removeUser(named name: String) async throws -> Bool {
        try await write { db in
            guard let id = try Int64.fetchOne(db, sql: "SELECT id FROM user_account WHERE name = ?", arguments: [name]) else { return false }
            try db.execute(sql: "DELETE FROM saved_place WHERE user_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM recent_place WHERE user_id = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM user_account WHERE id = ?", arguments: [id])
            return true
        }
    }

    /// The user whose token's SHA-256 is `token`'s, or nil.
    public func user(withToken token: String) async throws -> UserAccount? {
        let hash = Data(UserTokens.hash(token))
        return try await read { db in
            try Row.fetchOne(db, sql: "SELECT id, name, created_at FROM user_account WHERE token_sha256 = ?", arguments: [hash])
                .map(Self.account)
        }
    }

    /// A `user_account` row (id, name, created_at) as an account.
    private static func account(_ row: Row) -> UserAccount {
        UserAccount(id: row["id"], name: row["name"], added: (row["created_at"] as String?).flatMap { ISO8601DateFormatter().date(from: $0) })
    }

    /// A user's saved places and recent addresses.
    public func places(of user: UserAccount) -> any SavedPlaces & RecentPlaces { UserPlaces(store: self, userID: user.id) }

    /// The local user's: what requests without a token save and read (and what files older than users held).
    public var localUser: (any SavedPlaces & RecentPlaces)? { UserPlaces(store: self, userID: Self.localUserID) }

    // MARK: Access

    func read<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do { return try await pool.read(body) } catch let error as PindropError { throw error } catch {
            throw PindropError.indexUnavailable("the user data file \(path) cannot be read: \(Self.describe(error))")
        }
    }

    func write<T: Sendable>(_ body: @Sendable @escaping (Database) throws -> T) async throws -> T {
        do { return try await pool.write(body) } catch let error as PindropError { throw error } catch {
            throw PindropError.indexUnavailable("the user data file \(path) cannot be written: \(Self.describe(error))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? String(describing: error)
    }
}
