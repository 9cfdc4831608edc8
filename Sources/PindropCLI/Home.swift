import ArgumentParser
import Foundation
import PindropCore
import PindropImport
import PindropIndex

/// Where Pindrop keeps its files: `$PINDROP_HOME`, else `~/.local/share/pindrop`.
enum PindropHome {
    static var path: String {
        if let home = ProcessInfo.processInfo.environment["PINDROP_HOME"], !home.isEmpty { return home }
        return (NSHomeDirectory() as NSString).appendingPathComponent(".local/share/pindrop")
    }

    /// The data the repository ships (GeoNames cities500, compressed; central Helsinki from OpenStreetMap):
    /// `$PINDROP_DATA`, else `data/` of the checkout this binary was built from.
    static var shippedData: String {
        if let data = ProcessInfo.processInfo.environment["PINDROP_DATA"], !data.isEmpty { return data }
        let source = URL(fileURLWithPath: #filePath)
        return source.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("data").path
    }
}

/// `--index PATH`: which store a command uses. Every command opens its store through `StoreOptions.location`,
/// the one place that picks the implementation.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: "The index file (default: $PINDROP_HOME/geonames.sqlite, built on first use).")
    var index: String?

    /// The store these options name.
    var location: StoreLocation { StoreLocation(indexPath: index) }
}

/// A store's location, resolved from the options: the embedded index at a path, the default one when no path
/// was given. Opening, writing and the user data all start here.
struct StoreLocation: Sendable {
    /// The index named with `--index`, or nil for the default one.
    let indexPath: String?

    /// The default index's path.
    static var defaultIndexPath: String { (PindropHome.path as NSString).appendingPathComponent("geonames.sqlite") }

    /// The index file used.
    var path: String { indexPath ?? Self.defaultIndexPath }

    /// Opens the store. The default index is built from the shipped data the first time, and rebuilt from it
    /// when it cannot be used (after an upgrade changed its format) only if it was built from that data: a
    /// user's own import is never thrown away unasked. An index named with `--index` is only ever opened.
    func open() async throws -> any PlaceStore {
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
        if indexPath == nil, !FileManager.default.fileExists(atPath: Self.defaultIndexPath) { try await buildDefault() }
    }

    /// The store's writer, for `pindrop import`.
    var writer: any PlaceStoreWriter { IndexBuilder(path: path) }

    /// The users and their saved places and recent addresses (`pindrop users`, `/v1/saved`, `/v1/recent`): the
    /// embedded store in `$PINDROP_HOME/userdata.sqlite`, whichever index is used, with a local user for
    /// requests without a token.
    func openUsers() throws -> any UserAccounts {
        try UserDataStore.open(inFolder: PindropHome.path)
    }

    /// Builds the default index from the shipped GeoNames data and OpenStreetMap extract.
    func buildDefault() async throws {
        let data = PindropHome.shippedData as NSString
        let osm = data.appendingPathComponent("osm/helsinki-center.osm.pbf")
        let streets = FileManager.default.fileExists(atPath: osm) ? OSMExtracts(files: [osm]) : nil
        Terminal.note("building the index at \(Self.defaultIndexPath) from the shipped GeoNames"
                      + "\(streets == nil ? "" : " and OpenStreetMap") data (first use; about 5 s)")
        let report = try await IndexBuilder(path: Self.defaultIndexPath, fromShippedData: true).importGeoNames(
            try GeoNamesReader.locate(data.appendingPathComponent("geonames")), streets: streets, progress: Terminal.progressBar())
        Terminal.note("built \(report.summary.rowsImported) places and \(report.venues + report.addresses + report.streets) "
                      + "street-level rows in \(String(format: "%.1f", report.seconds)) s")
    }
}
