import Foundation
import PindropCore
import PindropImport
import PindropTesting
import Testing
@testable import PindropIndex

@Suite("Embedded index: search, suggest, reverse, nearby")
struct PlaceIndexTests {
    @Test("the examples people type find the place they mean", arguments: [
        ("Springfield, IL", "Springfield", "Illinois", "US"),
        ("Springfield, Illinois", "Springfield", "Illinois", "US"),
        ("Portland, Oregon", "Portland", "Oregon", "US"),
        ("Portland, Maine", "Portland", "Maine", "US"),
        ("Sao Paulo", "São Paulo", nil, "BR"),
        ("zurich", "Zürich", nil, "CH"),
        ("München", "Munich", nil, "DE"),
        ("Москва", "Moscow", nil, "RU"),
        ("Wien", "Vienna", nil, "AT"),
        ("Paris France", "Paris", nil, "FR"),
        ("Londn", "London", nil, "GB"),
        ("Amsterdma", "Amsterdam", nil, "NL"),
    ] as [(String, String, String?, String)])
    func examples(query: String, name: String, admin1: String?, country: String) throws {
        let place = try #require(try SharedIndex.index.firstSearch(query))
        #expect(place.name == name)
        #expect(place.countryCode == country)
        if let admin1 { #expect(place.admin1 == admin1) }
        #expect(place.id.hasPrefix("geonames:"))
        #expect(place.displayName.hasPrefix(name + ", "))
    }

    @Test("\"Paris, US\" picks the biggest Paris in the United States; --country filters the same way")
    func countryQualifier() throws {
        let index = try SharedIndex.index
        let qualified = try #require(try index.firstSearch("Paris, US"))
        #expect(qualified.countryCode == "US")
        let filtered = try #require(try index.firstSearch("Paris", country: "US"))
        #expect(filtered.id == qualified.id)
        #expect(try index.firstSearch("Paris")?.countryCode == "FR")
    }

    @Test("exact names rank above prefixes, and results come by population within a tier")
    func tiers() throws {
        let results: [PlaceResult] = try SharedIndex.index.search(SearchRequest(text: "Paris", limit: 10))
        let exact = results.prefix { TextFolding.fold($0.place.name) == "paris" || $0.place.name == "Paris" }
        #expect(exact.count >= 3)
        let populations = exact.map(\.place.population)
        #expect(populations == populations.sorted(by: >))
    }

    @Test("a location bias brings the nearby namesake first")
    func nearBias() throws {
        let index = try SharedIndex.index
        let texas = Coordinate(latitude: 33.66, longitude: -95.55)
        let near = try #require(try index.firstSearch("Paris", near: texas))
        #expect(near.countryCode == "US" && near.admin1 == "Texas")
        let results: [PlaceResult] = try index.search(SearchRequest(text: "Paris", near: texas))
        #expect(results.allSatisfy { $0.distanceMeters != nil })
    }

    @Test("suggest: prefixes by population, below min-chars nothing, a trailing space completes the word")
    func suggest() throws {
        let index = try SharedIndex.index
        let zur: [PlaceResult] = try index.suggest(SuggestRequest(text: "zur"))
        #expect(zur.first?.place.name == "Zürich")
        #expect(try index.suggest(SuggestRequest(text: "zu", minChars: 3)).isEmpty)
        let newYork: [PlaceResult] = try index.suggest(SuggestRequest(text: "new yo"))
        #expect(newYork.first?.place.name == "New York City")
        let words: [PlaceResult] = try index.suggest(SuggestRequest(text: "new "))
        // The word "new" is complete: Newark and Newcastle must not appear (Delhi may, as "New Delhi").
        #expect(words.count >= 5)
        #expect(!words.contains { let n = TextFolding.fold($0.place.name); return n.hasPrefix("new") && !n.hasPrefix("new ") })
        let typing: [PlaceResult] = try index.suggest(SuggestRequest(text: "new"))
        #expect(typing.contains { TextFolding.fold($0.place.name).hasPrefix("newark") || TextFolding.fold($0.place.name).hasPrefix("newcastle") })
        let portland: [PlaceResult] = try index.suggest(SuggestRequest(text: "Portland, Ore"))
        #expect(portland.first?.place.admin1 == "Oregon")
        let typo: [PlaceResult] = try index.suggest(SuggestRequest(text: "amsterdma"))
        #expect(typo.first?.place.name == "Amsterdam")
    }

    @Test("reverse finds the true great-circle nearest place (checked against brute force)")
    func reverseAgainstBruteForce() throws {
        let index = try SharedIndex.index
        var seed: UInt64 = 12345
        func random() -> Double { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return Double(seed >> 11) / Double(1 << 53) }
        let all = (0..<index.placeCount).map { index.place(atSlot: $0).coordinate }
        // Random points, and the hard places: poles, the antimeridian, high latitudes.
        var points = (0..<150).map { _ in Coordinate(latitude: asin(2 * random() - 1) * 180 / .pi, longitude: 360 * random() - 180) }
        points += [Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 0),
                   Coordinate(latitude: -17.8, longitude: 179.99), Coordinate(latitude: 65.6, longitude: -168.1),
                   Coordinate(latitude: 78.2, longitude: 15.6)]
        for p in points {
            let best = all.map { p.distance(to: $0) }.min()!
            let answer = try #require((try index.reverse(ReverseRequest(coordinate: p)) as [PlaceResult]).first)
            #expect(abs((answer.distanceMeters ?? -1) - best) < 1e-6, "at \(p): got \(answer.place.displayName)")
        }
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

    @Test("reverse of the Eiffel Tower is in Paris, with a distance; k nearest come nearest first")
    func reverseExamples() throws {
        let index = try SharedIndex.index
        let results: [PlaceResult] = try index.reverse(ReverseRequest(coordinate: Coordinate(latitude: 48.8584, longitude: 2.2945), limit: 5))
        #expect(results.count == 5)
        #expect(results[0].place.countryCode == "FR" && results[0].place.admin1 == "Ile-de-France")
        #expect(results[0].distanceMeters! < 3000)
        let distances = results.compactMap(\.distanceMeters)
        #expect(distances == distances.sorted())
    }

    @Test("nearby: every place within the radius, nearest first, none outside it")
    func nearby() throws {
        let index = try SharedIndex.index
        let nyc = Coordinate(latitude: 40.7128, longitude: -74.0060)
        let results: [PlaceResult] = try index.nearby(NearbyRequest(coordinate: nyc, radiusMeters: 5000, limit: 100))
        #expect(results.first?.place.name == "New York City")
        let distances = results.compactMap(\.distanceMeters)
        #expect(distances.count == results.count && distances == distances.sorted() && distances.allSatisfy { $0 <= 5000 })
        let all = (0..<index.placeCount).filter { index.place(atSlot: $0).coordinate.distance(to: nyc) <= 5000 }
        #expect(results.count == min(100, all.count))
        #expect(try index.nearby(NearbyRequest(coordinate: Coordinate(latitude: 0, longitude: -140), radiusMeters: 50_000)).isEmpty)
    }

    @Test("lookup by id round-trips, unknown ids are nil")
    func lookup() throws {
        let index = try SharedIndex.index
        let place = try #require(index.place(id: "geonames:2657896") as Place?)
        #expect(place.name == "Zürich")
        #expect(place.displayName == "Zürich, Zurich, Switzerland")
        #expect(index.place(id: "geonames:1") as Place? == nil)
        #expect(index.place(id: "osm:node/1") as Place? == nil)
    }

    @Test("an unknown country code is an error, not an empty list")
    func unknownCountry() throws {
        #expect(throws: PindropError.invalidInput("unknown country code \"XX\"")) {
            try SharedIndex.index.search(SearchRequest(text: "Paris", countryCode: "XX")) as [PlaceResult]
        }
    }
}

@Suite("Index files: building, opening, damage")
struct IndexFileTests {
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PindropImportTests/Fixtures/mini")

    func temporaryPath() -> String { NSTemporaryDirectory() + "pindrop-index-\(UUID().uuidString).sqlite" }

    @Test("a build from a dump with bad lines keeps the good rows and reports the rest")
    func buildFromMiniDump() throws {
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try IndexBuilder.build(from: try GeoNamesReader.locate(fixtures.path), to: path)
        #expect(report.summary.rowsImported == 5 && report.summary.skipped.count == 4)
        let index = try PlaceIndex.open(at: path)
        #expect(index.placeCount == 5 && index.streetLevelCount == 0)
        #expect(try index.firstSearch("Springfield, IL")?.displayName == "Springfield, Illinois, United States")
        #expect(!FileManager.default.fileExists(atPath: path + ".building"))
    }

    @Test("adding an OpenStreetMap extract to a built index answers exactly as building with it; adding it again replaces it")
    func incrementalStreetImport() throws {
        let files = try GeoNamesReader.locate(fixtures.path)
        let full = temporaryPath(), incremental = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: full); try? FileManager.default.removeItem(atPath: incremental) }
        _ = try IndexBuilder.build(from: files, osm: [SharedIndex.helsinki], to: full)
        _ = try IndexBuilder.build(from: files, to: incremental)
        _ = try IndexBuilder.rebuild(incremental, osm: [SharedIndex.helsinki])
        let report = try IndexBuilder.rebuild(incremental, osm: [SharedIndex.helsinki])
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
        #expect(try b.firstSearch("Stockmann")?.category == "department_store")
    }

    @Test("a missing index, a file that is not an index, and a truncated index give clear errors")
    func damagedIndexes() throws {
        #expect(throws: PindropError.self) { try PlaceIndex.open(at: "/nonexistent/geonames.sqlite") }
        let garbage = temporaryPath()
        try Data("this is not a database".utf8).write(to: URL(fileURLWithPath: garbage))
        defer { try? FileManager.default.removeItem(atPath: garbage) }
        do {
            _ = try PlaceIndex.open(at: garbage)
            Issue.record("a text file opened as an index")
        } catch {
            #expect(error.message.contains("not a Pindrop index or is corrupt"))
        }
        // A real index cut in half.
        let path = temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try IndexBuilder.build(from: try GeoNamesReader.locate(fixtures.path), to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: path))
        #expect(throws: PindropError.self) { try PlaceIndex.open(at: path) }
    }
}
