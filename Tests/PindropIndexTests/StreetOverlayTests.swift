import Foundation
import PindropCore
@testable import PindropImport
@testable import PindropIndex
import PindropTesting
import Testing

/// Changes laid over the stored street level instead of rebuilding it: the index answers as a fresh import of the
/// changed data does.
@Suite("Street-level overlay", .serialized)
struct StreetOverlayTests {
    /// The Liechtenstein extract, decoded.
    static let data = Result { try OSMPBFReader(bytes: Array(FileManager.default.contents(atPath: ConformanceData.liechtensteinExtract)!)).readAll() }

    /// The index of the shipped GeoNames places and the Liechtenstein extract, built once.
    static let built: Result<String, any Error> = Result {
        let path = TestScratch.root + "/overlay-base/geonames.sqlite"
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = try IndexBuilder.build(from: try GeoNamesReader.locate(ConformanceData.geonamesFolder),
                                   streets: OSMExtracts(files: [ConformanceData.liechtensteinExtract]), to: path)
        return path
    }

    /// Edits of the extract, each of a kind an update brings: a venue deleted, one moved and renamed, one retagged, a
    /// restaurant with an address created, a street renamed, an addressed building deleted, a house number changed.
    static func edits() throws -> (change: OSMChange, names: [String], points: [Coordinate], ids: [String]) {
        let data = try data.get()
        let venues = data.nodes.filter { $0.tags["name"] != nil && $0.tags["amenity"] != nil }.sorted { $0.id < $1.id }
        let street = data.ways.filter { $0.tags["highway"] == "residential" && $0.tags["name"] != nil }.sorted { $0.id < $1.id }[3]
        let building = data.ways.filter { $0.tags["building"] != nil && $0.tags["addr:housenumber"] != nil }.sorted { $0.id < $1.id }[5]
        let house = data.nodes.filter { $0.tags["addr:housenumber"] != nil && $0.tags["name"] == nil }.sorted { $0.id < $1.id }[7]
        let (deleted, moved, retagged) = (venues[0], venues[1], venues[2])
        var movedNow = moved, retaggedNow = retagged, streetNow = street, houseNow = house
        movedNow.tags["name"] = "Pindrop Stübli"
        movedNow.coordinate = Coordinate(latitude: moved.coordinate.latitude + 0.003, longitude: moved.coordinate.longitude)
        retaggedNow.tags["amenity"] = retagged.tags["amenity"] == "pub" ? "cafe" : "pub"
        streetNow.tags["name"] = "Pindropgasse"
        houseNow.tags["addr:housenumber"] = "77b"
        let anchor = data.nodes.first { $0.id == street.nodeIDs[0] }!.coordinate
        let created = OSMNode(id: 90_000_000_001, coordinate: Coordinate(latitude: anchor.latitude + 0.0001, longitude: anchor.longitude),
                              tags: ["amenity": "restaurant", "name": "Pindrop Grill", "addr:street": "Pindropgasse", "addr:housenumber": "3"],
                              timestamp: 1_700_000_000)
        let change = OSMChange(edits: [
            .init(action: .delete, key: .init(type: .node, id: deleted.id), version: 999, element: nil),
            .init(action: .modify, key: .init(type: .node, id: moved.id), version: 999, element: .node(movedNow)),
            .init(action: .modify, key: .init(type: .node, id: retagged.id), version: 999, element: .node(retaggedNow)),
            .init(action: .create, key: .init(type: .node, id: created.id), version: 1, element: .node(created)),
            .init(action: .modify, key: .init(type: .way, id: street.id), version: 999, element: .way(streetNow)),
            .init(action: .delete, key: .init(type: .way, id: building.id), version: 999, element: nil),
            .init(action: .modify, key: .init(type: .node, id: house.id), version: 999, element: .node(houseNow)),
        ])
        let names = [deleted, moved, retagged].compactMap { $0.tags["name"] } + ["Pindrop Stübli", "Pindrop Grill", "Pindropgasse", street.tags["name"]!,
                     "Pindropgasse 3", "\(house.tags["addr:street"] ?? "") 77b", "\(house.tags["addr:street"] ?? "") \(house.tags["addr:housenumber"]!)"]
        let points = [deleted.coordinate, moved.coordinate, movedNow.coordinate, retagged.coordinate, created.coordinate, anchor, house.coordinate]
        let ids = ["osm:node/\(deleted.id)", "osm:node/\(moved.id)", "osm:node/\(retagged.id)", "osm:node/\(created.id)", "osm:way/\(street.id)",
                   "osm:way/\(building.id)", "osm:node/\(house.id)"]
        return (change, names, points, ids)
    }

    /// A fresh folder holding a copy of the index of `built` (its database and structures files), and the copy's path.
    static func copyOfBuilt(_ name: String) throws -> String {
        let from = (try built.get() as NSString).deletingLastPathComponent, folder = TestScratch.root + "/" + name
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.copyItem(atPath: from, toPath: folder)
        return folder + "/geonames.sqlite"
    }

    /// The index at a new path: the built one with its street level rebuilt from `source` (a fresh import).
    static func fresh(_ name: String, _ source: OSMExtracts) throws -> PlaceIndex {
        let path = TestScratch.root + "/\(name)/geonames.sqlite"
        try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        _ = try IndexBuilder.rebuild(path, over: try built.get(), streets: source)
        return try PlaceIndex.open(at: path)
    }

    /// The questions of a fixed set whose answers differ between two indexes, and how many were asked: search and
    /// suggest for the edited names and 150 others, near a point too; reverse at three levels, nearby by category and
    /// the map's shapes at the edited points and a grid over the country; lookup by id of the edited objects and 50 others.
    static func differences(_ a: PlaceIndex, _ b: PlaceIndex, names: [String], points: [Coordinate], ids: [String]) throws -> (asked: Int, differ: [String]) {
        let data = try data.get()
        let sample = data.nodes.filter { $0.tags["name"] != nil }.sorted { $0.id < $1.id }
        let queryNames = names + stride(from: 0, to: sample.count, by: max(1, sample.count / 150)).map { sample[$0].tags["name"]! }
        let queryPoints = points + (0..<15).flatMap { i in (0..<15).map { j in
            Coordinate(latitude: 47.05 + Double(i) * 0.013, longitude: 9.47 + Double(j) * 0.008) } }
        var differ: [String] = [], asked = 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func same<T: Equatable>(_ what: String, _ x: T, _ y: T) {
            asked += 1
            if x != y { differ.append(what) }
        }
        for name in queryNames {
            same("search \(name)", try encoder.encode(a.search(SearchRequest(text: name))), try encoder.encode(b.search(SearchRequest(text: name))))
            let typed = String(name.prefix(5))
            same("suggest \(typed)", try encoder.encode(a.suggest(SuggestRequest(text: typed))), try encoder.encode(b.suggest(SuggestRequest(text: typed))))
            same("search \(name) near", try encoder.encode(a.search(SearchRequest(text: name, near: points[5]))),
                 try encoder.encode(b.search(SearchRequest(text: name, near: points[5]))))
        }
        for (n, c) in queryPoints.enumerated() {
            for level in [ReverseLevel.building, .street, .city] {
                same("reverse \(n) \(level)", try encoder.encode(a.reverse(ReverseRequest(coordinate: c, limit: 3, level: level))),
                     try encoder.encode(b.reverse(ReverseRequest(coordinate: c, limit: 3, level: level))))
            }
            for category in [nil, "restaurant", "pub", "cafe"] as [String?] {
                let request = try NearbyRequest(coordinate: c, radiusMeters: 800, limit: 10, category: category)
                let x = try a.nearbyPage(request), y = try b.nearbyPage(request)
                same("nearby \(n) \(category ?? "-")", try encoder.encode(x.results) + Array("\(x.total)".utf8), try encoder.encode(y.results) + Array("\(y.total)".utf8))
            }
            let box = BoundingBox(south: c.latitude - 0.002, west: c.longitude - 0.003, north: c.latitude + 0.002, east: c.longitude + 0.003)
            same("map \(n)", Set(a.streetMap(in: box, zoom: 18, limit: 5_000)), Set(b.streetMap(in: box, zoom: 18, limit: 5_000)))
        }
        for id in ids + sample.prefix(50).map({ "osm:node/\($0.id)" }) {
            same("place \(id)", try encoder.encode(a.place(id: id)), try encoder.encode(b.place(id: id)))
        }
        return (asked, differ)
    }

    @Test("changes laid over the index in memory answer as a fresh import of the changed data")
    func answersAsFreshImport() throws {
        let (change, names, points, ids) = try Self.edits()
        var journal = OSMChangeJournal()
        try journal.apply(change)
        let changed = OSMExtracts(files: [ConformanceData.liechtensteinExtract], changes: journal)
        let stored = try PlaceIndex.open(at: try Self.built.get())
        let laid = try #require(try IndexBuilder.overlay(of: stored, streets: changed))
        // Each edit touches a row or two (a moved venue's address, a street's name on its addresses), not the rest.
        #expect(laid.places.count > 5 && laid.places.count < 40 && laid.overlay.maskedRows.count < 40)
        let (asked, differ) = try Self.differences(stored.laying(laid), try Self.fresh("overlay-fresh", changed), names: names, points: points, ids: ids)
        #expect(asked > 2_000 && differ.isEmpty, "\(differ.count) of \(asked) differ: \(differ.prefix(20))")
    }

    @Test("an update lays the changes over the stored structures in a file of its own, which an opened index reads; the next replaces it")
    func publishedOverlay() throws {
        let path = try Self.copyOfBuilt("overlay-published")
        let before = try IndexDatabase(openingAt: path).meta()
        let (change, names, points, ids) = try Self.edits()
        var journal = OSMChangeJournal()
        try journal.apply(change)
        let changed = OSMExtracts(files: [ConformanceData.liechtensteinExtract], changes: journal)
        let report = try IndexBuilder.update(path, streets: changed)
        let meta = try IndexDatabase(openingAt: path).meta()
        #expect(meta[IndexDatabase.structuresKey] == before[IndexDatabase.structuresKey] && meta[IndexDatabase.buildIDKey] == before[IndexDatabase.buildIDKey])
        let overlay = try #require(meta[IndexDatabase.overlayStructuresKey])
        #expect(!overlay.isEmpty && FileManager.default.fileExists(atPath: IndexFiles.structuresPath(forIndexAt: path, named: overlay)))
        #expect(report.venues > 2_000 && report.addresses > 3_000)
        let opened = try PlaceIndex.open(at: path)
        #expect(opened.contents.places.latitude.isMapped && opened.contents.street.overlay != nil)
        let (asked, differ) = try Self.differences(opened, try Self.fresh("overlay-fresh2", changed), names: names, points: points, ids: ids)
        #expect(asked > 2_000 && differ.isEmpty, "\(differ.count) of \(asked) differ: \(differ.prefix(20))")
        // The same changes again: a new overlay of the same rows replaces the first, whose file is removed.
        _ = try IndexBuilder.update(path, streets: changed)
        let again = try IndexDatabase(openingAt: path).meta()
        #expect(again[IndexDatabase.overlayStructuresKey] != overlay && !FileManager.default.fileExists(atPath: IndexFiles.structuresPath(forIndexAt: path, named: overlay)))
        #expect(try PlaceIndex.open(at: path).search(SearchRequest(text: "Pindrop Grill")).first?.place.name == "Pindrop Grill")
    }

    @Test("a change of an area (a municipality renamed) rebuilds the street level instead, leaving no overlay")
    func areaChangeRebuilds() throws {
        let path = try Self.copyOfBuilt("overlay-area")
        let data = try Self.data.get()
        var boundary = try #require(data.relations.filter { $0.tags["boundary"] == "administrative" && $0.tags["admin_level"] == "8" && $0.tags["ISO3166-2"] != nil }.min { $0.id < $1.id })
        boundary.tags["name"] = "Pindropdorf"
        var journal = OSMChangeJournal()
        try journal.apply(OSMChange(edits: [.init(action: .modify, key: .init(type: .relation, id: boundary.id), version: 999, element: .relation(boundary))]))
        let before = try IndexDatabase(openingAt: path).meta()
        _ = try IndexBuilder.update(path, streets: OSMExtracts(files: [ConformanceData.liechtensteinExtract], changes: journal))
        let meta = try IndexDatabase(openingAt: path).meta()
        #expect(meta[IndexDatabase.buildIDKey] != before[IndexDatabase.buildIDKey] && meta[IndexDatabase.overlayStructuresKey] == "")
        #expect(try PlaceIndex.open(at: path).contents.street.areas.areas.contains { $0.name == "Pindropdorf" })
    }

    @Test("the stored data laid over itself is an empty overlay")
    func nothingChanged() throws {
        let stored = try PlaceIndex.open(at: try Self.built.get())
        let laid = try #require(try IndexBuilder.overlay(of: stored, streets: OSMExtracts(files: [ConformanceData.liechtensteinExtract])))
        #expect(laid.places.count == 0 && laid.overlay.maskedRows.isEmpty && laid.overlay.maskedFeatures.isEmpty && laid.overlay.level.map.count == 0)
    }
}
