import Foundation
import PindropCore
import PindropImport
import PindropIndex
import PindropPostgres
import PindropTesting
import PostgresNIO

/// `pindrop-bench postgres --url postgres://… [--data DIR] [--osm FILE] [--queries N]`: the shared store against
/// the embedded one in the same run.
/// - import of cities500 + the Helsinki extract: COPY into PostgreSQL, and the embedded index build as baseline;
/// - a server's start on the database: building its index from the rows (first start of an import), and
///   opening the cached one (every later start);
/// - search / suggest / reverse / nearby + category p50 and p99 through the PostgreSQL store and through the
///   embedded index, and top-1 agreement on the kept query set and a typo set;
/// - the alternative design measured: the database answering itself (pg_trgm search and prefix, KNN reverse,
///   ST_DWithin nearby), what docs/architecture.md weighs the choice against;
/// - saved places and recent addresses, which are read and written live in the database.
func runPostgresBenchmark(arguments: [String]) async throws {
    guard let url = option("--url", in: arguments) ?? ProcessInfo.processInfo.environment["PINDROP_TEST_DATABASE_URL"] else {
        say("usage: pindrop-bench postgres --url postgres://user@host:port/database [--data DIR] [--osm FILE] [--queries N]")
        exit(64)
    }
    let count = Int(option("--queries", in: arguments) ?? "") ?? 5_000
    let (files, work) = try benchmarkData(arguments)
    defer { try? FileManager.default.removeItem(atPath: work) }
    let osm = option("--osm", in: arguments) ?? ConformanceData.helsinkiExtract
    let database = try PostgresPool(url: url, statementTimeout: .seconds(30), answerTimeout: .seconds(60))
    defer { database.close() }
    try await measureImports(files, osm: osm, database: database, work: work)
    let (store, embedded) = try await measureStarts(database: database, work: work)
    defer { store.close() }
    var rng = SeededRandom(state: 10)
    let queries = try SharedStoreQueries(files, count: count, rng: &rng)
    try await measureBothStores(store, embedded, queries)
    try await measureAgreement(store, embedded, queries, rng: &rng)
    say("== the alternative: the database answering every query itself (one pooled connection, loopback)")
    try await measureDatabaseAnswers(database: database, names: queries.names, prefixes: queries.prefixes, points: queries.points,
                                     helsinki: queries.helsinki, embedded: embedded, count: min(count, 2_000))
    try await measureUserData(database: database, embedded: embedded)
}

/// The import of the dump and the extract into PostgreSQL, against the embedded index's build.
func measureImports(_ files: GeoNamesReader.Files, osm: String, database: PostgresPool, work: String) async throws {
    let streets = OSMExtracts(files: [osm])
    say("== import of \((files.places as NSString).lastPathComponent) + \((osm as NSString).lastPathComponent)")
    var started = Date()
    let embeddedReport = try await IndexBuilder(path: work + "/geonames.sqlite").importGeoNames(files, streets: streets, progress: nil)
    let embeddedImport = Date().timeIntervalSince(started)
    started = Date()
    let report = try await PostgresPlaceWriter(database: database).importGeoNames(files, streets: streets, progress: nil)
    let postgresImport = Date().timeIntervalSince(started)
    say(String(format: "  embedded index build      %6.2f s  (%d places, %d MB file)", embeddedImport,
               embeddedReport.summary.rowsImported, embeddedReport.storeBytes >> 20))
    say(String(format: "  PostgreSQL COPY import    %6.2f s  (%d places, %d MB of tables and indexes)  %.2f× the embedded build",
               postgresImport, report.summary.rowsImported, report.storeBytes >> 20, postgresImport / embeddedImport))
}

/// A server's first and later starts on the database, against the embedded index's open; the two stores.
func measureStarts(database: PostgresPool, work: String) async throws -> (PostgresPlaceStore, PlaceIndex) {
    say("== a server's start on the database")
    let cache = work + "/postgres-cache"
    var started = Date()
    let first = try await PostgresPlaceStore.open(database: database, cacheFolder: cache)
    let cold = Date().timeIntervalSince(started)
    first.close()
    started = Date()
    let store = try await PostgresPlaceStore.open(database: database, cacheFolder: cache)
    let warm = Date().timeIntervalSince(started)
    started = Date()
    let embedded = try PlaceIndex.open(at: work + "/geonames.sqlite")
    let embeddedOpen = Date().timeIntervalSince(started)
    say(String(format: "  first start of an import (read rows, build index)  %6.2f s", cold))
    say(String(format: "  later starts (cached index)                        %6.3f s   embedded open %6.3f s", warm, embeddedOpen))
    return (store, embedded)
}

/// Queries drawn from the data, the same for every side: names, their prefixes, and points (half in central
/// Helsinki, half near places).
struct SharedStoreQueries {
    let names: [String], prefixes: [String], points: [Coordinate], helsinki: [Coordinate]

    init(_ files: GeoNamesReader.Files, count: Int, rng: inout SeededRandom) throws {
        var records: [GeoNamesRecord] = []
        _ = try GeoNamesReader.readPlaces(path: files.places) { records.append($0) }
        names = (0..<count).map { _ in records[Int.random(in: 0..<records.count, using: &rng)].name }
        prefixes = names.map { String($0.prefix(Int.random(in: 3...5, using: &rng))) }
        points = (0..<count).map { i -> Coordinate in
            if i % 2 == 0 { return Coordinate(latitude: 60.160 + 0.016 * Double.random(in: 0..<1, using: &rng),
                                              longitude: 24.925 + 0.035 * Double.random(in: 0..<1, using: &rng)) }
            let r = records[Int.random(in: 0..<records.count, using: &rng)]
            return Coordinate(latitude: r.latitude + Double.random(in: -0.2...0.2, using: &rng),
                              longitude: r.longitude + Double.random(in: -0.2...0.2, using: &rng))
        }
        helsinki = points.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
    }
}

/// Each kind of query through the PostgreSQL store and through the embedded index.
func measureBothStores(_ store: PostgresPlaceStore, _ embedded: PlaceIndex, _ q: SharedStoreQueries) async throws {
    let count = q.names.count
    say("== queries, \(count) each: through the PostgreSQL store vs the embedded index (same engine, same process)")
    func both(_ name: String, _ body: @escaping (any PlaceStore, Int) async throws -> Void) async throws {
        let e = try await measureAsync(count) { try await body(embedded, $0) }
        let p = try await measureAsync(count) { try await body(store, $0) }
        row("\(name) · embedded", e)
        row("\(name) · PostgreSQL", p)
    }
    try await both("search") { s, i in _ = try await s.search(try SearchRequest(text: q.names[i], limit: 10)) }
    try await both("suggest") { s, i in _ = try await s.suggest(try SuggestRequest(text: q.prefixes[i], limit: 10, minChars: 1)) }
    try await both("reverse") { s, i in _ = try await s.reverse(try ReverseRequest(coordinate: q.points[i], limit: 1)) }
    try await both("nearby cafe") { s, i in
        _ = try await s.nearby(try NearbyRequest(coordinate: q.helsinki[i % q.helsinki.count], radiusMeters: 500, limit: 10, category: "cafe"))
    }
}

/// How often the two stores give the same first answer, on the kept query set, typos and the points.
func measureAgreement(_ store: PostgresPlaceStore, _ embedded: PlaceIndex, _ q: SharedStoreQueries, rng: inout SeededRandom) async throws {
    say("== top-1 agreement, PostgreSQL store vs embedded")
    var same = 0, total = 0
    let typos = q.names.prefix(2_000).map { typo($0, &rng) }
    for text in ConformanceData.keptQueries.map(\.query) + typos {
        guard let request = try? SearchRequest(text: text, limit: 1) else { continue }
        let a = try await store.search(request).first?.place.id, b = try embedded.search(request).first?.place.id
        total += 1
        if a == b { same += 1 }
    }
    for point in q.points {
        let request = try ReverseRequest(coordinate: point, limit: 1)
        let a = try await store.reverse(request).first?.place.id, b = try embedded.reverse(request).first?.place.id
        total += 1
        if a == b { same += 1 }
    }
    say(String(format: "  %d of %d answers identical (%.2f%%; target ≥ 99%%)", same, total, 100 * Double(same) / Double(total)))
}

/// Saved places and recent addresses, read and written live in the database.
func measureUserData(database: PostgresPool, embedded: PlaceIndex) async throws {
    say("== saved places and recent addresses (live in the database), 1,000 each")
    let users = PostgresUserAccounts(database: database)
    _ = await (try? users.removeUser(named: "bench"))
    let token = try await users.addUser(named: "bench")
    guard let user = try await users.user(withToken: token) else { return }
    let places = users.places(of: user)
    let samples = (0..<1_000).map { embedded.place(atRow: $0 * 97 % embedded.placeCount) }
    row("save", try await measureAsync(1_000) { try await places.save(samples[$0]) })
    row("list saved (first 100)", try await measureAsync(1_000) { _ in _ = try await places.page(after: nil, limit: 100) })
    row("remember", try await measureAsync(1_000) { try await places.remember(samples[$0]) })
    row("token check", try await measureAsync(1_000) { _ in _ = try await users.user(withToken: token) })
    try await users.removeUser(named: "bench")
}

/// The same questions asked of PostgreSQL directly, with the indexes the import builds (GiST on the points,
/// trigram GIN on the names): what answering from the database would cost, and how often its first answer would
/// be the embedded engine's.
func measureDatabaseAnswers(database: PostgresPool, names: [String], prefixes: [String], points: [Coordinate],
                            helsinki: [Coordinate], embedded: PlaceIndex, count: Int) async throws {
    try await database.client.withConnection { connection in
        let logger = Logger(label: "bench")
        func first(_ query: PostgresQuery) async throws -> Int? {
            try await connection.query(query, logger: logger).decode(Int.self).first { _ in true }
        }
        func search(_ i: Int) async throws -> Int? {
            try await first("""
                SELECT geoname_id FROM pindrop_places.geonames_place WHERE name % \(names[i])
                ORDER BY similarity(name, \(names[i])) DESC, population DESC LIMIT 1
                """)
        }
        row("search (pg_trgm)", try await measureAsync(count) { _ = try await search($0) })
        var agree = 0
        for i in 0..<count {
            let expected = try embedded.search(try SearchRequest(text: names[i], limit: 1)).first?.place.id
            if let id = try await search(i), expected == "geonames:\(id)" { agree += 1 }
        }
        say(String(format: "    its top-1 is the embedded engine's for %.1f%% of %d names", 100 * Double(agree) / Double(count), count))
        // The kept query set (qualified names, other scripts, typos, prefixes), each with the place meant.
        var right = 0, engineRight = 0
        let kept = ConformanceData.keptQueries
        for (_, text, expected) in kept {
            if let id = try await first("""
                SELECT geoname_id FROM pindrop_places.geonames_place WHERE name % \(text) OR \(text) = ANY(alternate_names)
                ORDER BY similarity(name, \(text)) DESC, population DESC LIMIT 1
                """), "geonames:\(id)" == expected { right += 1 }
            if try embedded.search(try SearchRequest(text: text, limit: 1)).first?.place.id == expected { engineRight += 1 }
        }
        say(String(format: "    kept query set top-1: pg_trgm %.1f%%, the embedded engine %.1f%% (%d queries)",
                   100 * Double(right) / Double(kept.count), 100 * Double(engineRight) / Double(kept.count), kept.count))
        row("suggest (ILIKE prefix)", try await measureAsync(count) { i in
            _ = try await first("""
                SELECT geoname_id FROM pindrop_places.geonames_place WHERE name ILIKE \(prefixes[i] + "%")
                ORDER BY population DESC LIMIT 10
                """)
        })
        row("reverse (KNN <->)", try await measureAsync(count) { i in
            _ = try await first("""
                SELECT geoname_id FROM pindrop_places.geonames_place
                ORDER BY location <-> ST_SetSRID(ST_MakePoint(\(points[i].longitude), \(points[i].latitude)), 4326)::geography LIMIT 1
                """)
        })
        row("nearby cafe (ST_DWithin)", try await measureAsync(count) { i in
            let p = helsinki[i % helsinki.count]
            _ = try await first("""
                SELECT seq FROM pindrop_places.osm_venue WHERE category = 'cafe'
                AND ST_DWithin(location, ST_SetSRID(ST_MakePoint(\(p.longitude), \(p.latitude)), 4326)::geography, 500)
                ORDER BY location <-> ST_SetSRID(ST_MakePoint(\(p.longitude), \(p.latitude)), 4326)::geography LIMIT 10
                """)
        })
    }
}

/// Latency of `count` async calls (index passed) after a warm-up of 200: p50, p99 and calls per second.
func measureAsync(_ count: Int, _ body: (Int) async throws -> Void) async throws -> (p50: Double, p99: Double, qps: Double) {
    for i in 0..<min(200, count) { try await body(i) }
    var times: [Double] = []
    times.reserveCapacity(count)
    for i in 0..<count {
        let start = DispatchTime.now().uptimeNanoseconds
        try await body(i)
        times.append(Double(DispatchTime.now().uptimeNanoseconds - start))
    }
    let total = times.reduce(0, +)
    times.sort()
    return (percentile(times, 0.5), percentile(times, 0.99), Double(times.count) / (total / 1e9))
}
