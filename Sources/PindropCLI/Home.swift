import ArgumentParser
import Foundation
import PindropCore
import PindropImport
import PindropIndex
import PindropPostgres
import PindropServer

/// Where Pindrop keeps its files: `$PINDROP_HOME`, else `~/.local/share/pindrop`.
enum PindropHome {
    static var path: String {
        if let home = ProcessInfo.processInfo.environment[ServeSetting.home.variable], !home.isEmpty { return home }
        return (NSHomeDirectory() as NSString).appendingPathComponent(".local/share/pindrop")
    }

    /// The data the repository ships (GeoNames cities500, compressed; central Helsinki from OpenStreetMap):
    /// `$PINDROP_DATA`, else `share/pindrop/data` of the prefix it was installed in (scripts/install.sh), else `data/`
    /// of the checkout this binary was built from.
    static var shippedData: String {
        if let data = ProcessInfo.processInfo.environment[ServeSetting.data.variable], !data.isEmpty { return data }
        if let installed = ServerConfiguration.installedDataFolder() { return installed }
        let source = URL(fileURLWithPath: #filePath)
        return source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data").path
    }
}

/// `--index PATH` or `--store URL`: which store a command uses. Every command opens its store through
/// `StoreOptions.location`, the one place that picks the implementation.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "The index file (default: $PINDROP_HOME/geonames.sqlite, built on first use).")
    var index: String?
    @Option(name: .long, help: ArgumentHelp("A shared PostgreSQL/PostGIS store, postgres://user:password@host:5432/database (default: $PINDROP_DATABASE_URL; without either, the embedded index).", valueName: "url"))
    var store: String?

    /// The store these options name.
    var location: StoreLocation {
        get throws {
            let url = store ?? ProcessInfo.processInfo.environment[ServeSetting.databaseURL.variable].flatMap { $0.isEmpty ? nil : $0 }
            if url != nil, index != nil {
                throw PindropError.invalidInput("name one store: --index (the embedded index) or --store (PostgreSQL), not both")
            }
            return StoreLocation(indexPath: index, database: try url.map { try PostgresPool(url: $0) })
        }
    }
}

/// A store's location, resolved from the options: a PostgreSQL database, or the embedded index at a path, the
/// default one when no path was given. Opening, writing and the user data all start here.
struct StoreLocation: Sendable, CustomStringConvertible {
    /// The index named with `--index`, or nil for the default one.
    let indexPath: String?
    /// The shared store named with `--store` or `$PINDROP_DATABASE_URL` (one pool for everything a command does
    /// there), or nil for the embedded one.
    let database: PostgresPool?

    /// The default index's path.
    static var defaultIndexPath: String { (PindropHome.path as NSString).appendingPathComponent("geonames.sqlite") }

    /// The index file used by the embedded store.
    var path: String { indexPath ?? Self.defaultIndexPath }

    /// Where the store is, for messages: the index file, or the database's URL without its password.
    var description: String {
        database.map { "the database at \($0.redactedURL)" } ?? "the index at \(path)"
    }

    /// Where servers on the shared store cache the index built from the database, one file per import.
    static var postgresCacheFolder: String { (PindropHome.path as NSString).appendingPathComponent("postgres-cache") }

    /// Opens the store. The default index is built from the shipped data the first time, and rebuilt from it
    /// when it cannot be used (after an upgrade changed its format) only if it was built from that data: a
    /// user's own import is never thrown away unasked. An index named with `--index` is only ever opened.
    func open() async throws -> any PlaceStore {
        if let database {
            try await buildDefaultIfMissing(in: database)
            return try await PostgresPlaceStore.open(database: database, cacheFolder: Self.postgresCacheFolder,
                                                     progress: Terminal.progressBar())
        }
        if let indexPath { return try PlaceIndex.open(at: indexPath) }
        let path = Self.defaultIndexPath
        do {
            return try PlaceIndex.open(at: path)
        } catch where !FileManager.default.fileExists(atPath: path) {
            // First use.
        } catch where PlaceIndex.isBuiltFromShippedData(at: path) {
            Terminal.note("the index at \(path) cannot be used (\(error.message)); rebuilding it from the shipped data")
        } catch {
            throw PindropError.indexUnavailable("\(error.message). It is kept, as it may hold your own import: run"
                + " `pindrop import geonames <file-or-folder>` again, or remove \(path) to go back to the shipped data")
        }
        try await buildDefault()
        return try PlaceIndex.open(at: path)
    }

    /// Builds the default index when there is none yet, without reading an existing one (a writer reads what
    /// it needs itself).
    func buildDefaultIfMissing() async throws {
        if let database { return try await buildDefaultIfMissing(in: database) }
        if indexPath == nil, !FileManager.default.fileExists(atPath: Self.defaultIndexPath) { try await buildDefault() }
    }

    /// A shared store with no places yet gets the shipped data, as the embedded default index does; servers
    /// starting together on a new database import it once (the others wait for that import).
    private func buildDefaultIfMissing(in database: PostgresPool) async throws {
        guard try await PostgresPlaceStore.isEmpty(database) else { return }
        Terminal.note("\(description) holds no places yet: importing the shipped GeoNames and OpenStreetMap data into it")
        let report = try await PostgresPlaceWriter(database: database, fromShippedData: true, onlyIfEmpty: true)
            .importGeoNames(try Self.shippedGeoNames(), streets: Self.shippedStreets(), progress: Terminal.progressBar())
        if report.summary.rowsRead > 0 {
            Terminal.note("imported \(report.summary.rowsImported) places in \(String(format: "%.1f", report.seconds)) s")
        }
    }

    /// The store's writer, for `pindrop import`.
    var writer: any PlaceStoreWriter {
        if let database { return PostgresPlaceWriter(database: database) }
        return IndexBuilder(path: path)
    }

    /// Where updates keep the extract the store was imported from and the changes applied since: beside the embedded
    /// index, or in the home for the shared store (one folder per database).
    var updateFolder: OSMUpdateFolder {
        guard let database else { return OSMUpdateFolder(path: path + ".updates") }
        let name = database.redactedURL.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? Character($0) : "_" }
        return OSMUpdateFolder(path: (PindropHome.path as NSString).appendingPathComponent("postgres-updates/" + String(name)))
    }

    /// The users and their saved places and recent addresses (`pindrop users`, `/v1/saved`, `/v1/recent`): in
    /// the shared database, where every request names its user; else the embedded store in
    /// `$PINDROP_HOME/userdata.sqlite`, whichever index is used, with a local user for requests without a token.
    func openUsers() async throws -> any UserAccounts {
        if let database { return try await PostgresUserAccounts.open(database: database) }
        return try UserDataStore.open(inFolder: PindropHome.path)
    }

    /// The shipped GeoNames data.
    static func shippedGeoNames() throws -> GeoNamesReader.Files {
        try GeoNamesReader.locate((PindropHome.shippedData as NSString).appendingPathComponent("geonames"))
    }

    /// The shipped OpenStreetMap extracts (central Helsinki; Liechtenstein with its boundaries), when the checkout
    /// has them: every .osm.pbf in the data's osm folder, by name.
    static func shippedStreets() -> OSMExtracts? {
        let folder = (PindropHome.shippedData as NSString).appendingPathComponent("osm")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".osm.pbf") }.sorted()
        return files.isEmpty ? nil : OSMExtracts(files: files.map { (folder as NSString).appendingPathComponent($0) })
    }

    /// Builds the default index from the shipped GeoNames data and OpenStreetMap extract.
    func buildDefault() async throws {
        let streets = Self.shippedStreets()
        Terminal.note("building the index at \(Self.defaultIndexPath) from the shipped GeoNames"
                      + "\(streets == nil ? "" : " and OpenStreetMap") data (first use; about 5 s)")
        let report = try await IndexBuilder(path: Self.defaultIndexPath, fromShippedData: true).importGeoNames(
            try Self.shippedGeoNames(), streets: streets, progress: Terminal.progressBar())
        if let streets { try updateFolder.start(extracts: streets.files) } else { updateFolder.discard() }
        Terminal.note("built \(report.summary.rowsImported) places and \(report.venues + report.addresses + report.streets) "
                      + "street-level rows in \(String(format: "%.1f", report.seconds)) s")
    }
}
