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
        let cells = try SharedIndex.index.contents.spatial
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
            let c = index.place(atRow: random.below(index.contents.places.geonamesCount)).coordinate
            return (min(90, max(-90, c.latitude + random.unit() - 0.5)), min(180, max(-180, c.longitude + random.unit() - 0.5)))
        }
        for (lat, lon) in points {
            let a = try #require(cells.nearest(latitude: lat, longitude: lon)), b = try #require(tree.nearest(latitude: lat, longitude: lon))
            #expect(a.place == b.place && a.chord2 == b.chord2, "at \(lat), \(lon)")
        }
    }

    @Test("the k nearest places are every place's k nearest, ties in the tree's order, near places, at sea and in Antarctica")
    func kNearestAgreeWithEveryPlace() throws {
        let index = try SharedIndex.index
        let spatial = index.contents.spatial, order = TownFinder(spatial: spatial)
        var random = SplitMix64(seed: 23)
        var points: [(Double, Double)] = [(-72.5, 129.0), (-68.8, -147.3), (0, -30), (90, 0), (-90, 0), (0, 180)]
        points += (0..<20).map { _ in (asin(2 * random.unit() - 1) * 180 / .pi, 360 * random.unit() - 180) }
        points += (0..<20).map { _ in
            let c = index.place(atRow: random.below(index.contents.places.geonamesCount)).coordinate
            return (min(90, max(-90, c.latitude + random.unit() * 0.2 - 0.1)), min(180, max(-180, c.longitude + random.unit() * 0.2 - 0.1)))
        }
        // At places that share their point with another (GeoNames has some): ties, which the tree's order breaks.
        var seen: [String: Int] = [:]
        for i in 0..<50_000 {
            let key = "\(index.contents.places.latitude[i]),\(index.contents.places.longitude[i])"
            if seen.updateValue(i, forKey: key) != nil, points.count < 56 { points.append((index.contents.places.latitude[i], index.contents.places.longitude[i])) }
        }
        #expect(points.count == 56, "too few places share a point to test ties")
        let unit = (0..<spatial.count).map { Geo.unitVector(latitude: index.contents.places.latitude[$0], longitude: index.contents.places.longitude[$0]) }
        var ties = 0
        for (lat, lon) in points {
            // Every place weighed, the best 100 kept by squared chord, then rank in the tree's pre-order.
            let (qx, qy, qz) = Geo.unitVector(latitude: lat, longitude: lon)
            var all: [(chord2: Double, rank: Int, place: Int32)] = []
            for i in 0..<spatial.count {
                let (x, y, z) = unit[i]
                let d2 = (x - qx) * (x - qx) + (y - qy) * (y - qy) + (z - qz) * (z - qz)
                if all.count == 100, d2 > all[99].chord2 { continue }
                let rank = order.visitOrder(ofPlace: i, count: spatial.count)
                var at = all.count
                while at > 0, (d2, rank) < (all[at - 1].chord2, all[at - 1].rank) { at -= 1 }
                all.insert((d2, rank, Int32(i)), at: at)
                if all.count > 100 { all.removeLast() }
            }
            ties += zip(all, all.dropFirst()).filter { $0.chord2 == $1.chord2 }.count
            for k in [2, 10, 100] {
                let found = spatial.nearest(latitude: lat, longitude: lon, k: k)
                #expect(found.map(\.place) == all.prefix(k).map(\.place), "k \(k) at \(lat), \(lon)")
                #expect(found.map(\.chord2) == all.prefix(k).map(\.chord2), "k \(k) at \(lat), \(lon)")
            }
        }
        #expect(ties >= 10)
    }

    @Test("map labels are what offering every place of the view biggest first gives: the world, regions, the open sea, a city, across the antimeridian")
    func mapLabelsAsEveryPlaceOffered() throws {
        let index = try SharedIndex.index
        let places = index.contents.places
        let order = (0..<Int32(index.placeCount)).sorted(by: places.biggestFirst)
        let points = order.map { Coordinate(latitude: places.latitude[Int($0)], longitude: places.longitude[Int($0)]) }
        var views: [(BoundingBox, Int)] = [
            (BoundingBox(south: -85, west: -180, north: 85, east: 180), 2), (BoundingBox(south: 35, west: -10, north: 60, east: 30), 4),
            (BoundingBox(south: 59, west: 20, north: 70, east: 32), 6), (BoundingBox(south: 59.5, west: 22, north: 61.5, east: 27), 8),
            (BoundingBox(south: -40, west: -160, north: -30, east: -150), 8), (BoundingBox(south: 15, west: 0, north: 25, east: 10), 8),
            (BoundingBox(south: 60.13, west: 24.85, north: 60.21, east: 25.03), 13), (BoundingBox(south: -25, west: 170, north: -10, east: -170), 6),
            (BoundingBox(south: 45, west: 5, north: 50, east: 15), 7),
        ]
        var random = SplitMix64(seed: 41)
        for _ in 0..<80 {
            let size = pow(10, random.unit() * 3.5 - 1.3), latitude = random.unit() * 150 - 75, longitude = random.unit() * 360 - 180
            var west = longitude - size, east = longitude + size
            if west < -180 { west += 360 }
            if east > 180 { east -= 360 }
            views.append((BoundingBox(south: max(-85, latitude - size / 2), west: west, north: min(85, latitude + size / 2), east: east),
                          2 + random.below(13)))
        }
        var named = 0
        for (box, zoom) in views {
            var placement = MapLabelPlacement(zoom: zoom, limit: 100)
            for (slot, point) in zip(order, points) where box.contains(point) {
                let i = Int(slot)
                placement.offer(MapLabel(id: "geonames:\(places.geonameID[i])", name: places.name(i), coordinate: point,
                                         population: Int(places.population[i])))
                if placement.isFull { break }
            }
            #expect(index.mapLabels(in: box, zoom: zoom, limit: 100) == placement.placed, "\(box) at zoom \(zoom)")
            named += placement.placed.count
            // The tree's walk alone (the labels take it or the list, whichever is ahead): the view's places in that order.
            let minimum = Int32(MapLabelPlacement.minimumPopulation(zoom: zoom))
            let expected = zip(order, points).filter { box.contains($1) && places.population[Int($0)] >= minimum }.prefix(2_000).map(\.0)
            var walk = index.contents.spatial.biggestFirst(in: box, atLeast: minimum), given: [Int32] = []
            walking: while given.count < expected.count + 1 {
                switch walk.step(inside: { box.contains(Coordinate(latitude: places.latitude[Int($0)], longitude: places.longitude[Int($0)])) }) {
                case .place(let slot): given.append(slot)
                case .opened: continue
                case .done: break walking
                }
            }
            #expect(Array(given.prefix(expected.count)) == Array(expected), "the tree's walk over \(box) at zoom \(zoom)")
            if expected.count < 2_000 { #expect(given.count == expected.count, "the tree's walk over \(box) gave \(given.count)") }
        }
        #expect(named > 2_000)
    }

    @Test("every street-level place is found by its OSM id, the first of the rows sharing one (all of Liechtenstein)")
    func placeByOSMID() throws {
        let index = try LiechtensteinIndex.index
        // The answer a reading of every row in order gives.
        var first: [String: Int] = [:], rows = 0
        for row in index.contents.places.geonamesCount..<index.contents.places.count {
            let id = try #require(index.contents.places.extras(row)?.id)
            if first[id] == nil { first[id] = row }
            rows += 1
        }
        #expect(first.count > 5_000)
        #expect(first.count < rows, "no id names two rows (a street cut at a town boundary), so the tie is untested")
        for (id, row) in first {
            #expect(index.place(id: id) == Answers(contents: index.contents).place(row), "\(id)")
        }
        for unknown in ["osm:node/17", "osm:way/", "osm:", "osm:way/122595241x"] {
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
