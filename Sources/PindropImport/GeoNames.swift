import Foundation
import PindropCore

/// Readers for the GeoNames download formats (https://download.geonames.org/export/dump/).
public enum GeoNamesReader {
    /// The files of a GeoNames import: the places dump, the country table and the optional admin1 table beside it.
    /// What every store imports from (`GeoNamesSource`).
    public struct Files: GeoNamesSource {
        public var places: String
        public var admin1Codes: String?
        /// Required by `locate`: without it no place has a country.
        public var countryInfo: String?

        /// The dump's file name.
        public var label: String { (places as NSString).lastPathComponent }

        public func countries() throws -> [GeoNamesCountry] { try countryInfo.map(GeoNamesReader.readCountries) ?? [] }

        public func admin1Names() throws -> [String: String] { try admin1Codes.map(GeoNamesReader.readAdmin1Codes) ?? [:] }

        public func readPlaces(progress: ((Double) -> Void)?, _ body: (GeoNamesRecord) throws -> Void) throws -> ImportSummary {
            try GeoNamesReader.readPlaces(path: places, progress: progress, onRecord: body)
        }
    }

    /// Finds the dump and its tables from a file or a folder. In a folder the most complete dump wins
    /// (allCountries, then cities500, 1000, 5000, 15000), plain or .gz. `countryInfo.txt` must be beside
    /// the dump (every place names its country by code); `admin1CodesASCII.txt` may be missing.
    public static func locate(_ path: String) throws(PindropError) -> Files {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadableData("no such file or folder: \(path)")
        }
        let folder = isDirectory.boolValue ? path : (path as NSString).deletingLastPathComponent
        func find(_ names: [String]) -> String? {
            for name in names {
                for candidate in [name, name + ".gz"] {
                    let full = (folder as NSString).appendingPathComponent(candidate)
                    if FileManager.default.isReadableFile(atPath: full) { return full }
                }
            }
            return nil
        }
        let places: String
        if isDirectory.boolValue {
            guard let found = find(["allCountries.txt", "cities500.txt", "cities1000.txt", "cities5000.txt", "cities15000.txt"]) else {
                throw .unreadableData("no GeoNames dump (allCountries.txt or citiesN.txt, plain or .gz) in \(path)")
            }
            places = found
        } else {
            places = path
        }
        guard let countryInfo = find(["countryInfo.txt"]) else {
            throw .unreadableData("no countryInfo.txt beside \((places as NSString).lastPathComponent) in \(folder): "
                                  + "download it from https://download.geonames.org/export/dump/countryInfo.txt and put it there")
        }
        return Files(places: places, admin1Codes: find(["admin1CodesASCII.txt"]), countryInfo: countryInfo)
    }

    /// Streams the places of a `geoname` dump: calls `onRecord` for each good row, records each malformed line
    /// (with its number) in the summary and goes on. `progress` gets the fraction of the file read.
    /// Once the whole file is read it must pass `checkWhole`; a file that does not throws `.unreadableData`
    /// (so a caller builds from the rows only after this returns).
    public static func readPlaces(path: String, progress: ((Double) -> Void)? = nil,
                                  onRecord: (GeoNamesRecord) throws -> Void) throws -> ImportSummary {
        let reader = try LineReader(path: path)
        let fileName = (path as NSString).lastPathComponent
        let fileSize = FileManager.default.fileSize(atPath: path) ?? 0
        var summary = ImportSummary()
        var lineNumber = 0, textBytes = 0
        var cutShort = false
        try reader.forEachLine { line in
            lineNumber += 1
            textBytes += line.count + 1
            if line.isEmpty || line.first == UInt8(ascii: "#") { return true }
            // A real row has 19 columns; a last line with fewer and no line end was cut off mid-row.
            if reader.endsWithoutLineEnd, line.count(where: { $0 == 0x09 }) < 18 { cutShort = true }
            summary.rowsRead += 1
            switch parsePlace(line) {
            case .success(let record):
                try onRecord(record)
                summary.rowsImported += 1
            case .failure(let problem):
                if summary.skipped.count < 10_000 {
                    summary.skipped.append(SkippedLine(file: fileName, line: lineNumber, reason: problem.reason))
                }
            }
            if let progress, fileSize > 0, lineNumber % 4096 == 0 {
                progress(min(1, Double(reader.bytesRead) / Double(fileSize)))
            }
            return true
        }
        try checkWhole(summary, textBytes: textBytes, fileName: fileName)
        if cutShort {
            throw PindropError.unreadableData("\(fileName) ends in the middle of line \(lineNumber): the file is truncated")
        }
        progress?(1)
        return summary
    }

    /// Malformed lines tolerated in any dump, however small (a hand-made file with a few bad lines imports).
    public static let skippedAllowance = 10
    /// Beyond the allowance, the largest share of malformed lines: 1%.
    public static let maximumSkippedFraction = 0.01
    /// At least one good row per this many bytes of text.
    public static let maximumBytesPerRow = 8192

    /// The sanity checks a whole dump passes before anything is built from it, so that a damaged or foreign
    /// file never replaces a working index. Real dumps pass with wide margins: cities500, 1000, 5000 and
    /// 15000 have no malformed lines at all, average 150–230 bytes a row, and their longest row is 3.6 KB.
    /// - more than `skippedAllowance` malformed lines *and* more than `maximumSkippedFraction` of the rows:
    ///   not a GeoNames dump, or a damaged one (random bytes are all malformed lines);
    /// - fewer good rows than one per `maximumBytesPerRow` (8 KiB, twice the longest real row) of text: the
    ///   file is mostly something else (binary, blank lines, comments);
    /// - no good row at all.
    public static func checkWhole(_ summary: ImportSummary, textBytes: Int, fileName: String) throws(PindropError) {
        let malformed = summary.rowsRead - summary.rowsImported
        let example = summary.skipped.first.map { "; line \($0.line): \($0.reason)" } ?? ""
        guard summary.rowsImported > 0 else {
            throw .unreadableData("\(fileName) holds no readable GeoNames rows: \(malformed) malformed lines\(example)")
        }
        if malformed > skippedAllowance, Double(malformed) > maximumSkippedFraction * Double(summary.rowsRead) {
            throw .unreadableData("\(fileName) is not a sound GeoNames dump: \(malformed) of its \(summary.rowsRead) rows are malformed"
                                  + " (over \(Int(maximumSkippedFraction * 100))%)\(example)")
        }
        guard summary.rowsImported >= textBytes / maximumBytesPerRow else {
            throw .unreadableData("\(fileName) is not a GeoNames dump: only \(summary.rowsImported) rows in \(textBytes) bytes of text")
        }
    }

    struct LineProblem: Error { var reason: String }

    /// Parses one 19-column geoname line (tab-separated, UTF-8).
    static func parsePlace(_ line: UnsafeBufferPointer<UInt8>) -> Result<GeoNamesRecord, LineProblem> {
        // The first 19 columns' bytes, in space on the stack (this runs for every row of a dump); any more are
        // counted only.
        withUnsafeTemporaryAllocation(of: UnsafeBufferPointer<UInt8>.self, capacity: 19) { fields in
            var count = 0, fieldStart = 0
            for i in 0...line.count where i == line.count || line[i] == 0x09 {
                if count < 19 { fields[count] = UnsafeBufferPointer(rebasing: line[fieldStart..<i]) }
                count += 1
                fieldStart = i + 1
            }
            guard count >= 15 else {
                return .failure(LineProblem(reason: "expected 19 tab-separated columns, found \(count)"))
            }
            return parsePlace(fields: UnsafeBufferPointer(rebasing: fields[..<min(count, 19)]))
        }
    }

    /// `parsePlace` of a line's columns (at least 15).
    private static func parsePlace(fields: UnsafeBufferPointer<UnsafeBufferPointer<UInt8>>) -> Result<GeoNamesRecord, LineProblem> {
        // Without control characters: a name holding ESC [ 2 J must not clear the terminal that lists it.
        func text(_ i: Int) -> String { ControlCharacters.string(utf8: fields[i]) }
        guard let id = Int(text(0)), id > 0 else { return .failure(LineProblem(reason: "geonameid \"\(text(0).prefix(20))\" is not a positive number")) }
        let name = text(1)
        guard !name.isEmpty else { return .failure(LineProblem(reason: "empty name")) }
        guard let lat = Double(text(4)), lat.isFinite, (-90...90).contains(lat) else {
            return .failure(LineProblem(reason: "latitude \"\(text(4).prefix(20))\" is not a number in -90...90"))
        }
        guard let lon = Double(text(5)), lon.isFinite, (-180...180).contains(lon) else {
            return .failure(LineProblem(reason: "longitude \"\(text(5).prefix(20))\" is not a number in -180...180"))
        }
        let populationText = text(14)
        guard let population = populationText.isEmpty ? 0 : Int(populationText), population >= 0 else {
            return .failure(LineProblem(reason: "population \"\(populationText.prefix(20))\" is not a number"))
        }
        return .success(GeoNamesRecord(
            geonameID: id, name: name, asciiName: text(2), alternateNamesText: GeoNamesRecord.alternateNamesText(dumpColumn: fields[3]),
            latitude: lat, longitude: lon,
            featureClass: text(6), featureCode: text(7), countryCode: text(8).uppercased(), admin1Code: text(10),
            population: population, timezone: fields.count > 17 ? text(17) : ""))
    }

    /// Reads `admin1CodesASCII.txt`: "CC.code" → name.
    public static func readAdmin1Codes(path: String) throws -> [String: String] {
        var names: [String: String] = [:]
        try LineReader(path: path).forEachLine { line in
            let cols = String(decoding: line, as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false)
            if cols.count >= 2, !cols[0].isEmpty, !cols[1].isEmpty { names[String(cols[0])] = ControlCharacters.removed(from: String(cols[1])) }
            return true
        }
        return names
    }

    /// Reads `countryInfo.txt` (skipping its `#` lines).
    public static func readCountries(path: String) throws -> [GeoNamesCountry] {
        var countries: [GeoNamesCountry] = []
        try LineReader(path: path).forEachLine { line in
            guard line.first != UInt8(ascii: "#") else { return true }
            let cols = String(decoding: line, as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false)
            if cols.count >= 5, cols[0].count == 2 {
                countries.append(GeoNamesCountry(code: String(cols[0]), iso3: String(cols[1]), name: ControlCharacters.removed(from: String(cols[4]))))
            }
            return true
        }
        return countries
    }
}
