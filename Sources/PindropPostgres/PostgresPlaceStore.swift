import Foundation
import Logging
import PindropCore
import PindropIndex
import PostgresNIO
import Synchronization

/// The shared store's places. The database is the one truth: every server reads the served import's rows
/// once, builds the embedded engine's index from them with the embedded writer (cached on local disk by
/// import, so a restart opens it at once), and answers every place query from memory, exactly as the
/// embedded store would. It listens for imports (NOTIFY) and swaps in the new places without a restart.
/// Place answers therefore do not depend on the database being up; only the users' data does
/// (`PostgresUserAccounts`). docs/architecture.md gives the measured costs of this choice.
public final class PostgresPlaceStore: IndexAnswering {
    /// The database.
    public let database: PostgresPool
    /// Where the built indexes are cached, one file per import.
    public let cacheFolder: String
    private let served: Mutex<Served>
    private let follower = Mutex<Task<Void, Never>?>(nil)

    /// The index in use and the import it was built from.
    struct Served: Sendable {
        var index: PlaceIndex
        var dataset: PostgresDataset
        /// Whether its index was built from its street level alone, over the one served before.
        var builtOverPrevious = false
    }

    private init(database: PostgresPool, cacheFolder: String, served: Served) {
        self.database = database
        self.cacheFolder = cacheFolder
        self.served = Mutex(served)
    }

    deinit { follower.withLock { $0?.cancel() } }

    /// Opens the places served by `database`, building the local index when this import has not been
    /// cached yet, and follows later imports. Throws `indexUnavailable` when the database holds no places.
    public static func open(database: PostgresPool, cacheFolder: String,
                            progress: ImportProgress? = nil) async throws -> PostgresPlaceStore {
        try await PostgresSchema.migrate(database)
        guard let loaded = try await load(database: database, cacheFolder: cacheFolder, unless: nil, progress: progress) else {
            throw PindropError.indexUnavailable("the database at \(database.redactedURL) holds no places yet: run "
                                                + "`pindrop import geonames FOLDER --store URL` first")
        }
        let store = PostgresPlaceStore(database: database, cacheFolder: cacheFolder, served: loaded)
        store.follow()
        return store
    }

    /// Whether the database holds no places yet (bringing its schema up to date first).
    public static func isEmpty(_ database: PostgresPool) async throws -> Bool {
        try await PostgresSchema.migrate(database)
        return try await database.withConnection("reading which import is served") { connection in
            try await PostgresDataset.current(on: connection, logger: database.logger)
        } == nil
    }

    /// The import whose places are being answered.
    public var datasetID: UUID { served.withLock { $0.dataset.id } }

    /// The index answering now: the served import's.
    public var index: PlaceIndex { served.withLock { $0.index } }

    /// Loads the served import unless it is `current`'s: its cached index, or one built now. An import that kept
    /// `current`'s GeoNames places (an import of streets, an update) is built from its street level alone over
    /// `current`'s index; any other from all its rows. Nil when the database holds no places.
    static func load(database: PostgresPool, cacheFolder: String, unless current: Served?,
                     progress: ImportProgress?) async throws -> Served? {
        let logger = database.logger
        guard let dataset = try await database.withConnection("reading which import is served", { connection in
            try await PostgresDataset.current(on: connection, logger: logger)
        }) else { return nil }
        if dataset.id == current?.dataset.id { return nil }
        if let index = try? PlaceIndex.open(at: cachePath(dataset.id, in: cacheFolder)) { return Served(index: index, dataset: dataset) }
        if let current, dataset.sharesGeoNames(with: current.dataset) {
            do {
                if let served = try await loadStreets(database: database, cacheFolder: cacheFolder, over: current, progress: progress) {
                    return served
                }
            } catch {
                // The index it was to be built over may have been removed by a server sharing the cache folder.
                let reason = database.describe(error, doing: "reading the street level")
                logger.warning("building the street level over the served index: \((reason as? PindropError)?.message ?? "\(reason)"); reading every place instead")
            }
        }
        guard let rows = try await readServed(database, doing: "reading its places", StoredPlaces.read, dataset: \.dataset) else {
            throw PindropError.indexUnavailable("the places in \(database.redactedURL) were removed while being read")
        }
        return try await cache(rows.dataset, in: cacheFolder) { path in
            _ = try await IndexBuilder(path: path, fromShippedData: rows.dataset.origin == "shipped")
                .importGeoNames(rows, streets: rows.features.isEmpty ? nil : rows, progress: progress)
        }
    }

    /// The served import's street level read, and built over `current`'s index: nil when the import read (a newer
    /// one, committed meanwhile) holds other GeoNames places than `current`.
    private static func loadStreets(database: PostgresPool, cacheFolder: String, over current: Served,
                                    progress: ImportProgress?) async throws -> Served? {
        guard let streets = try await readServed(database, doing: "reading its street level", StoredStreets.read, dataset: \.dataset),
              streets.dataset.sharesGeoNames(with: current.dataset) else { return nil }
        var served = try await cache(streets.dataset, in: cacheFolder) { path in
            _ = try await IndexBuilder(path: path, fromShippedData: streets.dataset.origin == "shipped")
                .importStreets(streets, over: current.index.path, progress: progress)
        }
        served.builtOverPrevious = true
        return served
    }

    /// What `read` reads of the served import in one snapshot (a transaction of its own), read again when another
    /// import committed meanwhile; nil when nothing was imported. A snapshot does not hold on to tables: one that an
    /// import replaced after the snapshot was taken reads as empty (PostgreSQL's catalog is not versioned by it), so
    /// a read is kept only when the import it read is still the one served once it is done.
    static func readServed<T: Sendable>(_ database: PostgresPool, doing: String,
                                        _ read: @escaping @Sendable (PostgresConnection, Logger) async throws -> T?,
                                        dataset: (T) -> PostgresDataset) async throws -> T? {
        let logger = database.logger
        for _ in 0..<10 {
            guard let result = try await database.transaction(doing, bounded: false, { connection in try await read(connection, logger) })
            else { return nil }
            let served = try await database.withConnection("reading which import is served") { connection in
                try await PostgresDataset.current(on: connection, logger: logger)
            }
            if served?.id == dataset(result).id { return result }
        }
        throw PindropError.storeUnavailable("imports into \(database.redactedURL) kept replacing the places while they were read; try again")
    }

    /// Builds the cached index of `dataset` with `build` (given the path to write) and opens it. The import read may
    /// be a newer one than asked about, if it committed meanwhile: its dataset names the file. Built beside its final
    /// name under a name of this process's own, so that servers sharing a cache folder never write one file at once;
    /// rename(2) publishes it whole.
    private static func cache(_ dataset: PostgresDataset, in cacheFolder: String,
                              build: (String) async throws -> Void) async throws -> Served {
        let path = cachePath(dataset.id, in: cacheFolder)
        let building = path + ".\(ProcessInfo.processInfo.processIdentifier).building"
        try FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
        try await build(building)
        guard rename(building, path) == 0 else {
            throw PindropError.indexUnavailable("cannot move the built index to \(path): \(String(cString: strerror(errno)))")
        }
        removeOtherCaches(in: cacheFolder, keeping: path)
        return Served(index: try PlaceIndex.open(at: path), dataset: dataset)
    }

    /// Where the index built from an import is cached.
    static func cachePath(_ dataset: UUID, in folder: String) -> String {
        (folder as NSString).appendingPathComponent("postgres-\(dataset.uuidString.lowercased()).sqlite")
    }

    /// Older imports' cached indexes, both files of each: a server still answering from one keeps its open copy.
    static func removeOtherCaches(in folder: String, keeping path: String) {
        let keep = (path as NSString).lastPathComponent
        for file in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        where file.hasPrefix("postgres-") && file.hasSuffix(".sqlite") && file != keep {
            // The structures file first: once the database is gone, nothing names it.
            for part in PlaceIndex.files(at: (folder as NSString).appendingPathComponent(file)).reversed() {
                try? FileManager.default.removeItem(atPath: part)
            }
        }
    }

    /// Listens for finished imports and loads each; after a lost connection it listens again and catches up on
    /// what it missed, so a database restart needs nothing from the operator.
    private func follow() {
        let task = Task { [weak self, database, cacheFolder] in
            var wait = Duration.milliseconds(200)
            while !Task.isCancelled {
                do {
                    try await database.client.withConnection { connection in
                        try await connection.listen(on: PostgresSchema.datasetChannel) { notifications in
                            wait = .milliseconds(200)
                            try await self?.reload(database: database, cacheFolder: cacheFolder)
                            for try await _ in notifications {
                                try await self?.reload(database: database, cacheFolder: cacheFolder)
                            }
                        }
                    }
                } catch {
                    if Task.isCancelled || self == nil { return }
                    database.logger.warning("following imports: \(database.describe(error, doing: "listening for imports"))")
                }
                try? await Task.sleep(for: wait)
                wait = min(wait * 2, .seconds(5))
            }
        }
        follower.withLock { $0 = task }
    }

    private func reload(database: PostgresPool, cacheFolder: String) async throws {
        let current = served.withLock { $0 }
        guard let loaded = try await Self.load(database: database, cacheFolder: cacheFolder, unless: current, progress: nil) else { return }
        served.withLock { $0 = loaded }
        let kept = loaded.builtOverPrevious ? ", its street level built over the GeoNames places held" : ""
        database.logger.info("now serving import \(loaded.dataset.id) (\(loaded.dataset.source)\(kept))")
    }

    /// Stops following imports.
    public func close() {
        follower.withLock { $0?.cancel() }
    }

    // MARK: PlaceStore, answered by the index in use (`IndexAnswering`), with the store named

    public func status() async throws -> StoreStatus {
        var status = index.status()
        status.name = "postgres"
        status.location = database.redactedURL
        return status
    }
}

/// The row naming the import being served.
struct PostgresDataset: Sendable, Equatable {
    var id: UUID
    var source: String
    var osmSources: [String]
    var origin: String
    var places: Int
    /// How far OpenStreetMap's changes were applied, when they were.
    var replication: ReplicationState?
    /// The import that wrote its GeoNames places, kept by imports of streets and updates (nil before it was recorded).
    var geonamesID: UUID?

    /// The served import, or nil when nothing was imported yet.
    static func current(on connection: PostgresConnection, logger: Logger) async throws -> PostgresDataset? {
        let rows = try await connection.query("""
            SELECT id, source, osm_sources, origin, places, replication_sequence, replication_timestamp, geonames_id FROM pindrop.dataset
            """, logger: logger)
        for try await (id, source, osm, origin, places, sequence, timestamp, geonamesID)
            in rows.decode((UUID, String, String, String, Int, Int?, Date?, UUID?).self) {
            return PostgresDataset(id: id, source: source, osmSources: osm.split(separator: ",").map(String.init), origin: origin,
                                   places: places, replication: timestamp.map { ReplicationState(sequence: sequence, timestamp: $0) },
                                   geonamesID: geonamesID)
        }
        return nil
    }

    /// Whether `other` holds the same GeoNames places, written by the same import.
    func sharesGeoNames(with other: PostgresDataset) -> Bool { geonamesID != nil && geonamesID == other.geonamesID }
}

/// One import's rows read back from the database, handed to the embedded writer as its sources: the same
/// values the import read from the files, so the index built from them answers as the embedded store's.
struct StoredPlaces: GeoNamesSource, StreetDataSource {
    let dataset: PostgresDataset
    let countryRows: [GeoNamesCountry]
    let admin1: [String: String]
    let records: [GeoNamesRecord]
    let features: OSMFeatures

    var label: String { dataset.source }
    var labels: [String] { dataset.osmSources }
    var replication: ReplicationState? { dataset.replication }
    func countries() -> [GeoNamesCountry] { countryRows }
    func admin1Names() -> [String: String] { admin1 }
    func readFeatures() -> OSMFeatures { features }

    func readPlaces(progress: ((Double) -> Void)?, _ body: (GeoNamesRecord) throws -> Void) throws -> ImportSummary {
        for (i, r) in records.enumerated() {
            try body(r)
            if i % 65_536 == 0 { progress?(Double(i) / Double(max(1, records.count))) }
        }
        var summary = ImportSummary()
        summary.rowsRead = records.count
        summary.rowsImported = records.count
        return summary
    }

    /// The served import's rows, read in one snapshot; nil when nothing was imported. The first statement of a
    /// transaction of its own (`PlaceRowReader.snapshot`).
    static func read(on connection: PostgresConnection, logger: Logger) async throws -> StoredPlaces? {
        guard let (rows, dataset) = try await PlaceRowReader.snapshot(on: connection, logger: logger) else { return nil }
        var countries: [GeoNamesCountry] = []
        for try await (code, iso3, name) in try await rows.query("SELECT code, iso3, name FROM \(rows.schema).country")
            .decode((String, String, String).self) {
            countries.append(GeoNamesCountry(code: code, iso3: iso3, name: name))
        }
        var admin1: [String: String] = [:]
        for try await (key, name) in try await rows.query("SELECT key, name FROM \(rows.schema).admin1").decode((String, String).self) {
            admin1[key] = name
        }
        let records = try await rows.records(count: dataset.places)
        var features = OSMFeatures()
        try await rows.readFeatures(into: &features)
        return StoredPlaces(dataset: dataset, countryRows: countries, admin1: admin1, records: records, features: features)
    }
}

/// One import's street level read back from the database: what a server holding its GeoNames places rebuilds.
struct StoredStreets: StreetDataSource {
    let dataset: PostgresDataset
    let features: OSMFeatures

    var labels: [String] { dataset.osmSources }
    var replication: ReplicationState? { dataset.replication }
    func readFeatures() -> OSMFeatures { features }

    /// The served import's street level, read in one snapshot; nil when nothing was imported. The first statement
    /// of a transaction of its own (`PlaceRowReader.snapshot`).
    static func read(on connection: PostgresConnection, logger: Logger) async throws -> StoredStreets? {
        guard let (rows, dataset) = try await PlaceRowReader.snapshot(on: connection, logger: logger) else { return nil }
        var features = OSMFeatures()
        try await rows.readFeatures(into: &features)
        return StoredStreets(dataset: dataset, features: features)
    }
}

/// Reads the rows of the served import's tables, within the caller's snapshot.
struct PlaceRowReader {
    let connection: PostgresConnection, logger: Logger
    /// The schema the served import's tables are in.
    let schema: String

    /// A reader of the served import and its dataset in one snapshot; nil when nothing was imported. The first
    /// statement of a transaction of its own: it sets the snapshot and lifts the statement timeout (the rows take a while).
    static func snapshot(on connection: PostgresConnection, logger: Logger) async throws -> (PlaceRowReader, PostgresDataset)? {
        try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
        try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
        guard let dataset = try await PostgresDataset.current(on: connection, logger: logger) else { return nil }
        return (PlaceRowReader(connection: connection, logger: logger, schema: PostgresSchema.places), dataset)
    }

    func query(_ sql: String) async throws -> PostgresRowSequence {
        try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
    }

    /// The GeoNames places, by id.
    func records(count: Int) async throws -> [GeoNamesRecord] {
        var records: [GeoNamesRecord] = []
        records.reserveCapacity(count)
        let placeRows = try await query("""
            SELECT geoname_id, name, ascii_name, alternate_names, latitude, longitude, feature_class, feature_code,
                   country_code, admin1_code, population, timezone FROM \(schema).geonames_place ORDER BY geoname_id
            """)
        for try await row in placeRows {
            let (id, name, ascii, alternates, lat, lon, featureClass, featureCode, country, admin1Code, population, timezone) =
                try row.decode((Int, String, String, [String], Double, Double, String, String, String, String, Int, String).self)
            records.append(GeoNamesRecord(geonameID: id, name: name, asciiName: ascii, alternateNames: alternates, latitude: lat,
                                          longitude: lon, featureClass: featureClass, featureCode: featureCode, countryCode: country,
                                          admin1Code: admin1Code, population: population, timezone: timezone))
        }
        return records
    }
}

extension OSMFeatures {
    /// Whether nothing street-level is held.
    var isEmpty: Bool {
        addressPoints.isEmpty && streets.isEmpty && venues.isEmpty && buildings.isEmpty && areas.isEmpty && interpolations.isEmpty
            && entrances.isEmpty && mapShapes.isEmpty
    }
}
