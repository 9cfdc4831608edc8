import Foundation
import PindropCore
import PindropImport
import PindropTesting
import Testing
@testable import PindropIndex

@Suite("Embedded index: the store conformance suite, and its own spatial shortcut")
struct PlaceIndexTests {
    @Test("the embedded index passes", arguments: StoreConformance.checks)
    func conforms(_ check: StoreConformance.Check) async throws {
        try await check.run(StoreConformance(store: try SharedIndex.index, data: try SharedIndex.data.get()))
    }

    @Test("the 1° cell shortcut gives the tree's nearest place everywhere, cell borders and poles included")
    func nearestCellsAgreeWithTree() throws {
        let cells = try SharedIndex.index.spatial
        var tree = cells
        tree.cellStart = []; tree.cellSlots = []; tree.cellBound = []
        #expect(cells.cellStart.count == SpatialIndex.cellCount + 1)
        let shortcut = (0..<SpatialIndex.cellCount).filter { cells.cellStart[$0] < cells.cellStart[$0 + 1] }.count
        #expect(shortcut > SpatialIndex.cellCount / 2, "only \(shortcut) cells answer without the tree")
        var random = SplitMix64(seed: 7)
        var points = (0..<8_000).map { _ in (asin(2 * random.unit() - 1) * 180 / .pi, 360 * random.unit() - 180) }
        // On cell borders and corners, at the poles and on the antimeridian.
        points += (0..<2_000).map { _ in (Double(random.below(181)) - 90, 360 * random.unit() - 180) }
        points += (0..<2_000).map { _ in (180 * random.unit() - 90, Double(random.below(361)) - 180) }
        points += [(90, 0), (-90, 0), (90, 180), (-90, -180), (0, 180), (0, -180), (89.9999, 179.9999)]
        // Near places, where the answer changes every few kilometres.
        let index = try SharedIndex.index
        points += (0..<2_000).map { _ in
            let c = index.place(atSlot: random.below(index.places.geonamesCount)).coordinate
            return (min(90, max(-90, c.latitude + random.unit() - 0.5)), min(180, max(-180, c.longitude + random.unit() - 0.5)))
        }
        for (lat, lon) in points {
            let a = try #require(cells.nearest(latitude: lat, longitude: lon)), b = try #require(tree.nearest(latitude: lat, longitude: lon))
            #expect(a.place == b.place && a.chord2 == b.chord2, "at \(lat), \(lon)")
        }
    }

    @Test("every street-level place is found by its OSM id, the first of the rows sharing one (all of Liechtenstein)")
    func placeByOSMID() throws {
        let index = try LiechtensteinIndex.index
        // The answer a reading of every row in order gives.
        var first: [String: Int] = [:], rows = 0
        for row in index.places.geonamesCount..<index.places.count {
            let id = try #require(index.places.extras(row)?.id)
            if first[id] == nil { first[id] = row }
            rows += 1
        }
        #expect(first.count > 5_000)
        #expect(first.count < rows, "no id names two rows (a street cut at a town boundary), so the tie is untested")
        for (id, row) in first {
            #expect(index.place(id: id) == index.answerPlace(row), "\(id)")
        }
        for unknown in ["osm:node/1", "osm:way/", "osm:", "osm:way/122595241x"] {
            #expect(index.place(id: unknown) == nil, "\(unknown)")
        }
    }
}

@Suite("Index files: building, opening, damage")
struct IndexFileTests {
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PindropImportTests/Fixtures/mini")

    /// An index path in a folder of its own (an index is two files).
    func temporaryPath() -> String {
        let folder = NSTemporaryDirectory() + "pindrop-index-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder + "/index.sqlite"
    }

    func remove(_ path: String) { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }

    @Test("a build from a dump with bad lines keeps the good rows and reports the rest")
    func buildFromMiniDump() throws {
        let path = temporaryPath()
        defer { remove(path) }
        let report = try IndexBuilder.build(from: try GeoNamesReader.locate(fixtures.path), to: path)
        #expect(report.summary.rowsImported == 5 && report.summary.skipped.count == 4)
        let index = try PlaceIndex.open(at: path)
        #expect(index.placeCount == 5 && index.streetLevelCount == 0)
        #expect((try index.search(SearchRequest(text: "Springfield, IL")) as [PlaceResult]).first?.place.displayName == "Springfield, Illinois, United States")
        #expect(!FileManager.default.fileExists(atPath: path + ".building"))
    }

    @Test("adding an OpenStreetMap extract to a built index answers exactly as building with it; adding it again replaces it")
    func incrementalStreetImport() throws {
        let files = try GeoNamesReader.locate(fixtures.path)
        let full = temporaryPath(), incremental = temporaryPath()
        defer { remove(full); remove(incremental) }
        _ = try IndexBuilder.build(from: files, streets: OSMExtracts(files: [SharedIndex.helsinki]), to: full)
        _ = try IndexBuilder.build(from: files, to: incremental)
        _ = try IndexBuilder.rebuild(incremental, streets: OSMExtracts(files: [SharedIndex.helsinki]))
        let report = try IndexBuilder.rebuild(incremental, streets: OSMExtracts(files: [SharedIndex.helsinki]))
        let a = try PlaceIndex.open(at: full), b = try PlaceIndex.open(at: incremental)
        #expect(report.venues > 1000 && report.addresses > 500)
        #expect(a.placeCount == 5 && b.placeCount == 5 && a.streetLevelCount == b.streetLevelCount)
        let point = Coordinate(latitude: 60.1686, longitude: 24.9412)
        for text in ["Stockmann", "Mannerheimintie 5", "Aleksanterinkatu 52, Helsinki", "Springfield, IL", "Kaivokadu"] {
            #expect(try a.search(SearchRequest(text: text)) as [PlaceResult] == b.search(SearchRequest(text: text)) as [PlaceResult])
        }
        #expect(try a.suggest(SuggestRequest(text: "Aleks")) as [PlaceResult] == b.suggest(SuggestRequest(text: "Aleks")) as [PlaceResult])
        #expect(try a.reverse(ReverseRequest(coordinate: point, limit: 2)) as [PlaceResult] == b.reverse(ReverseRequest(coordinate: point, limit: 2)) as [PlaceResult])
        let cafes = try NearbyRequest(coordinate: point, radiusMeters: 500, limit: 50, category: "cafe")
        #expect(try a.nearby(cafes) as [PlaceResult] == b.nearby(cafes) as [PlaceResult])
        #expect((try b.search(SearchRequest(text: "Stockmann")) as [PlaceResult]).first?.place.category == "department_store")
    }

    @Test("a missing index, a file that is not an index, and a truncated index give clear errors")
    func damagedIndexes() throws {
        #expect(throws: PindropError.self) { try PlaceIndex.open(at: "/nonexistent/geonames.sqlite") }
        let garbage = temporaryPath()
        try Data("this is not a database".utf8).write(to: URL(fileURLWithPath: garbage))
        defer { remove(garbage) }
        do {
            _ = try PlaceIndex.open(at: garbage)
            Issue.record("a text file opened as an index")
        } catch {
            #expect(error.message.contains("not a Pindrop index or is corrupt"))
        }
        // A real index cut in half.
        let path = temporaryPath()
        defer { remove(path) }
        _ = try IndexBuilder.build(from: try GeoNamesReader.locate(fixtures.path), to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        #expect(throws: PindropError.self) { try PlaceIndex.open(at: path) }
    }
}
