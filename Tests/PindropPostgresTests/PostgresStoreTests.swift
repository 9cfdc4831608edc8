import Foundation
import PindropCore
import PindropImport
import PindropIndex
import PindropTesting
import PostgresNIO
import Synchronization
import Testing
@testable import PindropPostgres

@Suite("PostgreSQL store: the conformance suite, the same answers as the embedded store, imports that replace whole",
       .enabled(if: TestDatabase.isAvailable, "needs PINDROP_TEST_DATABASE_URL (scripts/test.sh starts a cluster)"))
struct PostgresStoreTests {
    @Test("the PostgreSQL store passes", arguments: StoreConformance.checks)
    func conforms(_ check: StoreConformance.Check) async throws {
        try await check.run(StoreConformance(store: try await TestDatabase.shared(), data: try TestDatabase.data.get()))
    }

    @Test("its users pass the user accounts suite", arguments: UserAccountsConformance.checks)
    func usersConform(_ check: UserAccountsConformance.Check) async throws {
        try await check.run(UserAccountsConformance {
            try await PostgresUserAccounts.open(database: try await TestDatabase.create("pindrop_users_\(UInt32.random(in: 0...UInt32.max))"))
        })
    }

    @Test("a saved place is on disk once save returns, and one user's writes through two servers all land")
    func concurrentWritesOfOneUser() async throws {
        let database = try await TestDatabase.create("pindrop_writes")
        defer { database.close() }
        let users = try await PostgresUserAccounts.open(database: database)
        let token = try await users.addUser(named: "walker")
        // Two pools stand for two servers sharing the database.
        let other = try PostgresPool(url: try TestDatabase.url(of: "pindrop_writes_\(getpid())"), statementTimeout: TestDatabase.patience,
                                     answerTimeout: TestDatabase.patience, lockTimeout: TestDatabase.patience)
        defer { other.close() }
        let second = PostgresUserAccounts(database: other)
        let user = try #require(try await users.user(withToken: token))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<60 {
                let places = (n % 2 == 0 ? users : second).places(of: user)
                group.addTask {
                    let place = Place(id: "point:\(n)", name: "Point \(n)", displayName: "Point \(n)",
                                      coordinate: Coordinate(latitude: 60, longitude: 24 + Double(n) / 1000))
                    try await places.save(place)
                    try await places.remember(place)
                }
            }
            try await group.waitForAll()
        }
        #expect(try await second.places(of: user).count() == 60)
        #expect(try await users.places(of: user).recent(offset: 0, limit: 100).count == 60)
        #expect(Set(try await users.places(of: user).page(after: nil, limit: 100).places.map(\.id)).count == 60)
    }

    @Test("it answers exactly as the embedded store built from the same files")
    func answersAsEmbedded() async throws {
        let shared = try await TestDatabase.shared()
        let path = TestDatabase.cacheFolder("embedded") + "/geonames.sqlite"
        _ = try await IndexBuilder(path: path).importGeoNames(try GeoNamesReader.locate(ConformanceData.geonamesFolder),
                                                               streets: OSMExtracts(files: [ConformanceData.helsinkiExtract]), progress: nil)
        let embedded = try PlaceIndex.open(at: path)
        func ids(_ results: [PlaceResult]) -> [String] { results.map(\.place.id) }
        var compared = 0
        for (_, query, _) in ConformanceData.keptQueries {
            let request = try SearchRequest(text: query, limit: 5)
            #expect(try await ids(shared.search(request)) == ids(embedded.search(request)), "search \(query)")
            let prefix = try SuggestRequest(text: String(query.prefix(4)), limit: 5, minChars: 1)
            #expect(try await ids(shared.suggest(prefix)) == ids(embedded.suggest(prefix)), "suggest \(prefix.text)")
            compared += 2
        }
        var random = SplitMix64(seed: 10)
        for _ in 0..<300 {
            // Central Helsinki (street addresses, venues) and anywhere on land or sea.
            let helsinki = Coordinate(latitude: 60.160 + 0.016 * random.unit(), longitude: 24.925 + 0.035 * random.unit())
            let anywhere = Coordinate(latitude: 140 * random.unit() - 70, longitude: 360 * random.unit() - 180)
            for point in [helsinki, anywhere] {
                let reverse = try ReverseRequest(coordinate: point, limit: 3)
                #expect(try await ids(shared.reverse(reverse)) == ids(embedded.reverse(reverse)), "reverse \(point)")
                compared += 1
            }
            let nearby = try NearbyRequest(coordinate: helsinki, radiusMeters: 400, limit: 10, category: random.below(2) == 0 ? "cafe" : nil)
            #expect(try await ids(shared.nearby(nearby)) == ids(embedded.nearby(nearby)), "nearby \(helsinki)")
            compared += 1
        }
        #expect(compared > 2_000)
        #expect(try await shared.status().placeCount == embedded.status().placeCount)
        #expect(try await shared.status().name == "postgres")
    }

    @Test("a new import replaces the places without duplicates, and a serving store follows it without a restart")
    func reimportReplaces() async throws {
        let database = try await TestDatabase.create("pindrop_reimport")
        defer { database.close() }
        _ = try await PostgresPlaceWriter(database: database).importGeoNames(MemoryGeoNames(rows: MemoryGeoNames.towns(50, prefix: "Alphaby")),
                                                                            streets: nil, progress: nil)
        let store = try await PostgresPlaceStore.open(database: database, cacheFolder: TestDatabase.cacheFolder("reimport"))
        defer { store.close() }
        #expect(try await store.search(try SearchRequest(text: "Alphaby 7")).first?.place.name == "Alphaby 7")
        let first = store.datasetID

        let report = try await PostgresPlaceWriter(database: database).importGeoNames(
            MemoryGeoNames(rows: MemoryGeoNames.towns(30, prefix: "Betaby")), streets: nil, progress: nil)
        #expect(report.summary.rowsImported == 30)
        #expect(try await count("pindrop_places.geonames_place", in: database) == 30)
        // The store hears of the import (NOTIFY) and loads it.
        let deadline = ContinuousClock.now + .seconds(60)
        while store.datasetID == first, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(store.datasetID != first)
        #expect(try await store.search(try SearchRequest(text: "Betaby 3")).first?.place.name == "Betaby 3")
        #expect(try await store.search(try SearchRequest(text: "Alphaby 7")).allSatisfy { !$0.place.name.hasPrefix("Alphaby") })
    }

    @Test("a serving store follows an import of streets over the GeoNames places it holds, answering as a store that read every row")
    func followsStreetImports() async throws {
        let database = try await TestDatabase.create("pindrop_streets")
        defer { database.close() }
        _ = try await PostgresPlaceWriter(database: database).importGeoNames(MemoryGeoNames(rows: MemoryGeoNames.towns(50, prefix: "Testby")),
                                                                            streets: nil, progress: nil)
        let store = try await PostgresPlaceStore.open(database: database, cacheFolder: TestDatabase.cacheFolder("streets"))
        defer { store.close() }
        let helsinki = OSMExtracts(files: [ConformanceData.helsinkiExtract])
        for round in 0..<2 {
            let before = store.datasetID
            if round == 1 {
                // Its index removed from under it (as a server sharing the cache folder may): it reads every row instead.
                for file in PlaceIndex.files(at: store.index.path) { try FileManager.default.removeItem(atPath: file) }
            }
            _ = try await PostgresPlaceWriter(database: database).importStreets(helsinki, progress: nil)
            let deadline = ContinuousClock.now + .seconds(120)
            while store.datasetID == before, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            #expect(store.datasetID != before)
            let fresh = try await PostgresPlaceStore.open(database: database, cacheFolder: TestDatabase.cacheFolder("streets-\(round)"))
            defer { fresh.close() }
            #expect(fresh.datasetID == store.datasetID)
            let spot = Coordinate(latitude: 60.1699, longitude: 24.9384)
            func answers(_ s: PostgresPlaceStore) async throws -> [[String]] {
                let asked = [try await s.search(try SearchRequest(text: "Mannerheimintie 5")), try await s.search(try SearchRequest(text: "Testby 7")),
                             try await s.suggest(try SuggestRequest(text: "Aleksant")), try await s.reverse(ReverseRequest(coordinate: spot)),
                             try await s.nearby(try NearbyRequest(coordinate: spot, radiusMeters: 500, category: "cafe"))]
                return asked.map { $0.map { "\($0.place.id) \($0.place.displayName)" } }
            }
            let served = try await answers(store)
            #expect(served[0].first?.contains("Mannerheimintie 5") == true)
            #expect(served[1].first?.contains("Testby 7") == true)
            #expect(served[4].count > 3)
            #expect(served == (try await answers(fresh)))
        }
    }

    @Test("a read of the places is done again when an import replaced them meanwhile: no server builds an index of empty tables")
    func readAgainAfterAnImport() async throws {
        let database = try await TestDatabase.create("pindrop_reread")
        defer { database.close() }
        let helsinki = OSMExtracts(files: [ConformanceData.helsinkiExtract])
        _ = try await PostgresPlaceWriter(database: database).importGeoNames(MemoryGeoNames(rows: MemoryGeoNames.towns(20)), streets: helsinki,
                                                                            progress: nil)
        let first = try #require(try await datasetID(in: database))
        let reads = Mutex(0)
        // A server's read of the street level, with an import committing after its snapshot was taken, before it
        // reads the tables (the first time only).
        let read: @Sendable (PostgresConnection, Logger) async throws -> StoredStreets? = { connection, logger in
            guard let (rows, dataset) = try await PlaceRowReader.snapshot(on: connection, logger: logger) else { return nil }
            if reads.withLock({ $0 += 1; return $0 }) == 1 {
                _ = try await PostgresPlaceWriter(database: database).importStreets(helsinki, progress: nil)
            }
            var features = OSMFeatures()
            try await rows.readFeatures(into: &features)
            return StoredStreets(dataset: dataset, features: features)
        }
        // Read once, the replaced tables are empty in the older snapshot.
        let once = try #require(try await database.transaction("reading", bounded: false) { try await read($0, database.logger) })
        #expect(once.dataset.id == first)
        #expect(once.features.venues.isEmpty)
        // Read as servers read: again, until the import read is the one served.
        reads.withLock { $0 = 0 }
        let kept = try #require(try await PostgresPlaceStore.readServed(database, doing: "reading", read, dataset: \.dataset))
        #expect(reads.withLock { $0 } == 2)
        #expect(kept.dataset.id == (try await datasetID(in: database)))
        #expect(kept.features.venues == (try helsinki.readFeatures().venues))
    }

    @Test("a failed import leaves the previous places serving, and nothing of it behind")
    func failedImportKeepsPlaces() async throws {
        let database = try await TestDatabase.create("pindrop_failed")
        defer { database.close() }
        let writer = PostgresPlaceWriter(database: database)
        _ = try await writer.importGeoNames(MemoryGeoNames(rows: MemoryGeoNames.towns(40, prefix: "Gammaby")), streets: nil, progress: nil)
        let before = try await datasetID(in: database)
        // 300,000 rows: the reader breaks after several chunks have already gone into COPY.
        let broken = MemoryGeoNames(rows: MemoryGeoNames.towns(300_000, prefix: "Deltaby"), failAfter: 250_000)
        let error = await #expect(throws: PindropError.self) {
            _ = try await writer.importGeoNames(broken, streets: nil, progress: nil)
        }
        #expect(error?.message.contains("broke at row 250001") == true)
        #expect(try await datasetID(in: database) == before)
        #expect(try await count("pindrop_places.geonames_place", in: database) == 40)
        #expect(try await count("pg_namespace WHERE nspname = 'pindrop_places_staging'", in: database) == 0)
        let store = try await PostgresPlaceStore.open(database: database, cacheFolder: TestDatabase.cacheFolder("failed"))
        defer { store.close() }
        #expect(try await store.search(try SearchRequest(text: "Gammaby 12")).first?.place.name == "Gammaby 12")

        // A file with no readable rows at all is refused the same way.
        await #expect(throws: PindropError.unreadableData("memory.txt holds no readable GeoNames rows (0 malformed)")) {
            _ = try await writer.importGeoNames(MemoryGeoNames(rows: []), streets: nil, progress: nil)
        }
        #expect(try await datasetID(in: database) == before)
    }

    @Test("a second import while one is running is refused, saying so")
    func oneImportAtATime() async throws {
        let database = try await TestDatabase.create("pindrop_busy")
        defer { database.close() }
        try await PostgresSchema.migrate(database)
        // Another import holds the lock inside its transaction while this one tries.
        try await database.transaction("holding the import lock") { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.importLock))", logger: database.logger)
            let error = await #expect(throws: PindropError.self) {
                _ = try await PostgresPlaceWriter(database: database).importGeoNames(
                    MemoryGeoNames(rows: MemoryGeoNames.towns(5)), streets: nil, progress: nil)
            }
            #expect(error?.code == "store_unavailable")
            #expect(error?.message.contains("another import") == true)
        }
        #expect(try await PostgresPlaceStore.isEmpty(database))
    }

    @Test("names with tabs, newlines, backslashes, quotes and commas come back from the database exactly")
    func textRoundTrips() async throws {
        let database = try await TestDatabase.create("pindrop_text")
        defer { database.close() }
        var rows = MemoryGeoNames.towns(4)
        rows[0].name = "Tab\there \\ back\\slash"
        rows[0].alternateNames = ["a,b", "{brace}", "quote \"q\"", "new\nline", "NULL", "\\N", "Ünïcödé 東京"]
        rows[1].name = "Line\r\nbreak"
        rows[1].asciiName = ""
        rows[2].latitude = -33.868_819_999_999_99
        rows[2].longitude = 151.209_295_123_456_78
        _ = try await PostgresPlaceWriter(database: database).importGeoNames(MemoryGeoNames(rows: rows), streets: nil, progress: nil)
        let read = try #require(try await database.transaction("reading", bounded: false) { connection in
            try await StoredPlaces.read(on: connection, logger: database.logger)
        })
        #expect(read.records == rows)
        #expect(read.countries() == [GeoNamesCountry(code: "FI", iso3: "FIN", name: "Finland")])
        #expect(read.admin1Names() == ["FI.18": "Uusimaa"])
    }

    @Test("street lines and building outlines come back from PostGIS point for point")
    func geometryRoundTrips() async throws {
        let store = try await TestDatabase.shared()
        let features = try TestDatabase.data.get().streets
        let read = try #require(try await store.database.transaction("reading", bounded: false) { connection in
            try await StoredPlaces.read(on: connection, logger: store.database.logger)
        })
        #expect(read.features.streets == features.streets)
        #expect(read.features.buildings == features.buildings)
        #expect(read.features.venues == features.venues)
        #expect(read.features.addressPoints == features.addressPoints)
        // And PostGIS reads them as the shapes they are: every street and outline is a valid line.
        let invalid = try await count("pindrop_places.osm_street WHERE NOT ST_IsValid(line)", in: store.database)
        #expect(invalid == 0)
    }

    @Test("Liechtenstein's boundaries come back from PostGIS ring for ring, and the served store answers the Balzers exclave")
    func areasRoundTrip() async throws {
        let database = try await TestDatabase.create("pindrop_areas")
        defer { database.close() }
        let extract = OSMExtracts(files: [ConformanceData.liechtensteinExtract])
        _ = try await PostgresPlaceWriter(database: database).importGeoNames(
            MemoryGeoNames(rows: MemoryGeoNames.towns(20, prefix: "Testdorf")), streets: extract, progress: nil)
        let read = try #require(try await database.transaction("reading", bounded: false) { connection in
            try await StoredPlaces.read(on: connection, logger: database.logger)
        })
        let areas = try extract.readFeatures().areas
        #expect(areas.count == 18)
        #expect(read.features.areas == areas)
        // PostGIS makes the same polygons of the rings: the exclave's point is inside Balzers there too.
        let inBalzers = try await count("""
            pindrop_places.osm_area WHERE name = 'Balzers'
            AND ST_Contains(ST_BuildArea(rings), ST_SetSRID(ST_MakePoint(9.594155, 47.152407), 4326))
            """, in: database)
        #expect(inBalzers == 1)
        let store = try await PostgresPlaceStore.open(database: database, cacheFolder: TestDatabase.cacheFolder("areas"))
        defer { store.close() }
        let answer = try await store.reverse(ReverseRequest(coordinate: Coordinate(latitude: 47.152407, longitude: 9.594155), level: .city))
        #expect(answer.first?.place.name == "Balzers")
    }

    @Test("a database that cannot be reached is store_unavailable, and no message shows the password")
    func unreachableDatabase() async throws {
        let database = try PostgresPool(url: "postgres://pindrop:s3cret-pw@127.0.0.1:1/pindrop?sslmode=disable",
                                            connectTimeout: .seconds(1))
        defer { database.close() }
        #expect(database.redactedURL == "postgres://pindrop:***@127.0.0.1:1/pindrop?sslmode=disable")
        // How soon it gives up is measured on real servers (Tests/deployment): the many tests running here at once
        // can keep the timer from firing on time.
        let error = await #expect(throws: PindropError.self) {
            _ = try await PostgresPlaceStore.open(database: database, cacheFolder: TestDatabase.cacheFolder("unreachable"))
        }
        #expect(error?.code == "store_unavailable")
        #expect(error?.httpStatus == 503)
        #expect(error?.message.contains("s3cret") == false)
        #expect(error?.message.contains("***@127.0.0.1:1") == true)
        #expect(throws: PindropError.self) { try PostgresPool(url: "mysql://x@y/z") }
    }

    @Test("migrations are named and run once, in order, also when servers start together")
    func migrations() async throws {
        let database = try await TestDatabase.create("pindrop_migrate")
        defer { database.close() }
        async let a = PostgresSchema.migrate(database)
        async let b = PostgresSchema.migrate(database)
        let ran = try await [a, b]
        #expect(ran.flatMap { $0 } == PostgresSchema.migrations.map(\.name))
        #expect(try await PostgresSchema.appliedMigrations(database) == PostgresSchema.migrations.map(\.name))
        #expect(try await PostgresSchema.migrate(database).isEmpty)
    }

    func count(_ from: String, in database: PostgresPool) async throws -> Int {
        try await database.withConnection("counting") { connection in
            try await PostgresPlaceWriter.count(from, on: connection, logger: database.logger)
        }
    }

    func datasetID(in database: PostgresPool) async throws -> UUID? {
        try await database.withConnection("reading") { try await PostgresDataset.current(on: $0, logger: database.logger)?.id }
    }
}
