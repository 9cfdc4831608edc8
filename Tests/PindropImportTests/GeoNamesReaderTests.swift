import Foundation
import PindropCore
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
}
