import Foundation
import PindropCore
import PindropImport
import PindropTesting
import Testing
@testable import PindropIndex

/// An index is a database and a structures file that opening maps instead of copying: it answers as the arrays
/// it was built from did, a damaged or mismatched structures file is refused with a clear error, and a new import
/// never disturbs an index that is open.
@Suite("Index files: the mapped structures file")
struct MappedIndexTests {
    static let mini = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PindropImportTests/Fixtures/mini").path

    /// An index of the mini dump in a fresh folder, and its structures file.
    static func miniIndex(streets: Bool = false) throws -> (index: String, structures: String) {
        let folder = TestScratch.folder("mapped")
        let path = folder + "/geonames.sqlite"
        _ = try IndexBuilder.build(from: try GeoNamesReader.locate(mini), streets: streets ? OSMExtracts(files: [SharedIndex.helsinki]) : nil, to: path)
        let files = PlaceIndex.files(at: path)
        try #require(files.count == 3)
        return (path, files[2])
    }

    /// The message of the error opening `path` gives (nil when it opens).
    static func openingError(_ path: String) -> String? {
        do {
            _ = try PlaceIndex.open(at: path)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("the open index reads its structures in place from the mapped file, and answers as the same structures copied into arrays")
    func mappedAnswersAsArrays() throws {
        let mapped = try SharedIndex.index
        #expect(mapped.contents.places.latitude.isMapped && mapped.contents.names.geonames.keyBytes.isMapped && mapped.contents.spatial.nodes.isMapped
                && mapped.contents.street.stored.addresses.nodes.isMapped && mapped.contents.names.street.keyBytes.isMapped && mapped.contents.townFinder.slotOfPlace.isMapped
                && mapped.contents.corrections.hashes.isMapped && mapped.contents.labelOrder.isMapped)
        let copied = PlaceIndex(Self.copied(mapped), path: mapped.path)
        #expect(!copied.contents.places.latitude.isMapped && !copied.contents.names.geonames.tree.isMapped && !copied.contents.names.street.tree.isMapped)
        var random = SplitMix64(seed: 23)
        for _ in 0..<300 {
            let place = mapped.place(atRow: random.below(mapped.placeCount + mapped.streetLevelCount))
            let search = try SearchRequest(text: place.name), suggest = try SuggestRequest(text: String(place.name.prefix(4)))
            let reverse = try ReverseRequest(coordinate: place.coordinate)
            let nearby = try NearbyRequest(coordinate: place.coordinate, radiusMeters: 2_000)
            #expect(try mapped.search(search) as [PlaceResult] == copied.search(search) as [PlaceResult])
            #expect(try mapped.suggest(suggest) as [PlaceResult] == copied.suggest(suggest) as [PlaceResult])
            #expect(try mapped.reverse(reverse) as [PlaceResult] == copied.reverse(reverse) as [PlaceResult])
            #expect(try mapped.nearby(nearby) as [PlaceResult] == copied.nearby(nearby) as [PlaceResult])
        }
    }

    /// Every column of an open index's structures copied into an array of its own.
    static func copied(_ index: PlaceIndex) -> IndexStructures.Decoded {
        func own<T>(_ c: Column<T>) -> Column<T> { Column(Array(c)) }
        func own(_ s: SpatialIndex) -> SpatialIndex {
            SpatialIndex(nodes: own(s.nodes), cellStart: own(s.cellStart), cellSlots: own(s.cellSlots), cellBound: own(s.cellBound))
        }
        func own(_ n: NameIndex) -> NameIndex {
            NameIndex(keyBytes: own(n.keyBytes), keyStart: own(n.keyStart), keyLength: own(n.keyLength), entryPlace: own(n.entryPlace),
                      entryKind: own(n.entryKind), entryScore: own(n.entryScore), alternateAt: own(n.alternateAt), tree: own(n.tree),
                      ownNameTree: own(n.ownNameTree), buckets: own(n.buckets), fence: own(n.fence))
        }
        let p = index.contents.places, n = index.contents.names, s = index.contents.street.stored
        let places = PlaceTable(
            geonameID: own(p.geonameID), latitude: own(p.latitude), longitude: own(p.longitude), population: own(p.population),
            country: own(p.country), admin1: own(p.admin1), nameStart: own(p.nameStart), nameBytes: own(p.nameBytes),
            kind: own(p.kind), extraStart: own(p.extraStart), extraBytes: own(p.extraBytes), countries: p.countries,
            admin1s: p.admin1s, alternateStart: own(p.alternateStart), alternateBytes: own(p.alternateBytes))
        let names = NameRuns(geonames: own(n.geonames), street: own(n.street))
        let street = StreetLevel(
            venueRows: s.venueRows, addressRows: s.addressRows, venues: own(s.venues), venuesByCategory: own(s.venuesByCategory),
            categoryStart: own(s.categoryStart), addresses: own(s.addresses),
            addressPointRow: own(s.addressPointRow), streetPoints: own(s.streetPoints), streetPointRow: own(s.streetPointRow),
            map: s.map, buildingSlotStart: own(s.buildingSlotStart), buildingSlots: own(s.buildingSlots), areas: s.areas,
            lookups: StreetLevel.Lookups(townOfRow: own(s.lookups.townOfRow), townNames: s.lookups.townNames, rowsByID: own(s.lookups.rowsByID),
                                         pointStart: own(s.lookups.pointStart), pointSlots: own(s.lookups.pointSlots), coverage: s.lookups.coverage))
        let spatial = own(index.contents.spatial)
        return IndexStructures.Decoded(places: places, names: names, spatial: spatial, street: street, towns: TownFinder(spatial: spatial),
                                       corrections: CorrectionForms(places: places), labelOrder: Column(places.labelOrder()))
    }

    @Test("a structures file that is missing, cut short, damaged or from another import is refused with a clear error, the GeoNames one too")
    func damagedStructures() throws {
        let (path, structures) = try Self.miniIndex()
        let name = (structures as NSString).lastPathComponent
        let good = try Data(contentsOf: URL(fileURLWithPath: structures))
        #expect(Self.openingError(path) == nil)
        func expectRefused(_ bytes: Data, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            try bytes.write(to: URL(fileURLWithPath: structures))
            let error = Self.openingError(path)
            #expect(error?.contains(message) == true && error?.contains(name) == true, "\(error ?? "opened")", sourceLocation: sourceLocation)
        }
        // Cut short, in the header and in the data.
        try expectRefused(good.prefix(40), "is cut short")
        try expectRefused(good.prefix(good.count - 100), "is cut short")
        try expectRefused(good + Data(count: 64), "bytes too many")
        // Not a structures file at all.
        try expectRefused(Data(repeating: 7, count: good.count), "is not a Pindrop structures file")
        // One bit flipped in the header (the build id), then in the table (a section's offset).
        var flipped = good
        flipped[20] ^= 0x01
        try expectRefused(flipped, "has a damaged header")
        flipped = good
        flipped[StructureFile.headerBytes + 50] ^= 0x40
        try expectRefused(flipped, "has a damaged table")
        // A place column's part that does not start where the GeoNames file's part ends (its table's hash made right).
        var moved = good
        let count = Int(good[12]) | Int(good[13]) << 8, table = StructureFile.headerBytes..<(StructureFile.headerBytes + count * StructureFile.entryBytes)
        let kind = try #require(Self.section(good, "place.kind")).lowerBound + 64
        let entry = try #require(table.lazy.filter { ($0 - table.lowerBound) % StructureFile.entryBytes == 0 }
            .first { String(decoding: good[$0..<($0 + 10)], as: UTF8.self) == "place.kind" })
        moved.replaceSubrange((entry + 48)..<(entry + 56), with: withUnsafeBytes(of: UInt64(kind).littleEndian) { Data($0) })
        moved.replaceSubrange(40..<48, with: withUnsafeBytes(of: StructureFile.fnv1a(moved[table]).littleEndian) { Data($0) })
        moved.replaceSubrange(48..<56, with: withUnsafeBytes(of: StructureFile.fnv1a(moved[0..<48]).littleEndian) { Data($0) })
        try expectRefused(moved, "does not continue the GeoNames structures file's section place.kind")
        // A structures file of another import of the same data, under this one's name.
        let (_, other) = try Self.miniIndex()
        try expectRefused(try Data(contentsOf: URL(fileURLWithPath: other)), "does not match its structures file")
        // Missing.
        try FileManager.default.removeItem(atPath: structures)
        let missing = Self.openingError(path)
        #expect(missing?.contains("\(name) is missing") == true, "\(missing ?? "opened")")
        // Put back, it opens again.
        try good.write(to: URL(fileURLWithPath: structures))
        #expect(Self.openingError(path) == nil)
        // The GeoNames structures file, missing or of another import.
        let geonames = PlaceIndex.files(at: path)[1], geonamesName = (geonames as NSString).lastPathComponent
        let geonamesBytes = try Data(contentsOf: URL(fileURLWithPath: geonames))
        try FileManager.default.removeItem(atPath: geonames)
        #expect(Self.openingError(path)?.contains("\(geonamesName) is missing") == true)
        try Data(contentsOf: URL(fileURLWithPath: PlaceIndex.files(at: Self.miniIndex().index)[1])).write(to: URL(fileURLWithPath: geonames))
        #expect(Self.openingError(path)?.contains("does not match its structures file \(geonamesName)") == true)
        try geonamesBytes.write(to: URL(fileURLWithPath: geonames))
        #expect(Self.openingError(path) == nil)
    }

    @Test("values out of range inside a section, or a fence that is not the keys, pass opening unseen but fail the import's check of every value (an update's too, in the build's file)",
          arguments: [("name.place", 1, withUnsafeBytes(of: Int32(1_000_000).littleEndian) { Data($0) }),
                      ("name.fence", 1, Data(repeating: 0x7A, count: 8)),
                      ("place.country", 1, withUnsafeBytes(of: UInt16(60_000).littleEndian) { Data($0) }),
                      ("street.name.place", 2, withUnsafeBytes(of: Int32(2).littleEndian) { Data($0) }),
                      ("place.country", 2, withUnsafeBytes(of: UInt16(60_000).littleEndian) { Data($0) }),
                      ("place.name_start", 2, withUnsafeBytes(of: UInt32.max.littleEndian) { Data($0) }),
                      ("street.point_row", 2, withUnsafeBytes(of: Int32(1_000_000).littleEndian) { Data($0) }),
                      ("street.town_of_row", 2, withUnsafeBytes(of: Int32(1_000_000).littleEndian) { Data($0) }),
                      ("map.grid_boxes", 2, withUnsafeBytes(of: Int32(1_000_000).littleEndian) { Data($0) })])
    func valuesCheckedByImport(section: String, file: Int, written: Data) throws {
        let path = try Self.miniIndex(streets: true).index
        // The GeoNames structures file (1) holds the GeoNames run and the GeoNames rows of the place table, the
        // build's (2) the street level's run and rows.
        let structures = PlaceIndex.files(at: path)[file]
        // Find the section's offset from the table, and write into its first value: a place number far past the
        // last place (or, of a street-level entry, a GeoNames place), a first key head ("zzzzzzzz") that is not
        // the first key's, a country that is none, or a name's start past the names' end.
        var bytes = try Data(contentsOf: URL(fileURLWithPath: structures))
        let start = try #require(Self.section(bytes, section)).lowerBound
        bytes.replaceSubrange(start..<start + written.count, with: written)
        try bytes.write(to: URL(fileURLWithPath: structures))
        #expect(Self.openingError(path) == nil)
        for checks in file == 2 ? [IndexStructures.ValueChecks.all, .buildFile] : [.all] {
            do {
                try PlaceIndex.verify(at: path, checks: checks)
                Issue.record("a wrong \(section) passed the check of \(checks)")
            } catch {
                #expect(error.message.contains("values out of range"), "\(error.message)")
            }
        }
    }

    @Test("the place table's GeoNames rows lie in the GeoNames structures file and the street level's in the build's, and the open index reads each column as one")
    func placeTableInTwoFiles() throws {
        let path = try Self.miniIndex(streets: true).index
        let files = PlaceIndex.files(at: path)
        let geonames = try Data(contentsOf: URL(fileURLWithPath: files[1])), build = try Data(contentsOf: URL(fileURLWithPath: files[2]))
        let places = try PlaceIndex.open(at: path).contents.places
        let g = places.geonamesCount, n = places.count
        try #require(g > 0 && n > g)
        func values<T: BitwiseCopyable>(_ file: Data, _ name: String, as: T.Type) throws -> [T] {
            let range = try #require(Self.section(file, name))
            return file[range].withUnsafeBytes { Array($0.bindMemory(to: T.self)) }
        }
        #expect(try values(geonames, "place.latitude", as: Double.self) + values(build, "place.latitude", as: Double.self) == Array(places.latitude))
        #expect(try values(geonames, "place.latitude", as: Double.self).count == g)
        #expect(try values(geonames, "place.kind", as: UInt8.self) + values(build, "place.kind", as: UInt8.self) == Array(places.kind))
        #expect(try values(build, "place.kind", as: UInt8.self).allSatisfy { PlaceTable.RowKind(rawValue: $0 & 0x1F) != .geonames })
        // Offsets: the GeoNames file's are the GeoNames rows' starts, the build's go on to the end of the last name.
        let starts = try values(geonames, "place.name_start", as: UInt32.self), rest = try values(build, "place.name_start", as: UInt32.self)
        #expect(starts.count == g && rest.count == n - g + 1 && starts + rest == Array(places.nameStart))
        #expect(try values(geonames, "place.name_bytes", as: UInt8.self).count == Int(rest[0]))
        #expect(places.latitude.isMapped && places.nameBytes.isMapped)
    }

    @Test("an open index reads the street level's lookups (rows by id and by town, the points along each street, the map's grid) as the import stored them: opening derives none from the rows")
    func streetLookupsStored() throws {
        let index = try PlaceIndex.open(at: try Self.miniIndex(streets: true).index)
        let street = index.contents.street.stored, lookups = street.lookups
        try #require(!street.isEmpty && lookups.rowsByID.count > 0 && lookups.pointSlots.count > 0 && street.map.count > 0)
        #expect(lookups.rowsByID.isMapped && lookups.townOfRow.isMapped && lookups.pointStart.isMapped && lookups.pointSlots.isMapped)
        #expect(street.map.grid.keys.isMapped && street.map.grid.cellBoxes.isMapped && street.map.boxCorners.isMapped && street.map.lineStart.isMapped)
        // What they say holds of the rows: each row found by its id, each street's points its own.
        let places = index.contents.places, first = index.contents.firstStreetLevelRow
        for row in first..<places.count {
            let id = try #require(places.extras(row)?.id)
            #expect(index.place(id: id)?.id == id)
            for slot in lookups.pointSlots[Int(lookups.pointStart[row - first])..<Int(lookups.pointStart[row - first + 1])] {
                #expect(Int(street.streetPointRow[Int(street.streetPoints.place(atSlot: Int(slot)))]) == row)
            }
        }
    }

    /// Where section `name` lies in a structures file's bytes.
    static func section(_ bytes: Data, _ name: String) -> Range<Int>? {
        let count = Int(bytes[12]) | Int(bytes[13]) << 8
        func word(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
        for i in 0..<count {
            let entry = StructureFile.headerBytes + i * StructureFile.entryBytes
            let stored = bytes[entry..<(entry + StructureFile.nameBytes)].prefix { $0 != 0 }
            guard String(decoding: stored, as: UTF8.self) == name else { continue }
            return word(entry + 48)..<(word(entry + 48) + word(entry + 56))
        }
        return nil
    }

    @Test("the same data imported twice writes the same structures files, byte for byte but for their build ids")
    func importsAreReproducible() throws {
        let first = PlaceIndex.files(at: try Self.miniIndex(streets: true).index).dropFirst()
        let second = PlaceIndex.files(at: try Self.miniIndex(streets: true).index).dropFirst()
        #expect(first.count == 2 && second.count == 2)
        for (a, b) in zip(first, second) {
            let one = [UInt8](try Data(contentsOf: URL(fileURLWithPath: a))), other = [UInt8](try Data(contentsOf: URL(fileURLWithPath: b)))
            #expect(one.count == other.count && one.count > 100_000)
            // The header's build id (bytes 16..<32) and its own hash (48..<56) differ; every other byte is the data's.
            let differing = one.indices.filter { one[$0] != other[$0] && !(16..<32).contains($0) && !(48..<56).contains($0) }
            #expect(differing.isEmpty, "\((a as NSString).lastPathComponent): \(differing.count) bytes differ, from offset \(differing.first ?? 0)")
        }
    }

    /// The file's inode: the same file under any name.
    static func inode(_ path: String) -> UInt64 {
        var status = stat()
        return stat(path, &status) == 0 ? UInt64(status.st_ino) : 0
    }

    @Test("importing streets or applying updates keeps the GeoNames structures file as it was, and an index built over another links it; a GeoNames import replaces it")
    func geonamesStructuresKept() async throws {
        let (path, _) = try Self.miniIndex()
        let geonames = PlaceIndex.files(at: path)[1], inode = Self.inode(geonames)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: geonames))
        #expect(geonames.hasSuffix(".geonames.structures") && inode != 0)
        _ = try await IndexBuilder(path: path).importStreets(OSMExtracts(files: [SharedIndex.helsinki]), progress: nil)
        #expect(PlaceIndex.files(at: path)[1] == geonames && Self.inode(geonames) == inode)
        #expect(try Data(contentsOf: URL(fileURLWithPath: geonames)) == bytes)
        let stockmann = try SearchRequest(text: "Stockmann")
        #expect((try PlaceIndex.open(at: path).search(stockmann) as [PlaceResult]).first?.place.category == "department_store")
        // A new index over this one, beside it: its own name for the same file.
        let other = (path as NSString).deletingLastPathComponent + "/other.sqlite"
        _ = try await IndexBuilder(path: other).importStreets(OSMExtracts(files: [SharedIndex.helsinki]), over: path, progress: nil)
        let linked = PlaceIndex.files(at: other)[1]
        #expect(linked != geonames && (linked as NSString).lastPathComponent.hasPrefix("other.sqlite.") && Self.inode(linked) == inode)
        #expect((try PlaceIndex.open(at: other).search(stockmann) as [PlaceResult]).first?.place.category == "department_store")
        // A GeoNames import writes a new one and removes the old name; the other index keeps its own.
        _ = try await IndexBuilder(path: path).importGeoNames(try GeoNamesReader.locate(Self.mini), streets: nil, progress: nil)
        #expect(PlaceIndex.files(at: path)[1] != geonames && !FileManager.default.fileExists(atPath: geonames))
        #expect(Self.openingError(path) == nil && Self.openingError(other) == nil)
    }

    @Test("a new import over an index in use leaves the open one answering from the files it mapped, and removes them from the folder")
    func reimportWhileOpen() async throws {
        let (path, structures) = try Self.miniIndex()
        let open = try PlaceIndex.open(at: path)
        let springfield = try SearchRequest(text: "Springfield, IL")
        let before: [PlaceResult] = try open.search(springfield)
        #expect(before.first?.place.name == "Springfield" && open.streetLevelCount == 0)
        // Street data added in place (a new structures file, named by meta), then a whole new import (renamed in).
        _ = try await IndexBuilder(path: path).importStreets(OSMExtracts(files: [SharedIndex.helsinki]), progress: nil)
        #expect(!FileManager.default.fileExists(atPath: structures))
        let withStreets = try PlaceIndex.open(at: path)
        #expect(withStreets.streetLevelCount > 1000)
        _ = try await IndexBuilder(path: path).importGeoNames(try GeoNamesReader.locate(Self.mini), streets: nil, progress: nil)
        // The old index still answers, from the unlinked file it has mapped.
        #expect(try open.search(springfield) as [PlaceResult] == before)
        #expect((try withStreets.search(SearchRequest(text: "Stockmann")) as [PlaceResult]).first?.place.category == "department_store")
        // On disk: the database and the newest structures file, nothing else.
        let folder = (path as NSString).deletingLastPathComponent
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder))
                == Set(PlaceIndex.files(at: path).map { ($0 as NSString).lastPathComponent }))
        #expect(try PlaceIndex.open(at: path).streetLevelCount == 0)
    }

    @Test("a column is a value: a copy changed, or a mapped column appended to, leaves the original as it was")
    func columnsAreValues() throws {
        var a: Column<Int32> = [1, 2, 3]
        var b = a
        b[0] = 9
        b.append(4)
        #expect(Array(a) == [1, 2, 3] && Array(b) == [9, 2, 3, 4])
        for i in a.indices { a[i] *= 2 }
        #expect(Array(a) == [2, 4, 6])
        let (path, structures) = try Self.miniIndex()
        let file = try MappedStructures(path: structures, index: path)
        let mapped: Column<Int32> = try file.column("place.geonameid")
        var grown = mapped
        grown.append(-1)
        #expect(mapped.isMapped && !grown.isMapped && Array(grown.dropLast()) == Array(mapped) && grown.last == -1)
        #expect(try file.column("place.geonameid", as: Int32.self) == mapped)
    }

    @Test("an import removes the structures files that interrupted imports left beside the index, and nothing else")
    func leftoversRemoved() throws {
        let (path, _) = try Self.miniIndex()
        let folder = (path as NSString).deletingLastPathComponent
        let strays = ["geonames.sqlite.0123456789abcdef.structures", "geonames.sqlite.fedcba9876543210.structures.building"]
        let kept = ["geonames.sqlite.notes.structures", "other.sqlite.0123456789abcdef.structures", "mine.txt"]
        for file in strays + kept { try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/" + file)) }
        _ = try IndexBuilder.build(from: try GeoNamesReader.locate(Self.mini), to: path)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder))
        #expect(left == Set(kept + PlaceIndex.files(at: path).map { ($0 as NSString).lastPathComponent }))
        #expect(Self.openingError(path) == nil)
    }
}
