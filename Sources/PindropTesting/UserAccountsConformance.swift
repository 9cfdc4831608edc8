import Foundation
import PindropCore

/// The checks every `UserAccounts` store must pass (the embedded SQLite file, the PostgreSQL store, the in-memory
/// fake): users never see, count or delete each other's places, tokens find their user and nothing else, a
/// removed user is gone with their data, names are checked, and the local user (where there is one) is nobody
/// else. A store's tests run each check on a fresh, empty store, e.g.
///
/// ```swift
/// @Test(arguments: UserAccountsConformance.checks)
/// func conforms(_ check: UserAccountsConformance.Check) async throws {
///     try await check.run(UserAccountsConformance { try UserDataStore.open(inFolder: newFolder()) })
/// }
/// ```
public struct UserAccountsConformance: Sendable {
    /// Makes a new, empty store for one check.
    public let makeStore: @Sendable () async throws -> any UserAccounts

    /// A suite over the stores `makeStore` makes.
    public init(makeStore: @escaping @Sendable () async throws -> any UserAccounts) {
        self.makeStore = makeStore
    }

    /// One named check; throws `ConformanceFailure` saying what went wrong.
    public struct Check: Sendable, CustomStringConvertible {
        /// What it checks, as a test name.
        public let description: String
        let body: @Sendable (any UserAccounts) async throws -> Void

        /// Runs the check on a new store from the suite.
        public func run(_ suite: UserAccountsConformance) async throws { try await body(try await suite.makeStore()) }
    }

    /// Every check, in a stable order.
    public static let checks: [Check] = userChecks + savedPlaceChecks

    /// The checks of users and what they share.
    static let userChecks: [Check] = [
        Check(description: "two users never see, count or delete each other's saved places") { store in
            let (alice, bob) = try await twoUsers(store)
            try await alice.save(SamplePlaces.parisFrance)
            try await alice.save(SamplePlaces.helsinki)
            try await bob.save(SamplePlaces.zurich)
            try require(try await alice.page(after: nil, limit: 10).places.map(\.id) == [SamplePlaces.helsinki.id, SamplePlaces.parisFrance.id],
                        "alice's saved places are her two, newest first")
            try require(try await bob.page(after: nil, limit: 10).places.map(\.id) == [SamplePlaces.zurich.id], "bob sees only his place")
            let first = try await alice.page(after: nil, limit: 1)
            try require(try await alice.page(after: first.next, limit: 10).places.map(\.id) == [SamplePlaces.parisFrance.id], "alice's second page")
            try require(try await alice.count() == 2, "alice's count is her own")
            try require(try await bob.count() == 1, "bob's count is his own")
            try require(try await bob.contains(id: SamplePlaces.helsinki.id) == false, "bob does not hold alice's place")
            try require(try await bob.remove(id: SamplePlaces.helsinki.id) == false, "bob cannot remove alice's place")
            try require(try await alice.contains(id: SamplePlaces.helsinki.id), "alice keeps her place after bob's remove")
            // The same place saved by both is two saves: one removal leaves the other.
            try await bob.save(SamplePlaces.helsinki)
            try require(try await bob.remove(id: SamplePlaces.helsinki.id), "bob removes his own save")
            try require(try await alice.contains(id: SamplePlaces.helsinki.id), "alice's save of the same place stays")
        },
        Check(description: "two users never see each other's recent addresses; de-duplication and trimming are per user") { store in
            let (alice, bob) = try await twoUsers(store)
            try await alice.remember(SamplePlaces.parisFrance)
            try await alice.remember(SamplePlaces.helsinki)
            try await bob.remember(SamplePlaces.zurich)
            try require(try await alice.recent(offset: 0, limit: 10).map(\.id) == [SamplePlaces.helsinki.id, SamplePlaces.parisFrance.id],
                        "alice's recent addresses are hers, newest first")
            try require(try await bob.recent(offset: 0, limit: 10).map(\.id) == [SamplePlaces.zurich.id], "bob sees only his")
            // Bob remembering alice's newest address under another id leaves her list alone.
            var twin = SamplePlaces.helsinki
            twin.id = "geonames:999999999"
            try await bob.remember(twin)
            try require(try await alice.recent(offset: 0, limit: 10).count == 2, "bob's same address does not replace alice's")
            // Many of alice's never push out bob's.
            for n in 0..<150 {
                try await alice.remember(Place(id: "point:\(n)", name: "Point \(n)", displayName: "Point \(n)",
                                               coordinate: Coordinate(latitude: 1, longitude: Double(n) / 10)))
            }
            try require(try await bob.recent(offset: 0, limit: 10).map(\.id) == [twin.id, SamplePlaces.zurich.id],
                        "bob's recent addresses outlast alice's many")
        },
        Check(description: "a token finds its user; a wrong, changed or empty token finds none") { store in
            let aliceToken = try await store.addUser(named: "alice")
            let bobToken = try await store.addUser(named: "bob")
            try require(aliceToken != bobToken && !aliceToken.isEmpty, "each user gets a token of their own")
            try require(try await store.user(withToken: aliceToken)?.name == "alice", "alice's token finds alice")
            try require(try await store.user(withToken: bobToken)?.name == "bob", "bob's token finds bob")
            try require(try await store.users().map(\.name) == ["alice", "bob"], "users are listed oldest first")
            // Each says when it was added: just now (within minutes, as a busy machine allows; a time zone slip is
            // half an hour or more), and alice no later than bob (stores keep whole seconds).
            let added = try await store.users().map(\.added)
            try require(added.allSatisfy { $0.map { abs($0.timeIntervalSinceNow) < 1_500 } ?? false }, "each user was added just now: \(added)")
            try require(added[0]! <= added[1]!, "alice was added before bob")
            let changed = String(aliceToken.dropLast()) + (aliceToken.last == "A" ? "B" : "A")
            for wrong in [changed, aliceToken + "x", String(aliceToken.dropLast()), "", "alice", aliceToken.uppercased()] where wrong != aliceToken {
                try require(try await store.user(withToken: wrong) == nil, "the token \"\(wrong)\" finds nobody")
            }
        },
        Check(description: "a removed user's token stops working and their data is gone; others keep theirs") { store in
            let aliceToken = try await store.addUser(named: "alice")
            _ = try await store.addUser(named: "bob")
            let alice = try await account(store, aliceToken)
            let bob = store.places(of: try await account(store, "bob", byName: true))
            try await store.places(of: alice).save(SamplePlaces.parisFrance)
            try await store.places(of: alice).remember(SamplePlaces.helsinki)
            try await bob.save(SamplePlaces.zurich)
            try await bob.remember(SamplePlaces.zurich)
            try require(try await store.removeUser(named: "alice"), "removing alice says she was known")
            try require(try await store.removeUser(named: "alice") == false, "removing her again says she was not")
            try require(try await store.user(withToken: aliceToken) == nil, "her token finds nobody")
            try require(try await store.users().map(\.name) == ["bob"], "only bob is listed")
            try require(try await store.places(of: alice).count() == 0, "her saved places are gone")
            try require(try await store.places(of: alice).recent(offset: 0, limit: 10).isEmpty, "her recent addresses are gone")
            // The name is free again, for a new user who starts with nothing.
            let again = try await store.addUser(named: "alice")
            let newAlice = store.places(of: try await account(store, again))
            try require(try await newAlice.count() == 0, "a new alice starts with no saved places")
            try require(try await newAlice.recent(offset: 0, limit: 10).isEmpty, "a new alice starts with no recent addresses")
            try require(try await bob.count() == 1, "bob keeps his saved place")
            try require(try await bob.recent(offset: 0, limit: 10).count == 1, "bob keeps his recent address")
        },
        Check(description: "an empty, blank or taken name is refused with invalidInput") { store in
            _ = try await store.addUser(named: "alice")
            for name in ["", "   ", "alice", " bob", "a\u{7}b", String(repeating: "n", count: UserAccount.maxNameLength + 1)] {
                do {
                    _ = try await store.addUser(named: name)
                    throw ConformanceFailure(description: "the name \"\(name)\" was taken")
                } catch let error as PindropError {
                    guard case .invalidInput = error else {
                        throw ConformanceFailure(description: "the name \"\(name)\" threw \(error), not invalidInput")
                    }
                }
            }
            try require(try await store.users().map(\.name) == ["alice"], "no refused name was added")
        },
        Check(description: "the local user, where there is one, shares nothing with named users") { store in
            guard let local = store.localUser else { return }
            let token = try await store.addUser(named: "local")
            let named = store.places(of: try await account(store, token))
            try await local.save(SamplePlaces.parisFrance)
            try await local.remember(SamplePlaces.parisFrance)
            try await named.save(SamplePlaces.zurich)
            try require(try await local.page(after: nil, limit: 10).places.map(\.id) == [SamplePlaces.parisFrance.id], "the local user sees theirs")
            try require(try await named.page(after: nil, limit: 10).places.map(\.id) == [SamplePlaces.zurich.id], "a user named local is not the local user")
            try require(try await named.recent(offset: 0, limit: 10).isEmpty, "the local user's recent addresses are their own")
            try require(try await store.users().map(\.name) == ["local"], "the local user is not listed among the named ones")
            try require(try await store.removeUser(named: "local"), "the named user is removed")
            try require(try await local.count() == 1, "the local user's places stay")
        },
    ]

    /// Adds alice and bob and returns their places.
    static func twoUsers(_ store: any UserAccounts) async throws -> (any SavedPlaces & RecentPlaces, any SavedPlaces & RecentPlaces) {
        let alice = try await account(store, try await store.addUser(named: "alice"))
        let bob = try await account(store, try await store.addUser(named: "bob"))
        return (store.places(of: alice), store.places(of: bob))
    }

    /// The account a token (or, `byName`, a name) names, or a failure.
    static func account(_ store: any UserAccounts, _ key: String, byName: Bool = false) async throws -> UserAccount {
        let found = byName ? try await store.users().first { $0.name == key } : try await store.user(withToken: key)
        guard let found else { throw ConformanceFailure(description: "no user for \(byName ? "the name" : "a token just made") \(key)") }
        return found
    }
}
