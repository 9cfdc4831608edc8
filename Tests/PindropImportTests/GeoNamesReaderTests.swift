import CZlib
import Foundation
import PindropCore
import PindropTesting
import Testing
@testable import PindropImport

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

@Suite("GeoNames dump reader")
struct GeoNamesReaderTests {
    @Test("malformed lines are skipped with their line numbers, good ones kept, counts add up")
    func malformedLinesAreReported() throws {
        var records: [GeoNamesRecord] = []
        let summary = try GeoNamesReader.readPlaces(path: fixtures.appendingPathComponent("mini/cities500.txt").path) {
            records.append($0)
        }
        #expect(summary.rowsRead == 9)
        #expect(summary.rowsImported == 5)
        #expect(records.map(\.name) == ["Zürich", "Paris", "São Paulo", "Springfield", "Portland"])
        #expect(summary.skipped.map(\.line) == [3, 4, 6, 7])
        #expect(summary.skipped[0].reason.contains("geonameid"))
        #expect(summary.skipped[1].reason.contains("19 tab-separated columns"))
        #expect(summary.skipped[2].reason.contains("latitude"))
        #expect(summary.skipped[3].reason.contains("population"))
        #expect(summary.skipped[0].description.hasPrefix("cities500.txt:3: "))
    }

    @Test("a record keeps the columns search needs, alternate names in every script included")
    func recordFields() throws {
        var zurich: GeoNamesRecord?
        _ = try GeoNamesReader.readPlaces(path: fixtures.appendingPathComponent("mini/cities500.txt").path) {
            if $0.geonameID == 2657896 { zurich = $0 }
        }
        let z = try #require(zurich)
        #expect(z.asciiName == "Zurich")
        #expect(z.countryCode == "CH")
        #expect(z.admin1Code == "ZH")
        #expect(z.population == 415367)
        #expect(abs(z.latitude - 47.36667) < 1e-9 && abs(z.longitude - 8.55) < 1e-9)
        #expect(z.alternateNames.contains("Цюрих"))
        #expect(z.timezone == "Europe/Zurich")
    }

    @Test("alternate names split at every comma, one followed by a combining mark included")
    func alternateNamesSplitAtEveryComma() throws {
        // In Swift's String a comma followed by a spacing mark (Sinhala "ෙ") is one Character with it, so splitting
        // text on "," would glue "කොළඹ" and "ෙකාළඹ" into one name; the dump's separator is the byte.
        let line = ["1248991", "Colombo", "Colombo", "Colombo,කොළඹ,ෙකාළඹ,,Kolamba", "6.93548", "79.84868", "P", "PPLA",
                    "LK", "", "36", "", "", "", "752993", "", "7", "Asia/Colombo", "2024-01-01"].joined(separator: "\t")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("alternates-\(UUID().uuidString).txt")
        try Data((line + "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var records: [GeoNamesRecord] = []
        _ = try GeoNamesReader.readPlaces(path: file.path) { records.append($0) }
        #expect(records.map(\.alternateNames) == [["Colombo", "කොළඹ", "ෙකාළඹ", "Kolamba"]])
    }

    @Test("a record keeps its alternate names as one text and gives back the names it was made with")
    func alternateNamesRoundTrip() {
        // Any text a store hands over, commas and braces included; only the separator itself cannot stay.
        var record = GeoNamesRecord(geonameID: 1, name: "A", asciiName: "A", alternateNames: ["a,b", "{brace}", "Ünïcödé 東京", "x\u{1F}y"],
                                    latitude: 0, longitude: 0, featureClass: "P", featureCode: "PPL", countryCode: "FI",
                                    admin1Code: "", population: 0, timezone: "")
        #expect(record.alternateNames == ["a,b", "{brace}", "Ünïcödé 東京", "x y"])
        record.alternateNames = ["Helsingfors"]
        #expect(record.alternateNames == ["Helsingfors"])
        #expect(record.alternateNamesText == "Helsingfors")
    }

    @Test("gzip-compressed dumps read the same as plain ones")
    func gzipDumps() throws {
        var names: [String] = []
        let summary = try GeoNamesReader.readPlaces(path: fixtures.appendingPathComponent("five-cities.txt.gz").path) {
            names.append($0.name)
        }
        #expect(summary.rowsImported == 5 && summary.skipped.isEmpty)
        #expect(names.contains("São Paulo"))
    }

    @Test("a folder is searched for the dump and its admin1 and country tables")
    func locateInFolder() throws {
        let files = try GeoNamesReader.locate(fixtures.appendingPathComponent("mini").path)
        #expect(files.places.hasSuffix("mini/cities500.txt"))
        #expect(files.admin1Codes?.hasSuffix("admin1CodesASCII.txt") == true)
        #expect(files.countryInfo?.hasSuffix("countryInfo.txt") == true)
        let countries = try GeoNamesReader.readCountries(path: try #require(files.countryInfo))
        #expect(countries.first { $0.code == "US" }?.iso3 == "USA")
        #expect(countries.first { $0.code == "US" }?.name == "United States")
        let admin1 = try GeoNamesReader.readAdmin1Codes(path: try #require(files.admin1Codes))
        #expect(admin1["US.IL"] == "Illinois")
    }

    @Test("missing files and folders without a dump give a clear error")
    func missingFiles() {
        #expect(throws: PindropError.self) { try GeoNamesReader.locate("/nonexistent/cities500.txt") }
        #expect(throws: PindropError.unreadableData("no GeoNames dump (allCountries.txt or citiesN.txt, plain or .gz) in /tmp")) {
            try GeoNamesReader.locate("/tmp")
        }
        #expect(throws: PindropError.self) { _ = try LineReader(path: "/nonexistent/file.txt") }
    }

    @Test("a binary file is read without crashing and refused, its lines all malformed")
    func binaryGarbage() throws {
        let path = NSTemporaryDirectory() + "garbage-\(UUID().uuidString).txt"
        var bytes = [UInt8]()
        var seed: UInt32 = 42
        for _ in 0..<100_000 { seed = seed &* 1_664_525 &+ 1_013_904_223; bytes.append(UInt8(seed >> 24)) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: PindropError.self) {
            try GeoNamesReader.readPlaces(path: path) { _ in Issue.record("garbage became a place") }
        }
        #expect(error?.message.hasPrefix("\((path as NSString).lastPathComponent) holds no readable GeoNames rows: ") == true)
    }

    // MARK: Hostile files

    @Test("a dump that is a link to /dev/zero is refused before it is read, as the OSM reader refuses one")
    func deviceFile() throws {
        let folder = TestScratch.folder("dev-zero")
        try FileManager.default.createSymbolicLink(atPath: folder + "/cities500.txt", withDestinationPath: "/dev/zero")
        #expect(throws: PindropError.unreadableData("cannot read \(folder)/cities500.txt: not a regular file")) {
            try GeoNamesReader.readPlaces(path: folder + "/cities500.txt") { _ in }
        }
    }

    @Test("a gzip of 16 MiB of NUL bytes (16 KB) is refused at its first line, after reading one MiB of it")
    func nulBomb() throws {
        let path = TestScratch.folder("nul-bomb") + "/cities500.txt.gz"
        let file = try #require(gzopen(path, "wb9"))
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        for _ in 0..<16 { #expect(gzwrite(file, zeros, UInt32(zeros.count)) == Int32(zeros.count)) }
        gzclose(file)
        let error = #expect(throws: PindropError.self) { try GeoNamesReader.readPlaces(path: path) { _ in } }
        #expect(error?.message == "cities500.txt.gz: line 1 is longer than 1048576 bytes; this is not a text dump, or a damaged one")
    }

    @Test("a line over the limit fails the reading with its number; one at the limit is read whole, across refills")
    func lineLimit() throws {
        let path = TestScratch.folder("long-line") + "/lines.txt"
        let lines = ["first", String(repeating: "x", count: 100), "third", String(repeating: "y", count: 101), "fifth"]
        try Data(lines.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: path))
        var read: [String] = []
        let error = #expect(throws: PindropError.self) {
            try LineReader(path: path, blockSize: 16, maximumLineLength: 100).forEachLine {
                read.append(String(decoding: $0, as: UTF8.self))
                return true
            }
        }
        #expect(read == Array(lines.prefix(3)))
        #expect(error?.message.hasPrefix("lines.txt: line 4 is longer than 100 bytes") == true)
    }

    @Test("a dump with a 2 MiB line fails the import with the line's number")
    func longDumpLine() throws {
        let path = TestScratch.folder("long-row") + "/cities500.txt"
        let good = try String(contentsOf: fixtures.appendingPathComponent("mini/cities500.txt"), encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("2657896\t") }
        try Data((good + [Substring(String(repeating: "a", count: 2 << 20))] + good).joined(separator: "\n").utf8)
            .write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: PindropError.self) { try GeoNamesReader.readPlaces(path: path) { _ in } }
        #expect(error?.message.hasPrefix("cities500.txt: line 2 is longer than 1048576 bytes") == true)
    }

    @Test("names, alternate names, admin1 and country names lose their control characters; the rest of a row is kept")
    func controlCharacters() throws {
        let folder = TestScratch.folder("control-names")
        let row = ["1", "Evil\u{1B}]0;pwned\u{07}ville", "Evil\u{9B}2Jville", "Alt\u{1B}[2J,Other\u{7F}", "60.1", "24.9", "P", "PPL",
                   "FI", "", "01", "", "", "", "1000", "", "", "Europe/Helsinki", "2024-01-01"].joined(separator: "\t")
        try Data((row + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/cities500.txt"))
        try Data("FI.01\tUusi\u{1B}[31mmaa\tUusimaa\t1\n".utf8).write(to: URL(fileURLWithPath: folder + "/admin1CodesASCII.txt"))
        try Data("FI\tFIN\t246\tFI\tFin\u{1B}]0;xland\n".utf8).write(to: URL(fileURLWithPath: folder + "/countryInfo.txt"))
        let files = try GeoNamesReader.locate(folder)
        var records: [GeoNamesRecord] = []
        _ = try files.readPlaces(progress: nil) { records.append($0) }
        #expect(records.map(\.name) == ["Evil]0;pwnedville"] && records.map(\.asciiName) == ["Evil2Jville"])
        #expect(records.map(\.alternateNames) == [["Alt[2J", "Other"]])
        #expect(records.first?.population == 1000 && records.first?.timezone == "Europe/Helsinki")
        #expect(try files.admin1Names() == ["FI.01": "Uusi[31mmaa"])
        #expect(try files.countries().map(\.name) == ["Fin]0;xland"])
    }
}
