import PindropCore

/// Saved places kept in memory, with the same rules as the durable store: unique by id, newest first,
/// saving again refreshes the copy but keeps its place in the order.
public actor InMemorySavedPlaces: SavedPlaces {
    private var list: [Place]

    /// Starts with `places` already saved (first = newest).
    public init(_ places: [Place] = []) { list = places }

    /// Saved places newest first, `limit` of them from the `offset`th.
    public func page(offset: Int, limit: Int) async throws -> [Place] { Array(list.dropFirst(max(0, offset)).prefix(max(0, limit))) }

    /// How many places are saved.
    public func count() async throws -> Int { list.count }

    /// Saves a place once; saving again replaces the stored copy in place.
    public func save(_ place: Place) async throws {
        if let index = list.firstIndex(where: { $0.id == place.id }) { list[index] = place }
        else { list.insert(place, at: 0) }
    }

    /// Removes a place; returns whether it was saved.
    @discardableResult public func remove(id: String) async throws -> Bool {
        guard let index = list.firstIndex(where: { $0.id == id }) else { return false }
        list.remove(at: index)
        return true
    }

    /// Whether the id is saved.
    public func contains(id: String) async throws -> Bool { list.contains { $0.id == id } }
}

/// Recent places kept in memory: de-duplicated by id, newest first.
public actor InMemoryRecentPlaces: RecentPlaces {
    private var list: [Place] = []

    /// Starts empty.
    public init() {}

    /// Recent places newest first, `limit` of them from the `offset`th.
    public func recent(offset: Int, limit: Int) async throws -> [Place] { Array(list.dropFirst(max(0, offset)).prefix(max(0, limit))) }

    /// Records a place as the newest, moving it up if it was already there; the same address twice in a row
    /// (same `displayName` under another id) is kept once, as the newer.
    public func remember(_ place: Place) async throws {
        if list.first?.displayName == place.displayName { list.removeFirst() }
        list.removeAll { $0.id == place.id }
        list.insert(place, at: 0)
    }
}
