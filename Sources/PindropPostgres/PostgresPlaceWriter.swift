import Foundation
import PindropCore
import PostgresNIO

/// The PostgreSQL store's writer: `pindrop import … --store postgres://…`. One import is one transaction: it
/// builds the place tables in a staging schema with `COPY`, indexes them, and swaps them in for the served ones
/// at its end, where it also notifies every server to load them. Readers see the old places or the new, never a
/// mix; a failed, killed or disconnected import rolls back whole and leaves the old places serving.
public struct PostgresPlaceWriter: PlaceStoreWriter {
    /// The database written.
    public let database: PostgresPool
    /// Whether the data is the one shipped with Pindrop (recorded, as the embedded index does).
    public let fromShippedData: Bool
    /// Import only into a database that holds no places yet, waiting for another import instead of failing
    /// (several servers starting at once on a new database import the shipped data once).
    public let onlyIfEmpty: Bool

    /// A writer into `database`.
    public init(database: PostgresPool, fromShippedData: Bool = false, onlyIfEmpty: Bool = false) {
        self.database = database
        self.fromShippedData = fromShippedData
        self.onlyIfEmpty = onlyIfEmpty
    }

    /// Replaces every place with this GeoNames data, and the street level with `streets` when given.
    public func importGeoNames(_ source: any GeoNamesSource, streets: (any StreetDataSource)?,
                               progress: ImportProgress?) async throws -> ImportReport {
        try await importing(label: source.label, streets: streets, keepingGeoNames: false, progress: progress) { connection in
            try await copyCountries(source, on: connection)
            let (summary, label) = try await copyPlaces(source, on: connection, progress: progress)
            return (summary, label, UUID())
        }
    }

    /// Replaces the street level, keeping the GeoNames places as they are (their tables are not touched).
    public func importStreets(_ source: any StreetDataSource, progress: ImportProgress?) async throws -> ImportReport {
        try await importing(label: nil, streets: source, keepingGeoNames: true, progress: progress) { connection in
            guard let current = try await PostgresDataset.current(on: connection, logger: database.logger) else {
                throw PindropError.indexUnavailable("the database at \(database.redactedURL) holds no places yet: "
                                                    + "import GeoNames into it first (pindrop import geonames FOLDER --store URL)")
            }
            var summary = ImportSummary()
            summary.rowsRead = current.places
            summary.rowsImported = current.places
            return (summary, current.source, current.geonamesID ?? UUID())
        }
    }

    /// The frame of both imports: lock, staging tables (the street level's alone when `keepingGeoNames`), `load`
    /// (which fills the GeoNames tables and returns what it read, the GeoNames label and the id of the import that
    /// wrote them), the street level, indexes, swap.
    private func importing(label: String?, streets: (any StreetDataSource)?, keepingGeoNames: Bool, progress: ImportProgress?,
                           load: @escaping @Sendable (PostgresConnection) async throws -> (ImportSummary, String, UUID))
        async throws -> ImportReport {
        try await PostgresSchema.migrate(database)
        // Fails in seconds when the database is away, before the unbounded transaction below.
        try await database.ping("importing")
        let started = Date()
        let logger = database.logger
        let staging = PostgresSchema.staging
        var report: ImportReport = try await database.transaction("importing", bounded: false) { connection in
            var report = ImportReport()
            if onlyIfEmpty {
                try await connection.query("SET LOCAL lock_timeout = 0", logger: logger)
                try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.importLock))", logger: logger)
                if try await PostgresDataset.current(on: connection, logger: logger) != nil { return report }
            } else {
                let rows = try await connection.query("SELECT pg_try_advisory_xact_lock(\(PostgresSchema.importLock))", logger: logger)
                guard try await rows.decode(Bool.self).first(where: { _ in true }) == true else {
                    throw PindropError.storeUnavailable("another import into \(database.redactedURL) is running; try again when it has finished")
                }
            }
            // An import runs as long as its data takes; only waiting on locks (readers of the old places) is bounded.
            try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
            try await connection.query("SET LOCAL lock_timeout = '60s'", logger: logger)
            try await connection.execute("DROP SCHEMA IF EXISTS \(staging) CASCADE", logger: logger)
            for statement in keepingGeoNames ? PostgresSchema.streetTables(in: staging) : PostgresSchema.placeTables(in: staging) {
                try await connection.execute(statement, logger: logger)
            }
            // COPY quotes the table name it is given whole, so the staging tables are reached by the search path.
            try await connection.query("SELECT set_config('search_path', \(staging) || ', ' || current_setting('search_path'), true)",
                                       logger: logger)
            let (summary, geonamesLabel, geonamesID) = try await load(connection)
            report.summary = summary
            if let streets {
                progress?("reading", 0.9)
                let features = try streets.readFeatures()
                try await copyStreetLevel(features, on: connection)
                report.venues = features.venues.count
                report.addresses = features.addressPoints.count
                report.streets = features.streets.count
            }
            progress?("writing", 0.95)
            for statement in keepingGeoNames ? OSMFeatureTables.indexes(in: staging) : PostgresSchema.finishPlaceTables(in: staging) {
                try await connection.execute(statement, logger: logger)
            }
            let places = keepingGeoNames ? summary.rowsImported : try await Self.count("\(staging).geonames_place", on: connection, logger: logger)
            report.summary.rowsImported = places
            try await swap(on: connection, keepingGeoNames: keepingGeoNames, source: label ?? geonamesLabel, osmSources: streets?.labels ?? [],
                           places: places, geonamesID: geonamesID, replication: streets?.replication)
            report.storeBytes = try await Self.size(of: PostgresSchema.places, on: connection, logger: logger)
            return report
        }
        progress?("done", 1)
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// The staged places become the served ones (the staged street-level tables replace theirs, when
    /// `keepingGeoNames`), and the dataset row names the import; NOTIFY is delivered to the servers when the
    /// transaction commits.
    private func swap(on connection: PostgresConnection, keepingGeoNames: Bool, source: String, osmSources: [String], places: Int,
                      geonamesID: UUID, replication: ReplicationState?) async throws {
        let logger = database.logger
        let (served, staging) = (PostgresSchema.places, PostgresSchema.staging)
        if keepingGeoNames {
            for table in OSMFeatureTables.copies.map(\.table) {
                try await connection.execute("DROP TABLE IF EXISTS \(served).\(table)", logger: logger)
                try await connection.execute("ALTER TABLE \(staging).\(table) SET SCHEMA \(served)", logger: logger)
            }
            try await connection.execute("DROP SCHEMA \(staging)", logger: logger)
        } else {
            try await connection.execute("DROP SCHEMA IF EXISTS \(served) CASCADE", logger: logger)
            try await connection.execute("ALTER SCHEMA \(staging) RENAME TO \(served)", logger: logger)
        }
        let origin = fromShippedData ? "shipped" : "import"
        let osm = osmSources.joined(separator: ",")
        let sequence = replication?.sequence, timestamp = replication?.timestamp
        try await connection.query("""
            INSERT INTO pindrop.dataset (id, source, osm_sources, origin, places, replication_sequence, replication_timestamp, geonames_id)
            VALUES (gen_random_uuid(), \(source), \(osm), \(origin), \(places), \(sequence), \(timestamp), \(geonamesID))
            ON CONFLICT (only_row) DO UPDATE SET id = excluded.id, source = excluded.source, osm_sources = excluded.osm_sources,
                origin = excluded.origin, places = excluded.places, imported_at = now(),
                replication_sequence = excluded.replication_sequence, replication_timestamp = excluded.replication_timestamp,
                geonames_id = excluded.geonames_id
            """, logger: logger)
        try await connection.execute("NOTIFY \(PostgresSchema.datasetChannel)", logger: logger)
    }

    // MARK: COPY

    static let geonamesColumns = ["seq", "geoname_id", "name", "ascii_name", "alternate_names", "latitude", "longitude",
                                  "feature_class", "feature_code", "country_code", "admin1_code", "population", "timezone"]

    private func copyCountries(_ source: any GeoNamesSource, on connection: PostgresConnection) async throws {
        var countries = CopyRows()
        for c in try source.countries() {
            countries.text(c.code); countries.text(c.iso3); countries.text(c.name); countries.endRow()
        }
        try await copy(countries.bytes, into: "country", columns: ["code", "iso3", "name"], on: connection)
        var admin1 = CopyRows()
        for (key, name) in try source.admin1Names() {
            admin1.text(key); admin1.text(name); admin1.endRow()
        }
        try await copy(admin1.bytes, into: "admin1", columns: ["key", "name"], on: connection)
    }

    /// Streams the GeoNames rows into COPY as the source reads them: a reader thread encodes chunks while this
    /// task sends them, at most `Handoff.capacity` chunks apart, so memory stays flat whatever the file's size.
    private func copyPlaces(_ source: any GeoNamesSource, on connection: PostgresConnection,
                            progress: ImportProgress?) async throws -> (ImportSummary, String) {
        let handoff = Handoff()
        let reader = Thread {
            do {
                var rows = CopyRows()
                var seq = 0
                let summary = try source.readPlaces(progress: { progress?("reading", $0 * 0.85) }) { r in
                    rows.integer(seq); rows.integer(r.geonameID); rows.text(r.name); rows.text(r.asciiName)
                    rows.textArray(r.alternateNames); rows.double(r.latitude); rows.double(r.longitude)
                    rows.text(r.featureClass); rows.text(r.featureCode); rows.text(r.countryCode); rows.text(r.admin1Code)
                    rows.integer(r.population); rows.text(r.timezone); rows.endRow()
                    seq += 1
                    if rows.bytes.count >= 1 << 18 {
                        try handoff.put(rows.bytes)
                        rows = CopyRows()
                    }
                }
                if !rows.bytes.isEmpty { try handoff.put(rows.bytes) }
                handoff.finish(.success(summary))
            } catch {
                handoff.finish(.failure(error))
            }
        }
        reader.start()
        defer { handoff.close() }
        try await connection.copyFrom(table: "geonames_place", columns: Self.geonamesColumns, logger: database.logger) { writer in
            while let chunk = try await handoff.take() { try await writer.write(ByteBuffer(bytes: chunk)) }
        }
        guard let summary = handoff.summary else { throw PindropError.internalFailure("the GeoNames reader stopped without a result") }
        guard try await Self.count("geonames_place", on: connection, logger: database.logger) > 0 else {
            throw PindropError.unreadableData("\(source.label) holds no readable GeoNames rows (\(summary.skipped.count) malformed)")
        }
        return (summary, source.label)
    }

    private func copyStreetLevel(_ features: OSMFeatures, on connection: PostgresConnection) async throws {
        for table in OSMFeatureTables.copies {
            try await copy(table.rows(features).bytes, into: table.table, columns: table.columns, on: connection)
        }
    }

    /// Sends encoded rows through one COPY, in pieces of 1 MB.
    private func copy(_ bytes: [UInt8], into table: String, columns: [String], on connection: PostgresConnection) async throws {
        try await connection.copyFrom(table: table, columns: columns, logger: database.logger) { writer in
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + (1 << 20))
                try await writer.write(ByteBuffer(bytes: bytes[start..<end]))
                start = end
            }
        }
    }

    static func count(_ table: String, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table)"), logger: logger)
        return try await rows.decode(Int.self).first { _ in true } ?? 0
    }

    /// Bytes on disk of every table and index in `schema`.
    static func size(of schema: String, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.query("""
            SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = \(schema) AND c.relkind = 'r'
            """, logger: logger)
        return try await rows.decode(Int.self).first { _ in true } ?? 0
    }
}

/// Chunks of COPY rows passed from the reading thread to the task that sends them, at most `capacity` waiting:
/// the reader blocks (it is a thread of its own, not one of the concurrency pool's) until the sender catches up.
/// `close` releases a blocked reader when the sender stops early (the database went away).
final class Handoff: @unchecked Sendable {
    static let capacity = 8
    private let condition = NSCondition()
    private var chunks: [[UInt8]] = []
    private var result: Result<ImportSummary, any Error>?
    private var closed = false
    private var waiter: CheckedContinuation<Void, Never>?

    /// What the reader returned, once it finished well.
    var summary: ImportSummary? {
        condition.lock(); defer { condition.unlock() }
        return try? result?.get()
    }

    /// Reader side: waits for room, then hands over a chunk; throws when the sender has stopped.
    func put(_ chunk: [UInt8]) throws {
        condition.lock()
        while chunks.count >= Self.capacity && !closed { condition.wait() }
        if closed { condition.unlock(); throw CancellationError() }
        chunks.append(chunk)
        let waiting = waiter
        waiter = nil
        condition.unlock()
        waiting?.resume()
    }

    /// Reader side: no more chunks.
    func finish(_ result: Result<ImportSummary, any Error>) {
        condition.lock()
        self.result = result
        let waiting = waiter
        waiter = nil
        condition.unlock()
        waiting?.resume()
    }

    /// Sender side: the next chunk, nil after the last, or the reader's error.
    func take() async throws -> [UInt8]? {
        while true {
            switch try poll() {
            case .chunk(let chunk): return chunk
            case .end: return nil
            case .empty: break
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                if !park(continuation) { continuation.resume() }
            }
        }
    }

    private enum Next { case chunk([UInt8]), end, empty }

    /// The next chunk, the end (or the reader's error), or nothing yet.
    private func poll() throws -> Next {
        condition.lock(); defer { condition.unlock() }
        if !chunks.isEmpty {
            condition.signal()
            return .chunk(chunks.removeFirst())
        }
        guard let result else { return .empty }
        _ = try result.get()
        return .end
    }

    /// Keeps the sender's continuation to resume on the next chunk; false when one came meanwhile.
    private func park(_ continuation: CheckedContinuation<Void, Never>) -> Bool {
        condition.lock(); defer { condition.unlock() }
        guard chunks.isEmpty, result == nil else { return false }
        waiter = continuation
        return true
    }

    /// Sender side: stop; a waiting or later `put` throws.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
