import Foundation
import PindropCore
import PindropTesting
import Testing
@testable import PindropImport

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
private let shippedDump = fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("data/geonames/cities500.txt.gz").path

/// A damaged or foreign input is refused as a whole, before anything could be built from it.
@Suite("Import integrity: whole-input checks")
struct ImportIntegrityTests {
    /// A fresh temporary folder.
    func folder() throws -> String {
        TestScratch.folder("integrity")
    }

    /// Writes `bytes` to `name` in a fresh folder and returns the file's path.
    func write(_ bytes: some Sequence<UInt8>, as name: String) throws -> String {
        let path = try folder() + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Reads every line of a file, as an import does.
    func readAllLines(_ path: String) throws {
        try LineReader(path: path).forEachLine { _ in true }
    }

    @Test("a truncated gzip dump throws wherever it is cut, never reads as a shorter file")
    func truncatedGzip() throws {
        let whole = try Array(Data(contentsOf: fixtures.appendingPathComponent("five-cities.txt.gz")))
        for cut in stride(from: 20, to: whole.count, by: 97) {
            let path = try write(whole[..<cut], as: "five-cities.txt.gz")
            let error = #expect(throws: PindropError.self, "cut at \(cut)") { try readAllLines(path) }
            #expect(error?.message.contains("five-cities.txt.gz ends early (truncated gzip)") == true, "\(String(describing: error))")
        }
        try readAllLines(fixtures.appendingPathComponent("five-cities.txt.gz").path)
    }

    @Test("the shipped dump cut to its first 5,000 bytes or 40% throws as truncated", arguments: [5_000, -40])
    func truncatedShippedDump(cut: Int) throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: shippedDump))
        let path = try write(whole.prefix(cut > 0 ? cut : whole.count * -cut / 100), as: "cities500.txt.gz")
        #expect(throws: PindropError.unreadableData("cities500.txt.gz ends early (truncated gzip): it may be an unfinished download")) {
            try readAllLines(path)
        }
    }

    @Test("a bit flipped inside a gzip stream is a clear error")
    func flippedGzip() throws {
        var bytes = try Array(Data(contentsOf: fixtures.appendingPathComponent("five-cities.txt.gz")))
        bytes[bytes.count / 2] ^= 0x04
        let path = try write(bytes, as: "five-cities.txt.gz")
        let error = #expect(throws: PindropError.self) { try readAllLines(path) }
        #expect(error?.message.contains("five-cities.txt.gz") == true, "\(String(describing: error))")
    }

    @Test("a plain dump cut in the middle of a row is refused as truncated")
    func truncatedPlainDump() throws {
        let text = try String(contentsOf: fixtures.appendingPathComponent("mini/cities500.txt"), encoding: .utf8)
        // Cut inside Portland's row, after its population column: the row alone would still parse.
        let cut = try #require(text.range(of: "America/Los_Angeles")).lowerBound
        let path = try write(Array(text[..<cut].utf8), as: "cities500.txt")
        let error = #expect(throws: PindropError.self) { try GeoNamesReader.readPlaces(path: path) { _ in } }
        #expect(error?.message == "cities500.txt ends in the middle of line 9: the file is truncated")
        // A complete row without a final line end is still a row.
        let unterminated = try write(Array(text.dropLast().utf8), as: "cities500.txt")
        #expect(try GeoNamesReader.readPlaces(path: unterminated) { _ in }.rowsImported == 5)
    }

    @Test("a folder without countryInfo.txt is refused before anything is read")
    func missingCountryInfo() throws {
        let dump = try write(Data(contentsOf: fixtures.appendingPathComponent("mini/cities500.txt")), as: "cities500.txt")
        let folder = (dump as NSString).deletingLastPathComponent
        for path in [folder, dump] {
            let error = #expect(throws: PindropError.self) { try GeoNamesReader.locate(path) }
            #expect(error?.message.hasPrefix("no countryInfo.txt beside cities500.txt in \(folder)") == true, "\(String(describing: error))")
        }
    }

    @Test("random bytes named cities500.txt are refused with the first bad line", arguments: [5_000, 1_000_000])
    func randomBytes(count: Int) throws {
        var random = OSMTestRandom(seed: UInt64(count))
        let path = try write(random.bytes(count), as: "cities500.txt")
        let error = #expect(throws: PindropError.self) { try GeoNamesReader.readPlaces(path: path) { _ in } }
        #expect(error?.message.hasPrefix("cities500.txt holds no readable GeoNames rows: ") == true, "\(String(describing: error))")
        #expect(error?.message.contains(" malformed lines; line ") == true)
    }

    @Test("more than 10 malformed lines and more than 1% of the rows refuse the file; fewer are skipped and reported")
    func malformedShare() throws {
        let good = try String(contentsOf: fixtures.appendingPathComponent("mini/cities500.txt"), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("2988507\t") }[0]
        func rows(good count: Int, bad: Int) -> String {
            (Array(repeating: String(good), count: count) + Array(repeating: "junk\tline", count: bad)).joined(separator: "\n") + "\n"
        }
        let mostlyBad = try write(Array(rows(good: 900, bad: 100).utf8), as: "cities500.txt")
        let error = #expect(throws: PindropError.self) { try GeoNamesReader.readPlaces(path: mostlyBad) { _ in } }
        #expect(error?.message.hasPrefix("cities500.txt is not a sound GeoNames dump: 100 of its 1000 rows are malformed (over 1%); line 901: ") == true,
                "\(String(describing: error))")
        let fewBad = try write(Array(rows(good: 1000, bad: 10).utf8), as: "cities500.txt")
        let summary = try GeoNamesReader.readPlaces(path: fewBad) { _ in }
        #expect(summary.rowsImported == 1000 && summary.skipped.count == 10)
        let onePercent = try write(Array(rows(good: 1500, bad: 15).utf8), as: "cities500.txt")
        #expect(try GeoNamesReader.readPlaces(path: onePercent) { _ in }.skipped.count == 15)
    }

    @Test("far fewer good rows than the text could hold is refused")
    func rowsFloor() throws {
        var summary = ImportSummary()
        summary.rowsRead = 2
        summary.rowsImported = 2
        #expect(throws: PindropError.unreadableData("x.txt is not a GeoNames dump: only 2 rows in 30000 bytes of text")) {
            try GeoNamesReader.checkWhole(summary, textBytes: 30_000, fileName: "x.txt")
        }
        try GeoNamesReader.checkWhole(summary, textBytes: 2 * GeoNamesReader.maximumBytesPerRow, fileName: "x.txt")
        let path = try write(Array(repeating: UInt8(ascii: "\n"), count: 100_000) + Array("1\tA\tA\t\t1\t1\tP\tPPL\tFR\t\t\t\t\t\t0\t\t\t\t\n".utf8),
                             as: "cities500.txt")
        #expect(throws: PindropError.self) { try GeoNamesReader.readPlaces(path: path) { _ in } }
    }
}

/// OpenStreetMap extracts: damage is found before anything is built.
@Suite("Import integrity: OpenStreetMap extracts")
struct OSMImportIntegrityTests {
    /// Writes `bytes` as a .pbf file in the temporary folder.
    func write(_ bytes: [UInt8]) throws -> String {
        let path = TestScratch.folder("integrity") + "/extract.osm.pbf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a truncated extract throws a clear error", arguments: [0.1, 0.5, 0.9, 0.999])
    func truncated(fraction: Double) throws {
        let file = OSMTestData.helsinkiBytes
        let path = try write(Array(file[..<Int(Double(file.count) * fraction)]))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: PindropError.self) { try OSMExtracts(files: [path]).readFeatures() }
        #expect(error?.message.contains("OSM PBF: the file is truncated") == true, "\(String(describing: error))")
    }

    @Test("one bit flipped in any block's compressed data throws a clear error")
    func flippedBit() throws {
        let file = OSMTestData.helsinkiBytes
        // Every block's blob: a bit in the middle and one near the end of its compressed data.
        let blocks = OSMTestPBF.blocks(of: file).map(\.offset)
        let ends = Array(blocks.dropFirst()) + [file.count]
        for (start, end) in zip(blocks, ends) where end - start > 1000 {
            for offset in [(start + end) / 2, end - 10] {
                var flipped = file
                flipped[offset] ^= 0x10
                let path = try write(flipped)
                defer { try? FileManager.default.removeItem(atPath: path) }
                let error = #expect(throws: PindropError.self, "bit flipped at \(offset)") { try OSMExtracts(files: [path]).readFeatures() }
                #expect(error?.message.hasPrefix("OSM PBF: ") == true, "\(String(describing: error))")
            }
        }
    }
}
