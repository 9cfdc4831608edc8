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
                          "category", "house_number", "street", "postcode", "town", "source",
                          "suburb", "county", "state", "country", "category_key", "kind",
                          "box_south", "box_west", "box_north", "box_east", "neighbourhood", "address_place", "town_kind", "tags"]
    static let names = columns.joined(separator: ", ")
    static let updates = columns.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    // MARK: SavedPlaces

    func page(after cursor: Int64?, limit: Int) async throws -> SavedPage {
        // One more than asked says whether there is a next page.
        let rows = try await places(in: "saved_place", before: cursor, offset: 0, limit: limit == .max ? limit : max(0, limit) + 1)
        let kept = rows.prefix(max(0, limit))
        return SavedPage(places: kept.map { $0.place }, next: rows.count > kept.count ? kept.last?.position : nil)
    }

    func count() async throws -> Int {
        try await database.withConnection("counting saved places") { [userID, logger = database.logger] connection in
            let rows = try await connection.query("SELECT count(*) FROM pindrop.saved_place WHERE user_id = \(userID)", logger: logger)
            return try await rows.decode(Int.self).first { _ in true } ?? 0
        }
    }

    /// Saves a place; saving it again keeps one copy, refreshed, in its original position. The cap is checked in
    /// the transaction that inserts, after the user's row is locked: one user's saves run one after the other.
    @discardableResult func save(_ place: Place, cap: Int) async throws -> Bool {
        try await writing("saving a place") { [userID] connection, logger in
            let rows = try await connection.query("""
                SELECT EXISTS (SELECT 1 FROM pindrop.saved_place WHERE user_id = \(userID) AND id = \(place.id)),
                       (SELECT count(*) FROM pindrop.saved_place WHERE user_id = \(userID))
                """, logger: logger)
            let (exists, count) = try await rows.decode((Bool, Int).self).first { _ in true } ?? (false, 0)
            if !exists, count >= cap { throw PindropError.savedPlacesFull(cap) }
            try await connection.query(insert(place, into: "saved_place", conflict: "DO UPDATE SET \(Self.updates)"), logger: logger)
            return !exists
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
        try await places(in: "recent_place", before: nil, offset: offset, limit: limit).map { $0.place }
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
        bindings.append(a?.suburb); bindings.append(a?.county); bindings.append(a?.state); bindings.append(a?.country)
        bindings.append(place.categoryKey); bindings.append(place.kind?.rawValue)
        let box = place.boundingBox
        bindings.append(box?.south); bindings.append(box?.west); bindings.append(box?.north); bindings.append(box?.east)
        bindings.append(a?.neighbourhood); bindings.append(a?.place); bindings.append(a?.townKind); bindings.append(PlaceTags.text(place.tags))
        let placeholders = (1...bindings.count).map { "$\($0)" }.joined(separator: ", ")
        return PostgresQuery(unsafeSQL: """
            INSERT INTO pindrop.\(table) (user_id, \(Self.names)) VALUES (\(placeholders))
            ON CONFLICT (user_id, id) \(conflict)
            """, binds: bindings)
    }

    /// A table's places newest first, with their positions: those before `cursor` (nil: all), from the `offset`th.
    private func places(in table: String, before cursor: Int64?, offset: Int, limit: Int) async throws -> [(place: Place, position: Int64)] {
        try await database.withConnection("reading places") { [userID, logger = database.logger] connection in
            let rows = try await connection.query(PostgresQuery(unsafeSQL: """
                SELECT \(Self.names), position FROM pindrop.\(table) WHERE user_id = $1 AND position < $2
                ORDER BY position DESC LIMIT $3 OFFSET $4
                """, binds: Self.bindings(userID, cursor ?? .max, Int64(max(0, min(limit, Int(Int64.max)))), Int64(max(0, offset)))),
                logger: logger)
            var places: [(place: Place, position: Int64)] = []
            for try await row in rows { places.append(try Self.place(row.makeRandomAccess())) }
            return places
        }
    }

    /// A place row (`columns` then `position`) as a place and its position.
    private static func place(_ c: PostgresRandomAccessRow) throws -> (place: Place, position: Int64) {
        func text(_ i: Int) throws -> String? { try c[i].decode(String?.self) }
        func number(_ i: Int) throws -> Double? { try c[i].decode(Double?.self) }
        let address = Address(houseNumber: try text(9), street: try text(10), postcode: try text(11), town: try text(12),
                              suburb: try text(14), county: try text(15), state: try text(16), country: try text(17),
                              neighbourhood: try text(24), place: try text(25), townKind: try text(26))
        let box: BoundingBox? = if let south = try number(20), let west = try number(21), let north = try number(22),
                                   let east = try number(23) {
            BoundingBox(south: south, west: west, north: north, east: east)
        } else {
            nil
        }
        var place = Place(id: try c[0].decode(String.self), name: try c[1].decode(String.self), displayName: try c[2].decode(String.self),
                          coordinate: Coordinate(latitude: try c[3].decode(Double.self), longitude: try c[4].decode(Double.self)),
                          countryCode: try text(5), admin1: try text(6), population: try c[7].decode(Int.self), category: try text(8),
                          address: address.isEmpty ? nil : address, source: try text(13), boundingBox: box,
                          kind: try text(19).flatMap(PlaceKind.init(rawValue:)), categoryKey: try text(18))
        place.tags = PlaceTags.tags(text: try text(27))
        return (place, try c[28].decode(Int64.self))
    }

    private static func bindings(_ values: Int64...) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values { bindings.append(value) }
        return bindings
    }
}
