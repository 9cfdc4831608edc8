import Foundation
import Synchronization
import PindropCore
import GRDB
@testable import PindropIndex
import PindropTesting
import Testing

@Suite("user data store: users, saved places and recent addresses on disk")
struct UserDataStoreTests {
    /// A fresh data folder per test.
    private static func temporaryFolder() throws -> String {
        TestScratch.folder("userdata")
    }

    private func temporaryFolder() throws -> String { try Self.temporaryFolder() }

    /// The local user's places in the store in `folder` (a fresh one by default).
    private func local(_ folder: String? = nil) throws -> any SavedPlaces & RecentPlaces {
        try #require(try UserDataStore.open(inFolder: folder ?? temporaryFolder()).localUser)
    }

    @Test("the file passes the users conformance suite", arguments: UserAccountsConformance.checks)
    func conforms(_ check: UserAccountsConformance.Check) async throws {
        try await check.run(UserAccountsConformance { try UserDataStore.open(inFolder: try Self.temporaryFolder()) })
    }

    @Test("the in-memory fake passes the users conformance suite, with and without a local user",
          arguments: UserAccountsConformance.checks, [true, false])
    func fakeConforms(_ check: UserAccountsConformance.Check, localUser: Bool) async throws {
        try await check.run(UserAccountsConformance { InMemoryUserAccounts(localUser: localUser) })
    }

    @Test("two openers of one fresh file at once (two servers starting on a new home) both succeed")
    func concurrentFirstOpen() throws {
        for _ in 0..<10 {
            let folder = try temporaryFolder()
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 2) { _ in
                do { _ = try UserDataStore.open(inFolder: folder) } catch { failures.withLock { $0.append("\(error)") } }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            #expect(try UserDataStore.open(inFolder: folder).appliedMigrations() == ["v1 saved places", "v1 recent places", "v2 users", "v3 whole places"])
        }
    }

    @Test("saving twice keeps one copy; the list is newest first; remove and contains agree")
    func savedUniqueNewestFirst() async throws {
        let store = try local()
        try await store.save(SamplePlaces.parisFrance)
        try await store.save(SamplePlaces.helsinki)
        try await store.save(SamplePlaces.parisFrance)
        #expect(try await store.all().map(\.id) == [SamplePlaces.helsinki.id, SamplePlaces.parisFrance.id])
        #expect(try await store.contains(id: SamplePlaces.helsinki.id))
        #expect(try await store.remove(id: SamplePlaces.helsinki.id))
        #expect(try await store.remove(id: SamplePlaces.helsinki.id) == false)
        #expect(try await store.contains(id: SamplePlaces.helsinki.id) == false)
        #expect(try await store.all() == [SamplePlaces.parisFrance])
    }

    @Test("a saved place keeps every field, address included, and survives reopening the file")
    func savedRoundTripAndReopen() async throws {
        let folder = try temporaryFolder()
        do {
            let store = try local(folder)
            try await store.save(SamplePlaces.mannerheimintie)
            try await store.save(SamplePlaces.zurich)
        }
        let reopened = try local(folder)
        #expect(try await reopened.all() == [SamplePlaces.zurich, SamplePlaces.mannerheimintie])
    }

    @Test("saving again refreshes the stored copy: a place keeps the name and coordinates it was saved with last")
    func savedRefresh() async throws {
        let store = try local()
        try await store.save(SamplePlaces.helsinki)
        var renamed = SamplePlaces.helsinki
        renamed.displayName = "Helsingfors, Nyland, Finland"
        renamed.coordinate = Coordinate(latitude: 60.17, longitude: 24.94)
        try await store.save(renamed)
        #expect(try await store.all() == [renamed])
    }

    @Test("a write is visible to another connection the moment the call returns (on disk, not buffered)")
    func durableOnReturn() async throws {
        let folder = try temporaryFolder()
        let writer = try local(folder)
        let other = try local(folder)
        try await writer.save(SamplePlaces.parisTexas)
        #expect(try await other.all().map(\.id) == [SamplePlaces.parisTexas.id])
        try await writer.remember(SamplePlaces.parisOntario)
        #expect(try await other.recent(limit: 2).map(\.id) == [SamplePlaces.parisOntario.id])
    }

    @Test("recent places are de-duplicated, newest first, and trimmed to the newest hundred")
    func recentDedupAndTrim() async throws {
        let store = try local()
        for place in [SamplePlaces.parisFrance, SamplePlaces.helsinki, SamplePlaces.parisFrance, SamplePlaces.zurich] {
            try await store.remember(place)
        }
        #expect(try await store.recent(limit: 2).map(\.id) == [SamplePlaces.zurich.id, SamplePlaces.parisFrance.id])
        #expect(try await store.recent(limit: 10).map(\.id) == [SamplePlaces.zurich.id, SamplePlaces.parisFrance.id, SamplePlaces.helsinki.id])
        for n in 0..<(UserDataStore.recentKept + 5) {
            try await store.remember(Place(id: "point:\(n)", name: "Point \(n)", displayName: "Point \(n)",
                                           coordinate: Coordinate(latitude: 1, longitude: Double(n) / 10)))
        }
        let all = try await store.recent(limit: 1000)
        #expect(all.count == UserDataStore.recentKept)
        #expect(all.first?.id == "point:\(UserDataStore.recentKept + 4)")
    }

    @Test("the same address twice in a row is kept once, as the newer, in the file and in memory",
          arguments: ["file", "memory"])
    func sameAddressTwiceInARow(_ kind: String) async throws {
        let store: any RecentPlaces = kind == "file" ? try local() : InMemoryRecentPlaces()
        func address(_ id: String, _ line: String, latitude: Double) -> Place {
            Place(id: id, name: line, displayName: line, coordinate: Coordinate(latitude: latitude, longitude: 24.9356),
                  countryCode: "FI", address: Address(houseNumber: "7", street: "Simonkatu", postcode: "00100", town: "Helsinki"))
        }
        // Two map moves ending on one door: the building's point and the street's point, two ids, one address.
        try await store.remember(address("osm:node/311750218", "Simonkatu 7, 00100 Helsinki", latitude: 60.16902))
        try await store.remember(address("osm:way/185401488", "Simonkatu 7, 00100 Helsinki", latitude: 60.16944))
        try await store.remember(address("osm:way/185401488", "Simonkatu 7, 00100 Helsinki", latitude: 60.16944))
        var recent = try await store.recent(limit: 10)
        #expect(recent.map(\.id) == ["osm:way/185401488"])
        #expect(recent.first?.coordinate.latitude == 60.16944)
        // Not in a row: another address between them, so both stay.
        try await store.remember(SamplePlaces.helsinki)
        try await store.remember(address("osm:node/311750218", "Simonkatu 7, 00100 Helsinki", latitude: 60.16902))
        recent = try await store.recent(limit: 10)
        #expect(recent.map(\.id) == ["osm:node/311750218", SamplePlaces.helsinki.id, "osm:way/185401488"])
    }

    @Test("the file uses WAL and records its named migrations")
    func walAndMigrations() async throws {
        let folder = try temporaryFolder()
        let store = try UserDataStore.open(inFolder: folder)
        try await #require(store.localUser).save(SamplePlaces.helsinki)
        #expect(try store.appliedMigrations() == ["v1 saved places", "v1 recent places", "v2 users", "v3 whole places"])
        let header = try #require(FileManager.default.contents(atPath: store.path)?.prefix(20))
        #expect(header[18] == 2 && header[19] == 2, "SQLite header bytes 18-19 are 2 in WAL mode")
        #expect(FileManager.default.fileExists(atPath: store.path + "-wal"))
    }

    @Test("a file from before there were users keeps its places, in order, as the local user's")
    func migratesToLocalUser() async throws {
        let path = (try temporaryFolder() as NSString).appendingPathComponent(UserDataStore.fileName)
        do {
            let old = try DatabaseQueue(path: path)
            try UserDataStore.migrator.migrate(old, upTo: "v1 recent places")
            try await old.write { db in
                for (n, place) in [SamplePlaces.parisFrance, SamplePlaces.mannerheimintie].enumerated() {
                    // The v1 tables' columns: the first 14.
                    let columns = UserDataPlaceColumns.all.prefix(14)
                    for table in ["saved_place", "recent_place"] {
                        try db.execute(sql: "INSERT INTO \(table) (\(columns.joined(separator: ", ")), position) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")), ?)",
                                       arguments: StatementArguments(UserDataPlaceColumns.values(place).prefix(14) + [(n + 1).databaseValue]))
                    }
                }
            }
        }
        let store = try UserDataStore(path: path)
        let local = try #require(store.localUser)
        #expect(try await local.all() == [SamplePlaces.mannerheimintie, SamplePlaces.parisFrance])
        #expect(try await local.recent(limit: 10) == [SamplePlaces.mannerheimintie, SamplePlaces.parisFrance])
        try await local.save(SamplePlaces.zurich)
        #expect(try await local.all().first == SamplePlaces.zurich, "a new save goes on top of the migrated ones")
        let token = try await store.addUser(named: "alice")
        let alice = store.places(of: try #require(try await store.user(withToken: token)))
        #expect(try await alice.count() == 0)
        #expect(try await alice.recent(limit: 10).isEmpty)
    }

    @Test("a token is pd_ and 43 base64url characters, never the same twice, and only its SHA-256 is in the file")
    func tokensHashedOnly() async throws {
        let tokens = (0..<50).map { _ in UserTokens.make() }
        #expect(Set(tokens).count == tokens.count)
        for token in tokens {
            #expect(token.hasPrefix(UserTokens.prefix) && token.count == 46)
            #expect(token.dropFirst(3).allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        }
        // SHA-256 of "abc" (FIPS 180-2's example).
        #expect(UserTokens.hash("abc").map { String(format: "%02x", $0) }.joined()
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let store = try UserDataStore.open(inFolder: try temporaryFolder())
        let token = try await store.addUser(named: "alice")
        let kept = try await DatabaseQueue(path: store.path).read { db in
            try Data.fetchOne(db, sql: "SELECT token_sha256 FROM user_account WHERE name = 'alice'")
        }
        #expect(kept == Data(UserTokens.hash(token)))
        for file in [store.path, store.path + "-wal"] {
            let bytes = FileManager.default.contents(atPath: file) ?? Data()
            #expect(bytes.range(of: Data(token.utf8)) == nil, "the token itself is not in \(file)")
        }
    }

    @Test("a file that is not a database gives a clear error, not a crash")
    func unreadableFile() throws {
        let folder = try temporaryFolder()
        let path = (folder as NSString).appendingPathComponent(UserDataStore.fileName)
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try UserDataStore(path: path)
        } throws: { error in
            (error as? PindropError)?.message.contains(path) == true
        }
    }
}
