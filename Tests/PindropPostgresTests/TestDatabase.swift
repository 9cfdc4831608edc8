import Foundation
import PindropCore
import PindropImport
import PindropIndex
import PindropTesting
import PostgresNIO
import Testing
@testable import PindropPostgres

/// The PostgreSQL server the tests use: `$PINDROP_TEST_DATABASE_URL`, which the README's test command sets to a
/// throwaway cluster of its own (scripts/postgres-cluster.sh). Each group of tests gets a database of its own on it.
enum TestDatabase {
    /// The server's URL, or nil when no test server was started (the suites are then disabled, visibly).
    static let url = ProcessInfo.processInfo.environment["PINDROP_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }

    /// Whether a test server is there.
    static var isAvailable: Bool { url != nil }

    /// A new, empty database on the test server, named `name` plus this process's id (dropped first if a
    /// previous run left it behind).
    static func create(_ name: String) async throws -> PostgresPool {
        let server = try #require(url)
        let database = "\(name)_\(getpid())"
        let admin = try PostgresPool(url: server, statementTimeout: patience, answerTimeout: patience, lockTimeout: patience)
        defer { admin.close() }
        try await admin.withConnection("creating a test database") { connection in
            try await connection.execute("DROP DATABASE IF EXISTS \(database) WITH (FORCE)", logger: admin.logger)
            try await connection.execute("CREATE DATABASE \(database)", logger: admin.logger)
        }
        return try PostgresPool(url: try self.url(of: database), statementTimeout: patience, answerTimeout: patience, lockTimeout: patience)
    }

    /// The tests run many at once on a loaded machine (CI shares two cores with everything else), so they wait
    /// longer than a server would; the timeouts themselves are tested with an unreachable database. Generous:
    /// other suites' long synchronous work can keep a task that holds a row lock from committing for a minute,
    /// and every writer queued behind it waits that long (seen once in CI).
    static let patience = Duration.seconds(300)

    /// The URL of the database `name` on the test server.
    static func url(of name: String) throws -> String {
        let server = try #require(url)
        var parts = try #require(URLComponents(string: server))
        parts.path = "/" + name
        return try #require(parts.string)
    }

    /// The shipped data imported once into a database of its own, and the store serving it: what the
    /// conformance suite and the comparison with the embedded store run against.
    static func shared() async throws -> PostgresPlaceStore { try await SharedImport.instance.store() }

    /// What the shared database was imported from, read again by the importers, as the conformance suite's truth.
    static let data: Result<ConformanceData, any Error> = Result {
        var places: [GeoNamesRecord] = []
        _ = try GeoNamesReader.locate(ConformanceData.geonamesFolder).readPlaces(progress: nil) { places.append($0) }
        return ConformanceData(places: places, streets: try OSMFeatureExtractor.extract(fromFileAt: ConformanceData.helsinkiExtract))
    }

    /// A fresh folder for a store's cached indexes.
    static func cacheFolder(_ name: String) -> String {
        TestScratch.root + "/postgres/\(name)"
    }

}

/// Imports the shipped data once per test process, however many tests ask at once.
actor SharedImport {
    static let instance = SharedImport()
    private var importing: Task<PostgresPlaceStore, any Error>?

    func store() async throws -> PostgresPlaceStore {
        if importing == nil {
            importing = Task {
                let database = try await TestDatabase.create("pindrop_shared")
                _ = try await PostgresPlaceWriter(database: database).importGeoNames(
                    try GeoNamesReader.locate(ConformanceData.geonamesFolder),
                    streets: OSMExtracts(files: [ConformanceData.helsinkiExtract]), progress: nil)
                return try await PostgresPlaceStore.open(database: database, cacheFolder: TestDatabase.cacheFolder("shared"))
            }
        }
        return try await importing!.value
    }
}

/// GeoNames rows handed from memory, optionally failing after `failAfter` rows (a file that breaks mid-import).
struct MemoryGeoNames: GeoNamesSource {
    var label = "memory.txt"
    var rows: [GeoNamesRecord]
    var failAfter: Int?

    func countries() -> [GeoNamesCountry] { [GeoNamesCountry(code: "FI", iso3: "FIN", name: "Finland")] }
    func admin1Names() -> [String: String] { ["FI.18": "Uusimaa"] }

    func readPlaces(progress: ((Double) -> Void)?, _ body: (GeoNamesRecord) throws -> Void) throws -> ImportSummary {
        var summary = ImportSummary()
        for (i, row) in rows.enumerated() {
            if let failAfter, i == failAfter { throw PindropError.unreadableData("\(label) broke at row \(i + 1)") }
            try body(row)
            summary.rowsRead += 1
            summary.rowsImported += 1
        }
        return summary
    }

    /// `count` small Finnish towns, named after `prefix`.
    static func towns(_ count: Int, prefix: String = "Testby", firstID: Int = 9_000_001) -> [GeoNamesRecord] {
        (0..<count).map { i in
            GeoNamesRecord(geonameID: firstID + i, name: "\(prefix) \(i)", asciiName: "\(prefix) \(i)", alternateNames: [],
                           latitude: 60 + Double(i % 100) * 0.01, longitude: 24 + Double(i / 100) * 0.01, featureClass: "P",
                           featureCode: "PPL", countryCode: "FI", admin1Code: "18", population: 1000 + i, timezone: "Europe/Helsinki")
        }
    }
}
