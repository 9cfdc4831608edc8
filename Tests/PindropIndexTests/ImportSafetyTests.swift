import Foundation
import PindropCore
import PindropImport
import PindropTesting
import Testing
@testable import PindropIndex

/// An import never destroys a working index: whatever goes wrong, the previous file stays, byte for byte,
/// answering as before, and no temporary file is left beside it.
@Suite("Index files: a failed import leaves the previous index")
struct ImportSafetyTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("PindropImportTests/Fixtures")
    static let mini = fixtures.appendingPathComponent("mini").path

    /// A fresh temporary folder.
    static func folder() throws -> String {
        TestScratch.folder("safety")
    }

    /// A working index built from the mini dump, in a fresh folder.
    static func goodIndex() throws -> String {
        let path = try folder() + "/geonames.sqlite"
        _ = try IndexBuilder.build(from: try GeoNamesReader.locate(mini), to: path)
        return path
    }

    /// A folder holding a dump `name` with these bytes and, unless left out, the mini dump's companion files.
    static func dumpFolder(_ name: String, _ bytes: some Sequence<UInt8>, companions: [String] = ["countryInfo.txt", "admin1CodesASCII.txt"]) throws -> String {
        let path = try folder()
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/" + name))
        for file in companions { try FileManager.default.copyItem(atPath: mini + "/" + file, toPath: path + "/" + file) }
        return path
    }

    /// Asserts the index at `path` is still `before`, byte for byte, answers, and has nothing left beside it.
    static func expectUnchanged(_ path: String, was before: Data) throws {
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        let index = try PlaceIndex.open(at: path)
        #expect(index.placeCount == 5)
        #expect((try index.search(SearchRequest(text: "Springfield, IL")) as [PlaceResult]).first?.place.name == "Springfield")
        #expect(!FileManager.default.fileExists(atPath: path + ".building"))
        // Nothing beside the index's three files: the failed import's structures files are gone too.
        let folder = (path as NSString).deletingLastPathComponent
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)) == Set(PlaceIndex.files(at: path).map { ($0 as NSString).lastPathComponent }))
        #expect(PlaceIndex.files(at: path).count == 3)
    }

    static let badDumps: [(String, @Sendable () throws -> String, String)] = [
        ("truncated gzip", { try dumpFolder("cities500.txt.gz", Data(contentsOf: fixtures.appendingPathComponent("five-cities.txt.gz")).prefix(1500)) },
         "ends early (truncated gzip)"),
        ("no countryInfo.txt", { try dumpFolder("cities500.txt", Data(contentsOf: URL(fileURLWithPath: mini + "/cities500.txt")), companions: ["admin1CodesASCII.txt"]) },
         "no countryInfo.txt beside cities500.txt"),
        ("random bytes", { var random = SplitMix64(seed: 15); return try dumpFolder("cities500.txt", (0..<20_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }) },
         "holds no readable GeoNames rows"),
    ]

    @Test("a damaged GeoNames import throws and leaves the previous index", arguments: 0..<badDumps.count)
    func badGeoNamesImport(_ which: Int) async throws {
        let (name, make, message) = Self.badDumps[which]
        let path = try Self.goodIndex()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let folder = try make()
        do {
            _ = try await IndexBuilder(path: path).importGeoNames(try GeoNamesReader.locate(folder), streets: nil, progress: nil)
            Issue.record("\(name): the import succeeded")
        } catch let error as PindropError {
            #expect(error.message.contains(message), "\(name): \(error.message)")
        }
        try Self.expectUnchanged(path, was: before)
    }

    @Test("a truncated or bit-flipped OpenStreetMap extract throws and leaves the previous index", arguments: [true, false])
    func badStreetImport(truncated: Bool) async throws {
        let path = try Self.goodIndex()
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: SharedIndex.helsinki))
        if truncated { bytes = bytes.prefix(bytes.count / 2) } else { bytes[bytes.count / 2] ^= 0x10 }
        let extract = try Self.folder() + "/broken.osm.pbf"
        try bytes.write(to: URL(fileURLWithPath: extract))
        await #expect(throws: PindropError.self) {
            _ = try await IndexBuilder(path: path).importStreets(OSMExtracts(files: [extract]), progress: nil)
        }
        try Self.expectUnchanged(path, was: before)
    }

    @Test("places of countries missing from the country table are stored with them, so the index reads back")
    func countriesNotInCountryInfo() throws {
        let path = try Self.folder() + "/geonames.sqlite"
        _ = try IndexBuilder.build(from: DumpWithoutTables(), to: path)
        let index = try PlaceIndex.open(at: path)
        #expect(index.placeCount == 5)
        #expect((try index.search(SearchRequest(text: "Zurich")) as [PlaceResult]).first?.place.countryCode == "CH")
    }

    @Test("a build that cannot move its file into place removes it, and deletes nothing in the way")
    func blockedRename() throws {
        let path = try Self.folder() + "/geonames.sqlite"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: path + "/mine.txt"))
        let error = #expect(throws: PindropError.self) { try IndexBuilder.build(from: try GeoNamesReader.locate(Self.mini), to: path) }
        #expect(error?.message.contains("cannot move the new index into place at \(path)") == true, "\(String(describing: error))")
        #expect(FileManager.default.fileExists(atPath: path + "/mine.txt"))
        #expect(!FileManager.default.fileExists(atPath: path + ".building"))
    }

    @Test("the index records whether it came from the shipped data; a street import or an unreadable file is a user's")
    func origin() async throws {
        let user = try Self.goodIndex()
        #expect(!PlaceIndex.isBuiltFromShippedData(at: user))
        let shipped = try Self.folder() + "/geonames.sqlite"
        _ = try await IndexBuilder(path: shipped, fromShippedData: true)
            .importGeoNames(try GeoNamesReader.locate(Self.mini), streets: nil, progress: nil)
        #expect(PlaceIndex.isBuiltFromShippedData(at: shipped))
        // The user's own street data on top makes it theirs.
        _ = try await IndexBuilder(path: shipped).importStreets(OSMExtracts(files: [SharedIndex.helsinki]), progress: nil)
        #expect(!PlaceIndex.isBuiltFromShippedData(at: shipped))
        try Data("not an index".utf8).write(to: URL(fileURLWithPath: user))
        #expect(!PlaceIndex.isBuiltFromShippedData(at: user))
        #expect(!PlaceIndex.isBuiltFromShippedData(at: "/nonexistent/geonames.sqlite"))
    }
}

/// The mini dump without its country and admin1 tables.
private struct DumpWithoutTables: GeoNamesSource {
    var label: String { "cities500.txt" }
    func countries() throws -> [GeoNamesCountry] { [] }
    func admin1Names() throws -> [String: String] { [:] }
    func readPlaces(progress: ((Double) -> Void)?, _ body: (GeoNamesRecord) throws -> Void) throws -> ImportSummary {
        try GeoNamesReader.readPlaces(path: ImportSafetyTests.mini + "/cities500.txt", onRecord: body)
    }
}
