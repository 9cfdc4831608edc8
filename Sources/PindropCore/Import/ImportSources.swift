import Foundation
/// Progress of a long import: a stage ("reading", "indexing", "writing", "done") and the fraction done.
public typealias ImportProgress = @Sendable (_ stage: String, _ fraction: Double) -> Void

/// GeoNames data to import, read as a stream so that a store need not hold the whole dump at once.
/// PindropImport's `GeoNamesReader.Files` is the real one; tests may hand rows from memory.
public protocol GeoNamesSource: Sendable {
    /// The dump's name for reports and the store's metadata: "cities500.txt".
    var label: String { get }
    /// The countries (`countryInfo.txt`); empty when the dump came without them.
    func countries() throws -> [GeoNamesCountry]
    /// Admin1 names by "CC.code" (`admin1CodesASCII.txt`); empty when the dump came without them.
    func admin1Names() throws -> [String: String]
    /// Calls `body` for each good row, in file order; malformed lines are counted and listed in the summary.
    func readPlaces(progress: ((Double) -> Void)?, _ body: (GeoNamesRecord) throws -> Void) throws -> ImportSummary
}

/// OpenStreetMap extracts to import as street-level rows (addresses, streets, venues, buildings).
public protocol StreetDataSource: Sendable {
    /// The files' names for reports and the store's metadata.
    var labels: [String] { get }
    /// Everything the street level takes from the extracts, together.
    func readFeatures() throws -> OSMFeatures
    /// The last replication state the data includes (`pindrop update`), for the store to record; nil for an extract as
    /// downloaded.
    var replication: ReplicationState? { get }
}

extension StreetDataSource {
    public var replication: ReplicationState? { nil }
}

/// How far an OpenStreetMap replication feed has been applied: the last sequence number and the time of its data.
public struct ReplicationState: Sendable, Hashable {
    /// The feed's sequence number of the last change applied; nil for change files applied outside a feed.
    public var sequence: Int?
    /// The time the data stands at (the feed's timestamp, or the newest edit applied).
    public var timestamp: Date

    /// Makes a state.
    public init(sequence: Int?, timestamp: Date) { self.sequence = sequence; self.timestamp = timestamp }
}

/// What an import did, whichever store it wrote.
public struct ImportReport: Sendable {
    /// GeoNames rows read, imported and skipped (with line numbers).
    public var summary = ImportSummary()
    /// Names and alternate names indexed.
    public var nameEntries = 0
    /// Wall time of the whole import.
    public var seconds = 0.0
    /// The store's size afterwards, in bytes.
    public var storeBytes = 0
    /// Street-level rows from OpenStreetMap.
    public var venues = 0, addresses = 0, streets = 0
    /// Areas kept (boundaries, postcode areas, places drawn as polygons), and why others were left out.
    public var areas = 0, skippedAreas: [String] = []

    /// An empty report.
    public init() {}
}

/// The writing side of a store: what `pindrop import` calls, whichever store it names. Readers never see a
/// half-done import: a store builds beside the data it serves and swaps in one step.
public protocol PlaceStoreWriter: Sendable {
    /// Replaces everything with this GeoNames data, and the street level with `streets` when given.
    func importGeoNames(_ source: any GeoNamesSource, streets: (any StreetDataSource)?,
                        progress: ImportProgress?) async throws -> ImportReport
    /// Replaces the street-level data, keeping the GeoNames places as they are.
    func importStreets(_ source: any StreetDataSource, progress: ImportProgress?) async throws -> ImportReport
    /// Makes the street level `source`'s, which differs from the stored one by changes (an update): as
    /// `importStreets` does, unless the store can lay the changes over what it holds.
    func updateStreets(_ source: any StreetDataSource, progress: ImportProgress?) async throws -> ImportReport
}

extension PlaceStoreWriter {
    public func updateStreets(_ source: any StreetDataSource, progress: ImportProgress?) async throws -> ImportReport {
        try await importStreets(source, progress: progress)
    }
}
