import Foundation
import PindropCore

/// Saved places kept in memory, with the same rules as the durable store: unique by id, newest first, each in
/// the position it was first saved at (saving again refreshes the copy there), the cap checked with the insert.
public actor InMemorySavedPlaces: SavedPlaces {
    /// Newest first, with their positions.
    private var list: [(place: Place, position: Int64)]

    /// Starts with `places` already saved (first = newest).
    public init(_ places: [Place] = []) {
        list = places.enumerated().map { ($1, Int64(places.count - $0)) }
    }

    /// Saved places newest first: at most `limit` of those before position `cursor` (nil: from the newest).
    public func page(after cursor: Int64?, limit: Int) async throws -> SavedPage {
        let after = list.drop(while: { $0.position >= cursor ?? .max })
        let kept = after.prefix(max(0, limit))
        return SavedPage(places: kept.map(\.place), next: after.count > kept.count ? kept.last?.position : nil)
    }

    /// How many places are saved.
    public func count() async throws -> Int { list.count }

    /// Saves a place once; saving again replaces the stored copy in place. A new one only below `cap`.
    @discardableResult public func save(_ place: Place, cap: Int) async throws -> Bool {
        if let index = list.firstIndex(where: { $0.place.id == place.id }) {
            list[index].place = place
            return false
        }
        guard list.count < cap else { throw PindropError.savedPlacesFull(cap) }
        list.insert((place, (list.first?.position ?? 0) + 1), at: 0)
        return true
    }

    /// Removes a place; returns whether it was saved.
    @discardableResult public func remove(id: String) async throws -> Bool {
        guard let index = list.firstIndex(where: { $0.place.id == id }) else { return false }
        list.remove(at: index)
        return true
    }

    /// Whether the id is saved.
    public func contains(id: String) async throws -> Bool { list.contains { $0.place.id == id } }
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

/// Users and their places kept in memory, with the same rules as the durable store (`UserAccountsConformance`
/// holds both to them). Tokens are kept as given, not hashed: nothing here outlives the process.
public actor InMemoryUserAccounts: UserAccounts {
    private var accounts: [(account: UserAccount, token: String)] = []
    private var lists: [Int64: (saved: InMemorySavedPlaces, recent: InMemoryRecentPlaces)] = [:]
    private var lastID: Int64 = 0
    private let hasLocalUser: Bool

    /// No named users yet; with a local user (id 0) for requests without a token, unless `localUser` is false.
    public init(localUser: Bool = true) { hasLocalUser = localUser }

    /// Adds a user and returns a new random token for them.
    public func addUser(named name: String) async throws -> String {
        let name = try UserAccount.validatedName(name)
        guard !accounts.contains(where: { $0.account.name == name }) else {
            throw PindropError.invalidInput("a user named \"\(name)\" already exists")
        }
        lastID += 1
        let token = "fake_" + UUID().uuidString + UUID().uuidString
        accounts.append((UserAccount(id: lastID, name: name, added: Date()), token))
        return token
    }

    /// Every named user, oldest first.
    public func users() async throws -> [UserAccount] { accounts.map(\.account) }

    /// Removes a user and their places; returns whether the name was known.
    @discardableResult public func removeUser(named name: String) async throws -> Bool {
        guard let index = accounts.firstIndex(where: { $0.account.name == name }) else { return false }
        lists[accounts.remove(at: index).account.id] = nil
        return true
    }

    /// The user a token belongs to, or nil.
    public func user(withToken token: String) async throws -> UserAccount? {
        accounts.first { $0.token == token }?.account
    }

    /// A user's saved places and recent addresses.
    public nonisolated func places(of user: UserAccount) -> any SavedPlaces & RecentPlaces { Places(accounts: self, id: user.id) }

    /// The local user's (id 0), or nil when made without one.
    public nonisolated var localUser: (any SavedPlaces & RecentPlaces)? { hasLocalUser ? Places(accounts: self, id: 0) : nil }

    /// The lists of user `id`, made on first use.
    func lists(of id: Int64) -> (saved: InMemorySavedPlaces, recent: InMemoryRecentPlaces) {
        if let found = lists[id] { return found }
        let made = (InMemorySavedPlaces(), InMemoryRecentPlaces())
        lists[id] = made
        return made
    }

    /// One user's view.
    struct Places: SavedPlaces, RecentPlaces {
        let accounts: InMemoryUserAccounts
        let id: Int64

        func page(after cursor: Int64?, limit: Int) async throws -> SavedPage {
            try await accounts.lists(of: id).saved.page(after: cursor, limit: limit)
        }
        func count() async throws -> Int { try await accounts.lists(of: id).saved.count() }
        @discardableResult func save(_ place: Place, cap: Int) async throws -> Bool {
            try await accounts.lists(of: id).saved.save(place, cap: cap)
        }
        @discardableResult func remove(id place: String) async throws -> Bool { try await accounts.lists(of: id).saved.remove(id: place) }
        func contains(id place: String) async throws -> Bool { try await accounts.lists(of: id).saved.contains(id: place) }
        func recent(offset: Int, limit: Int) async throws -> [Place] { try await accounts.lists(of: id).recent.recent(offset: offset, limit: limit) }
        func remember(_ place: Place) async throws { try await accounts.lists(of: id).recent.remember(place) }
    }
}
