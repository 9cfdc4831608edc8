import GRDB
import PindropCore

/// One user's saved places and recent addresses in a `UserDataStore`: every statement is limited to the user's
/// rows, so paging, counts, the saved cap, the recent de-duplication and the hundred kept are each user's own.
struct UserPlaces: SavedPlaces, RecentPlaces {
    let store: UserDataStore
    let userID: Int64

    // MARK: SavedPlaces

    /// Saved places newest first: at most `limit` of those before position `cursor` (nil: from the newest).
    func page(after cursor: Int64?, limit: Int) async throws -> SavedPage {
        try await store.read { [userID] db in
            // One more than asked says whether there is a next page (SQLite: -1 for no limit).
            let asked = limit >= Int(Int32.max) ? -1 : max(0, limit) + 1
            let rows = try Row.fetchAll(db, sql: """
                SELECT * FROM saved_place WHERE user_id = ? AND position < ? ORDER BY position DESC LIMIT ?
                """, arguments: [userID, cursor ?? Int64.max, asked])
            let kept = rows.prefix(max(0, limit))
            return SavedPage(places: kept.map(UserDataPlaceColumns.place), next: rows.count > kept.count ? kept.last?["position"] : nil)
        }
    }

    /// How many places are saved.
    func count() async throws -> Int {
        try await store.read { [userID] db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM saved_place WHERE user_id = ?", arguments: [userID]) ?? 0
        }
    }

    /// Saves a place; saving it again keeps one copy, refreshed with the new data, in its original position. The
    /// cap is checked in the same (immediate) transaction as the insert.
    @discardableResult func save(_ place: Place, cap: Int) async throws -> Bool {
        try await store.write { [userID] db in
            let isNew = try !(Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM saved_place WHERE user_id = ? AND id = ?)",
                                            arguments: [userID, place.id]) ?? false)
            if isNew, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM saved_place WHERE user_id = ?", arguments: [userID]) ?? 0 >= cap {
                throw PindropError.savedPlacesFull(cap)
            }
            try db.execute(sql: """
                INSERT INTO saved_place (user_id, \(UserDataPlaceColumns.names), position)
                VALUES (?, \(UserDataPlaceColumns.placeholders),
                        (SELECT COALESCE(MAX(position), 0) + 1 FROM saved_place WHERE user_id = ?))
                ON CONFLICT(user_id, id) DO UPDATE SET \(UserDataPlaceColumns.updates)
                """, arguments: [userID] + UserDataPlaceColumns.arguments(place) + [userID])
            return isNew
        }
    }

    /// Removes a place; returns whether it was saved.
    @discardableResult func remove(id: String) async throws -> Bool {
        try await store.write { [userID] db in
            try db.execute(sql: "DELETE FROM saved_place WHERE user_id = ? AND id = ?", arguments: [userID, id])
            return db.changesCount > 0
        }
    }

    /// Whether the id is saved.
    func contains(id: String) async throws -> Bool {
        try await store.read { [userID] db in
            try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM saved_place WHERE user_id = ? AND id = ?)",
                              arguments: [userID, id]) ?? false
        }
    }

    // MARK: RecentPlaces

    /// Recent places newest first, `limit` of them from the `offset`th.
    func recent(offset: Int, limit: Int) async throws -> [Place] {
        try await store.read { [userID] db in
            try Row.fetchAll(db, sql: "SELECT * FROM recent_place WHERE user_id = ? ORDER BY position DESC LIMIT ? OFFSET ?",
                             arguments: [userID, max(0, limit), max(0, offset)]).map(UserDataPlaceColumns.place)
        }
    }

    /// Records a place as the newest, moving it up (and refreshing it) if it was already there; the same address
    /// twice in a row (same id, or same `displayName` under another id) is kept once, as the newer. The newest
    /// `UserDataStore.recentKept` are kept.
    func remember(_ place: Place) async throws {
        try await store.write { [userID] db in
            try db.execute(sql: """
                DELETE FROM recent_place WHERE user_id = ? AND display_name = ? AND id != ?
                AND position = (SELECT MAX(position) FROM recent_place WHERE user_id = ?)
                """, arguments: [userID, place.displayName, place.id, userID])
            try db.execute(sql: """
                INSERT INTO recent_place (user_id, \(UserDataPlaceColumns.names), position)
                VALUES (?, \(UserDataPlaceColumns.placeholders),
                        (SELECT COALESCE(MAX(position), 0) + 1 FROM recent_place WHERE user_id = ?))
                ON CONFLICT(user_id, id) DO UPDATE SET \(UserDataPlaceColumns.updates), position = excluded.position
                """, arguments: [userID] + UserDataPlaceColumns.arguments(place) + [userID])
            try db.execute(sql: """
                DELETE FROM recent_place WHERE user_id = ? AND position <= (
                    SELECT position FROM recent_place WHERE user_id = ? ORDER BY position DESC LIMIT 1 OFFSET ?)
                """, arguments: [userID, userID, UserDataStore.recentKept])
        }
    }
}
