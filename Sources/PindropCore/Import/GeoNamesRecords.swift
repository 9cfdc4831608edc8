// What the readers of real formats (PindropImport) hand to the stores that import them (PindropIndex, the
// PostgreSQL store): plain values, so neither side imports the other.

/// One row of a GeoNames `geoname` dump (cities500.txt, allCountries.txt, ...), the columns Pindrop keeps.
public struct GeoNamesRecord: Sendable, Hashable {
    public var geonameID: Int
    public var name: String
    public var asciiName: String
    /// The alternate names, in any script, separated by U+001F (`alternateSeparator`): one string a row, as the
    /// dump's column arrives with its commas replaced, where an array of names cost an allocation a name (an import
    /// reads millions).
    public var alternateNamesText: String
    /// The alternate names, in any script (none empty).
    public var alternateNames: [String] {
        get { Self.alternateNames(alternateNamesText.utf8, separator: Self.alternateSeparator) }
        set { alternateNamesText = Self.alternateNamesText(newValue) }
    }
    public var latitude: Double
    public var longitude: Double
    public var featureClass: String
    public var featureCode: String
    public var countryCode: String
    public var admin1Code: String
    public var population: Int
    public var timezone: String

    /// Makes a record from its parts.
    public init(geonameID: Int, name: String, asciiName: String, alternateNames: [String], latitude: Double,
                longitude: Double, featureClass: String, featureCode: String, countryCode: String,
                admin1Code: String, population: Int, timezone: String) {
        self.init(geonameID: geonameID, name: name, asciiName: asciiName, alternateNamesText: Self.alternateNamesText(alternateNames),
                  latitude: latitude, longitude: longitude, featureClass: featureClass, featureCode: featureCode,
                  countryCode: countryCode, admin1Code: admin1Code, population: population, timezone: timezone)
    }

    /// Makes a record from its parts, the alternate names as `alternateNamesText` holds them.
    public init(geonameID: Int, name: String, asciiName: String, alternateNamesText: String, latitude: Double,
                longitude: Double, featureClass: String, featureCode: String, countryCode: String,
                admin1Code: String, population: Int, timezone: String) {
        self.geonameID = geonameID; self.name = name; self.asciiName = asciiName; self.alternateNamesText = alternateNamesText
        self.latitude = latitude; self.longitude = longitude; self.featureClass = featureClass
        self.featureCode = featureCode; self.countryCode = countryCode; self.admin1Code = admin1Code
        self.population = population; self.timezone = timezone
    }
}

extension GeoNamesRecord {
    /// What separates the names in `alternateNamesText`.
    public static let alternateSeparator = UInt8(0x1F)

    /// `alternateNamesText` of these names (a separator inside a name becomes a space).
    public static func alternateNamesText(_ names: [String]) -> String {
        names.map { name in
            name.utf8.contains(alternateSeparator) ? String(decoding: name.utf8.map { $0 == alternateSeparator ? 0x20 : $0 }, as: UTF8.self) : name
        }.joined(separator: "\u{1F}")
    }

    /// `alternateNamesText` of a dump's comma-separated alternate-names column: its bytes with each comma replaced
    /// and its control characters left out (`ControlCharacters`).
    public static func alternateNamesText(dumpColumn column: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: column.count) { text in
            var count = 0, i = 0
            while i < column.count {
                let control = ControlCharacters.length(in: column, at: i)
                if control > 0 { i += control; continue }
                text[count] = column[i] == UInt8(ascii: ",") ? alternateSeparator : column[i]
                count += 1
                i += 1
            }
            return count
        }
    }

    /// The names of a dump's comma-separated alternate-names column (or of another separator's), split at every
    /// separator byte: a comma followed by a combining mark (Sinhala ",ෙ") still separates two names, though a
    /// `Character` would join the two. Empty names are left out.
    /// Inlinable, so that it is specialized for the caller's bytes (generic, it is several times slower).
    @inlinable
    public static func alternateNames(_ column: some Collection<UInt8>, separator: UInt8 = UInt8(ascii: ",")) -> [String] {
        // One pass, each name made as its end is found (no array of pieces first).
        var names: [String] = []
        var start = column.startIndex, i = column.startIndex
        while i != column.endIndex {
            if column[i] == separator {
                if start != i { names.append(String(decoding: column[start..<i], as: UTF8.self)) }
                start = column.index(after: i)
            }
            i = column.index(after: i)
        }
        if start != i { names.append(String(decoding: column[start..<i], as: UTF8.self)) }
        return names
    }
}

/// A country from `countryInfo.txt`.
public struct GeoNamesCountry: Sendable, Hashable {
    public var code: String
    public var iso3: String
    public var name: String

    /// Makes a country.
    public init(code: String, iso3: String, name: String) { self.code = code; self.iso3 = iso3; self.name = name }
}

/// A line that could not be read, with its 1-based number.
public struct SkippedLine: Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var reason: String
    public var description: String { "\(file):\(line): \(reason)" }

    /// Makes a record of a skipped line.
    public init(file: String, line: Int, reason: String) { self.file = file; self.line = line; self.reason = reason }
}

/// What an import read, kept and skipped.
public struct ImportSummary: Sendable {
    public var rowsRead = 0
    public var rowsImported = 0
    public var skipped: [SkippedLine] = []
    /// Makes an empty summary.
    public init() {}
}
