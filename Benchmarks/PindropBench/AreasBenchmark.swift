import Foundation
import PindropCore
import PindropImport
import PindropIndex

/// `pindrop-bench areas`: places inside places on a whole small country. In one run: the OSM import with and without
/// areas (time, index size), the point-in-polygon lookup (p50/p99, points per second), and the agreement with the
/// expectations scripts/area-expectations.py made from the same OSM geometry with pyosmium and shapely
/// (Tests/Fixtures/areas): seeded points at city level, the town of addresses without addr:city, and "street, town"
/// searches.
func runAreasBenchmark(arguments: [String]) async throws {
    func option(_ name: String, _ fallback: String) -> String {
        arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil } ?? fallback
    }
    let osm = option("--osm", "data/osm/liechtenstein.osm.pbf"), data = option("--data", "data/geonames")
    let fixtures = option("--fixtures", "Tests/Fixtures/areas/liechtenstein")
    let lookups = Int(option("--points", "200000")) ?? 200_000
    let rounds = Int(option("--rounds", "3")) ?? 3
    let folder = NSTemporaryDirectory() + "pindrop-areas-\(getpid())"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let base = folder + "/base.sqlite"
    say("building the GeoNames index from \(data)")
    _ = try await IndexBuilder(path: base).importGeoNames(try GeoNamesReader.locate(data), streets: nil, progress: nil)
    let imports = try await AreaImports.measure(osm: osm, base: base, folder: folder, rounds: rounds)
    let index = try PlaceIndex.open(at: folder + "/osm-true.sqlite")
    let lookup = try PointLookups.measure(index, count: lookups, osm: osm)
    let agreement = try AreaAgreement.measure(index, fixtures: fixtures, showMisses: arguments.contains("--misses"))
    imports.report()
    lookup.report()
    agreement.report()
}

/// OSM imports into a copy of a GeoNames index, alternating with and without areas.
struct AreaImports {
    var seconds: [Bool: [Double]] = [true: [], false: []], addedMB: [Bool: Double] = [:]
    var baseMB = 0.0, rounds = 0

    static func measure(osm: String, base: String, folder: String, rounds: Int) async throws -> AreaImports {
        var m = AreaImports(baseMB: Double(indexBytes(base)) / 1e6, rounds: rounds)
        for _ in 0..<rounds {
            for areas in [true, false] {
                let index = folder + "/osm-\(areas).sqlite"
                for file in PlaceIndex.files(at: index) { try? FileManager.default.removeItem(atPath: file) }
                // The copy names the base's structures file, beside it; the import writes its own.
                try FileManager.default.copyItem(atPath: base, toPath: index)
                let started = DispatchTime.now().uptimeNanoseconds
                _ = try await IndexBuilder(path: index).importStreets(OSMExtracts(files: [osm], areas: areas), progress: nil)
                m.seconds[areas]!.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9)
                m.addedMB[areas] = Double(indexBytes(index)) / 1e6 - m.baseMB
            }
        }
        return m
    }

    func report() {
        func ms(_ values: [Double]) -> String { String(format: "%.2f s", values.sorted()[values.count / 2]) }
        say("")
        say("| | with areas | without | cost |")
        say("|---|---:|---:|---:|")
        say("| OSM import (median of \(rounds)) | \(ms(seconds[true]!)) | \(ms(seconds[false]!)) | "
            + String(format: "%+.1f%%", 100 * (seconds[true]!.sorted()[rounds / 2] / seconds[false]!.sorted()[rounds / 2] - 1)) + " |")
        say(String(format: "| index size added | %.2f MB | %.2f MB | %+.1f%% |", addedMB[true]!, addedMB[false]!,
                   100 * (addedMB[true]! / addedMB[false]! - 1)))
        say(String(format: "| index size, whole file | %.2f MB | %.2f MB | %+.1f%% |", baseMB + addedMB[true]!, baseMB + addedMB[false]!,
                   100 * ((baseMB + addedMB[true]!) / (baseMB + addedMB[false]!) - 1)))
        say("")
    }
}

/// Point-in-polygon: seeded points over the areas' country (its box), each lookup timed, then all untimed.
struct PointLookups {
    var points = 0, found = 0, timings: [Double] = [], perSecond = 0.0

    static func measure(_ index: PlaceIndex, count: Int, osm: String) throws -> PointLookups {
        guard let country = try index.reverse(ReverseRequest(coordinate: Coordinate(latitude: 47.14, longitude: 9.55), level: .country))
            .first?.place.boundingBox
        else { throw PindropError.internalFailure("no country area at 47.14, 9.55: is \(osm) the Liechtenstein extract?") }
        var rng = SeededRandom(state: 19)
        let points = (0..<count).map { _ in
            Coordinate(latitude: Double.random(in: country.south...country.north, using: &rng),
                       longitude: Double.random(in: country.west...country.east, using: &rng))
        }
        var m = PointLookups(points: points.count)
        m.timings.reserveCapacity(points.count)
        for p in points {
            let t = threadCPUNanos()
            m.found += index.areas(containing: p).count
            m.timings.append(threadCPUNanos() - t)
        }
        m.timings.sort()
        let started = threadCPUNanos()
        for p in points { m.found += index.areas(containing: p).count }
        m.perSecond = Double(points.count) / ((threadCPUNanos() - started) / 1e9)
        return m
    }

    func report() {
        say(String(format: "point in polygon, %d seeded points over the country's box (%.1f areas each on average): p50 %.2f µs, p99 %.2f µs (thread CPU); %.0f points/s on one core",
                   points, Double(found) / Double(2 * points), percentile(timings, 0.5) / 1e3, percentile(timings, 0.99) / 1e3, perSecond))
    }
}

/// Agreement with the pyosmium + shapely expectations.
struct AreaAgreement {
    var seeded = 0, cityRight = 0, townChecked = 0, townRight = 0, streetChecked = 0, streetRight = 0

    static func measure(_ index: PlaceIndex, fixtures: String, showMisses: Bool) throws -> AreaAgreement {
        func rows(_ name: String) throws -> [[String]] {
            try String(contentsOfFile: "\(fixtures)/\(name)", encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
                .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        }
        var m = AreaAgreement()
        let seeded = try rows("points.tsv")
        m.seeded = seeded.count
        m.cityRight = try seeded.filter { row in
            try index.reverse(ReverseRequest(coordinate: Coordinate(latitude: Double(row[0])!, longitude: Double(row[1])!), level: .city))
                .first?.place.name == row[2]
        }.count
        for row in try rows("addresses-without-city.tsv") {
            guard let object = PlaceID.OSMObject(nominatim: row[0] + row[1]), let place = index.place(id: PlaceID.osm(object).description)
            else { continue }  // its address is another object's row
            m.townChecked += 1
            if place.address?.town == row[6] { m.townRight += 1 }
        }
        for row in try rows("street-town.tsv") {
            m.streetChecked += 1
            let top = try index.search(SearchRequest(text: row[0], limit: 1)).first?.place
            if top?.name == row[1], top?.address?.town == row[2] {
                m.streetRight += 1
            } else if showMisses {
                say("miss: \(row[0]) → \(top.map { "\($0.displayName) [\($0.id)]" } ?? "nothing")")
            }
        }
        return m
    }

    func report() {
        say(String(format: "seeded points answering their municipality at city level: %d of %d (%.1f%%)", cityRight, seeded,
                   100 * Double(cityRight) / Double(seeded)))
        say(String(format: "addresses without addr:city given the municipality that holds them: %d of %d (%.1f%%)", townRight, townChecked,
                   100 * Double(townRight) / Double(max(townChecked, 1))))
        say(String(format: "\"street, town\" searches whose first answer is that street in that town: %d of %d (%.1f%%)", streetRight, streetChecked,
                   100 * Double(streetRight) / Double(max(streetChecked, 1))))
    }
}
