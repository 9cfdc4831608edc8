import Foundation
import PindropCore
import PindropIndex
import PindropTesting
import Testing

@Suite("user data store: saved places and recent addresses on disk")
struct UserDataStoreTests {
    /// A fresh data folder per test.
    private func temporaryFolder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pindrop-userdata-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test("saving twice keeps one copy; the list is newest first; remove and contains agree")
    func savedUniqueNewestFirst() async throws {
        let store = try UserDataStore.open(inFolder: try temporaryFolder())
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
            let store = try UserDataStore.open(inFolder: folder)
            try await store.save(SamplePlaces.mannerheimintie)
            try await store.save(SamplePlaces.zurich)
        }
        let reopened = try UserDataStore.open(inFolder: folder)
        #expect(try await reopened.all() == [SamplePlaces.zurich, SamplePlaces.mannerheimintie])
    }

    @Test("saving again refreshes the stored copy: a place keeps the name and coordinates it was saved with last")
    func savedRefresh() async throws {
        let store = try UserDataStore.open(inFolder: try temporaryFolder())
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
        let writer = try UserDataStore.open(inFolder: folder)
        let other = try UserDataStore.open(inFolder: folder)
        try await writer.save(SamplePlaces.parisTexas)
        #expect(try await other.all().map(\.id) == [SamplePlaces.parisTexas.id])
        try await writer.remember(SamplePlaces.parisOntario)
        #expect(try await other.recent(limit: 2).map(\.id) == [SamplePlaces.parisOntario.id])
    }

    @Test("recent places are de-duplicated, newest first, and trimmed to the newest hundred")
    func recentDedupAndTrim() async throws {
        let store = try UserDataStore.open(inFolder: try temporaryFolder())
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
        let store: any RecentPlaces = kind == "file" ? try UserDataStore.open(inFolder: try temporaryFolder()) : InMemoryRecentPlaces()
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
        try await store.save(SamplePlaces.helsinki)
        #expect(try store.appliedMigrations() == ["v1 saved places", "v1 recent places"])
        let header = try #require(FileManager.default.contents(atPath: store.path)?.prefix(20))
        #expect(header[18] == 2 && header[19] == 2, "SQLite header bytes 18-19 are 2 in WAL mode")
        #expect(FileManager.default.fileExists(atPath: store.path + "-wal"))
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
