import Foundation
import PindropCore
import PindropImport
import PindropTesting
import PostgresNIO
import Testing
@testable import PindropPostgres

@Suite("PostgreSQL store: every OSM feature comes back from the database as the import read it",
       .enabled(if: TestDatabase.isAvailable, "needs PINDROP_TEST_DATABASE_URL (scripts/test.sh starts a cluster)"))
struct PostgresFeatureTests {
    /// Liechtenstein imported into a database of its own, and the features the import read.
    static func imported(_ name: String) async throws -> (PostgresPool, OSMFeatures) {
        let database = try await TestDatabase.create(name)
        let extract = OSMExtracts(files: [ConformanceData.liechtensteinExtract])
        _ = try await PostgresPlaceWriter(database: database).importGeoNames(
            MemoryGeoNames(rows: MemoryGeoNames.towns(5, prefix: "Testdorf")), streets: extract, progress: nil)
        return (database, try extract.readFeatures())
    }

    static func read(_ database: PostgresPool) async throws -> OSMFeatures {
        try #require(try await database.transaction("reading", bounded: false) { connection in
            try await StoredPlaces.read(on: connection, logger: database.logger)
        }).features
    }

    @Test("Liechtenstein's places (tags, boxes, country codes), addresses, interpolation lines, entrances, areas and map shapes round-trip")
    func everyFeatureRoundTrips() async throws {
        let (database, features) = try await Self.imported("pindrop_features")
        defer { database.close() }
        let read = try await Self.read(database)
        #expect(read.venues == features.venues)
        #expect(read.venues.map(\.tags) == features.venues.map(\.tags) && read.venues.map(\.box) == features.venues.map(\.box))
        #expect(read.venues.map(\.countryCode) == features.venues.map(\.countryCode))
        #expect(read.addressPoints == features.addressPoints && read.addressPoints.map(\.countryCode) == features.addressPoints.map(\.countryCode))
        #expect(read.interpolations == features.interpolations && read.entrances == features.entrances)
        #expect(read.areas == features.areas && read.areas.map(\.label) == features.areas.map(\.label))
        #expect(read.mapShapes == features.mapShapes && !features.mapShapes.isEmpty)
        // The data has each kind, so the comparison above compares something.
        #expect(features.venues.contains { !$0.tags.isEmpty && $0.box != nil } && features.addressPoints.contains { $0.address.place != nil })
        #expect(!features.interpolations.isEmpty && features.interpolations.allSatisfy { !$0.stops.isEmpty })
        #expect(features.entrances.contains { !$0.tags.isEmpty && !$0.ways.isEmpty })
        #expect(features.areas.contains { $0.label != nil })
    }

    @Test("an import made before the newer columns and tables reads with those parts empty and the rest as stored")
    func olderLayoutReads() async throws {
        let (database, features) = try await Self.imported("pindrop_features_old")
        defer { database.close() }
        let places = PostgresSchema.places
        try await database.withConnection("making the layout older") { connection in
            for statement in [
                "DROP TABLE \(places).osm_interpolation, \(places).osm_interpolation_stop, \(places).osm_entrance",
                "ALTER TABLE \(places).osm_area DROP COLUMN postcode, DROP COLUMN label",
                "ALTER TABLE \(places).osm_address DROP COLUMN place, DROP COLUMN suburb, DROP COLUMN country_code",
                "ALTER TABLE \(places).osm_venue DROP COLUMN tag_keys, DROP COLUMN tag_values, DROP COLUMN box_south, DROP COLUMN country_code",
            ] {
                try await connection.execute(statement, logger: database.logger)
            }
        }
        let read = try await Self.read(database)
        #expect(read.interpolations.isEmpty && read.entrances.isEmpty)
        #expect(read.areas.map(\.id) == features.areas.map(\.id) && read.areas.allSatisfy { $0.label == nil })
        #expect(read.venues.map(\.id) == features.venues.map(\.id) && read.venues.allSatisfy { $0.tags.isEmpty && $0.box == nil })
        #expect(read.addressPoints.map(\.address.houseNumber) == features.addressPoints.map(\.address.houseNumber))
        #expect(read.addressPoints.allSatisfy { $0.address.place == nil && $0.countryCode == nil })
        #expect(read.addressPoints.map(\.address.street) == features.addressPoints.map(\.address.street))
    }
}
