import Foundation
import PindropCore
import PindropIndex
import PostgresNIO

/// The shared store's users, their saved places and recent addresses, in schema `pindrop` and read live on every
/// request, so every server behind one database shows each person the same lists. There is no local user: every
/// request names its user with a token. A write is committed (and so durable) before the call returns; one
/// user's writes from several servers are serialized on that user's row.
public struct PostgresUserAccounts: UserAccounts {
    /// The database.
    public let database: PostgresPool

    /// The users of `database` (whose schema `PostgresSchema.migrate` has brought up to date).
    public init(database: PostgresPool) { self.database = database }

    /// Opens the users of `database`, bringing its schema up to date first.
    public static func open(database: PostgresPool) async throws -> PostgresUserAccounts {
        try await PostgresSchema.migrate(database)
        return PostgresUserAccounts(database: database)
    }

    public func addUser(named name: String) async throws -> String {
        let name = try UserAccount.validatedName(name)
        let token = UserTokens.make()
        let hash = UserTokens.hash(token)
        let added = try await database.withConnection("adding a user") { [logger = database.logger] connection in
            let rows = try await connection.query("""
                INSERT INTO pindrop.app_user (name, token_sha256) VALUES (\(name), \(ByteBuffer(bytes: hash)))
                ON CONFLICT (name) DO NOTHING RETURNING id
                """, logger: logger)
            return try await rows.decode(Int64.self).first { _ in true } != nil
        }
        guard added else { throw PindropError.invalidInput("a user named \"\(name)\" exists already") }
        return token
    }

    public func users() async throws -> [UserAccount] {
        try await database.withConnection("listing users") { [logger = database.logger] connection in
            var users: [UserAccount] = []
            for try await (id, name, added) in try await connection.query("SELECT id, name, created_at FROM pindrop.app_user ORDER BY id",
                                                                          logger: logger).decode((Int64, String, Date).self) {
                users.append(UserAccount(id: id, name: name, added: added))
            }
            return users
        }
    }

    @discardableResult public func removeUser(named name: String) async throws -> Bool {
        // The user's places go with the row (ON DELETE CASCADE), in the same statement.
        try await database.withConnection("removing a user") { [logger = database.logger] connection in
            let rows = try await connection.query("DELETE FROM pindrop.app_user WHERE name = \(name) RETURNING id", logger: logger)
            return try await rows.decode(Int64.self).first { _ in true } != nil
        }
    }

    public func user(withToken token: String) async throws -> UserAccount? {
        let hash = UserTokens.hash(token)
        return try await database.withConnection("checking a token") { [logger = database.logger] connection in
            let rows = try await connection.query("SELECT id, name, created_at FROM pindrop.app_user WHERE token_sha256 = \(ByteBuffer(bytes: hash))",
                                                  logger: logger)
            for try await (id, name, added) in rows.decode((Int64, String, Date).self) { return UserAccount(id: id, name: name, added: added) }
            return nil
        }
    }

    public func places(of user: UserAccount) -> any SavedPlaces & RecentPlaces { PostgresUserPlaces(database: database, userID: user.id) }

    /// None: on a shared server every request names its user.
    public var localUser: (any SavedPlaces & RecentPlaces)? { nil }
}

/// One user's saved places and recent addresses in the shared database.
struct PostgresUserPlaces: SavedPlaces, RecentPlaces {
    let database: PostgresPool
    let userID: Int64

    static let columns = ["id", "name", "display_name", "latitude", "longitude", "country_code", "admin1", "population",
                          "category", "house_number", "street", "postcode", "town", "source"]
    static let names = columns.joined(separator: ", ")
    static let updates = columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    // MARK: SavedPlaces

    func page(offset: Int, limit: Int) async throws -> [Place] {
        try await places(in: "saved_place", offset: offset, limit: limit)
    }

    func count() async throws -> Int {
        try await database.withConnection("counting saved places") { [userID, logger = database.logger] connection in
            let rows = try await connection.query("SELECT count(*) FROM pindrop.saved_place WHERE user_id = \(userID)", logger: logger)
            return try await rows.decode(Int.self).first { _ in true } ?? 0
        }
    }

    /// Saves a place; saving it again keeps one copy, refreshed, in its original position.
    func save(_ place: Place) async throws {
        try await writing("saving a place") { connection, logger in
            try await connection.query(insert(place, into: "saved_place", conflict: "DO UPDATE SET \(Self.updates)"), logger: logger)
        }
    }

    @discardableResult func remove(id: String) async throws -> Bool {
        try await writing("removing a saved place") { [userID] connection, logger in
            let rows = try await connection.query("DELETE FROM pindrop.saved_place WHERE user_id = \(userID) AND id = \(id) RETURNING id",
                                                  logger: logger)
            return try await rows.decode(String.self).first { _ in true } != nil
        }
    }

    func contains(id: String) async throws -> Bool {
        try await database.withConnection("reading saved places") { [userID, logger = database.logger] connection in
            let rows = try await connection.query("SELECT 1 FROM pindrop.saved_place WHERE user_id = \(userID) AND id = \(id)", logger: logger)
            return try await rows.decode(Int.self).first { _ in true } != nil
        }
    }

    // MARK: RecentPlaces

    func recent(offset: Int, limit: Int) async throws -> [Place] {
        try await places(in: "recent_place", offset: offset, limit: limit)
    }

    /// Records a place as the newest, moving it up (and refreshing it) if it was there; the same address twice in a
    /// row (the same `displayName` under another id) is kept once, as the newer. The newest
    /// `UserDataStore.recentKept` are kept.
    func remember(_ place: Place) async throws {
        try await writing("remembering a place") { [userID] connection, logger in
            try await connection.query("""
                DELETE FROM pindrop.recent_place WHERE user_id = \(userID) AND display_name = \(place.displayName) AND id != \(place.id)
                AND position = (SELECT max(position) FROM pindrop.recent_place WHERE user_id = \(userID))
                """, logger: logger)
            try await connection.query(insert(place, into: "recent_place",
                                              conflict: "DO UPDATE SET \(Self.updates), position = nextval('pindrop.place_position')"),
                                       logger: logger)
            try await connection.query("""
                DELETE FROM pindrop.recent_place WHERE user_id = \(userID) AND position <= (
                    SELECT position FROM pindrop.recent_place WHERE user_id = \(userID) ORDER BY position DESC LIMIT 1 OFFSET \(UserDataStore.recentKept))
                """, logger: logger)
        }
    }

    // MARK: Statements

    /// A write in a transaction that first locks the user's row: one user's writes through several servers
    /// happen one after the other, and a user removed meanwhile gets nothing written.
    private func writing<T: Sendable>(_ doing: String,
                                      _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        try await database.transaction(doing) { [userID, logger = database.logger] connection in
            let rows = try await connection.query("SELECT id FROM pindrop.app_user WHERE id = \(userID) FOR UPDATE", logger: logger)
            guard try await rows.decode(Int64.self).first(where: { _ in true }) != nil else {
                throw PindropError.unauthorized("this user no longer exists")
            }
            return try await body(connection, logger)
        }
    }

    private func insert(_ place: Place, into table: String, conflict: String) -> PostgresQuery {
        let a = place.address
        var bindings = PostgresBindings(capacity: Self.columns.count + 1)
        bindings.append(userID)
        bindings.append(place.id); bindings.append(place.name); bindings.append(place.displayName)
        bindings.append(place.coordinate.latitude); bindings.append(place.coordinate.longitude)
        bindings.append(place.countryCode); bindings.append(place.admin1); bindings.append(place.population)
        bindings.append(place.category); bindings.append(a?.houseNumber); bindings.append(a?.street)
        bindings.append(a?.postcode); bindings.append(a?.town); bindings.append(place.source)
        let placeholders = (1...bindings.count).map { "$\($0)" }.joined(separator: ", ")
        return PostgresQuery(unsafeSQL: """
            INSERT INTO pindrop.\(table) (user_id, \(Self.names)) VALUES (\(placeholders))
            ON CONFLICT (user_id, id) \(conflict)
            """, binds: bindings)
    }

    private func places(in table: String, offset: Int, limit: Int) async throws -> [Place] {
        try await database.withConnection("reading places") { [userID, logger = database.logger] connection in
            let rows = try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT \(Self.names) FROM pindrop.\(table) WHERE user_id = $1 ORDER BY position DESC LIMIT $2 OFFSET $3
                """, binds: Self.bindings(userID, Int64(max(0, min(limit, Int(Int64.max)))), Int64(max(0, offset)))), logger: logger)
            var places: [Place] = []
            typealias Columns = (String, String, String, Double, Double, String?, String?, Int, String?, String?, String?, String?,
                                 String?, String?)
            for try await c in rows.decode(Columns.self) {
                let address = Address(houseNumber: c.9, street: c.10, postcode: c.11, town: c.12)
                places.append(Place(id: c.0, name: c.1, displayName: c.2, coordinate: Coordinate(latitude: c.3, longitude: c.4),
                                    countryCode: c.5, admin1: c.6, population: c.7, category: c.8,
                                    address: address.isEmpty ? nil : address, source: c.13))
            }
            return places
        }
    }

    private static func bindings(_ values: Int64...) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return bindings
    }
}
