import Foundation
import PindropCore

/// Places as parallel columns (compact; in an open index, sections of the mapped structures file).
struct PlaceTable: Sendable {
    var geonameID: Column<Int32>
    var latitude: Column<Double>
    var longitude: Column<Double>
    var population: Column<Int32>
    /// Index into `countries`, or `noCountry`.
    var country: Column<UInt16>
    /// Index into `admin1s`, or -1.
    var admin1: Column<Int32>
    /// Place i's name is nameBytes[nameStart[i] ..< nameStart[i + 1]].
    var nameStart: Column<UInt32>
    var nameBytes: Column<UInt8>
    /// What each row is (`RowKind`): GeoNames rows come first, sorted by id, then OpenStreetMap rows. A GeoNames
    /// row that could be a section of a city also has `sectionLike` set (`couldBeSection`), a country's capital
    /// `capital`.
    var kind: Column<UInt8>
    /// OpenStreetMap rows' id, category and address: extraBytes[extraStart[i] ..< extraStart[i + 1]] holds
    /// "id␟category␟houseNumber␟street␟postcode␟town" (␟ = U+001F); empty for GeoNames rows.
    var extraStart: Column<UInt32>
    var extraBytes: Column<UInt8>
    var countries: [CountryInfo]
    var admin1s: [Admin1Info]
    /// GeoNames rows' alternate names as imported, separated by U+001F: row i's are
    /// alternateBytes[alternateStart[i] ..< alternateStart[i + 1]] (none for street-level rows), so a match
    /// through an alternate name can show that name as written ("Helsingfors", not "helsingfors").
    var alternateStart: Column<UInt32> = [0]
    var alternateBytes: Column<UInt8> = []

    static let noCountry = UInt16.max
    /// The bit of a row's `kind` byte set when its name could make it a section of a city (`couldBeSection`): ranking
    /// asks of every candidate, and the kind is read anyway, where the name was another two reads far apart.
    static let sectionLike: UInt8 = 0x80
    /// The bit of a GeoNames row's `kind` byte set for a country's capital (GeoNames feature code PPLC), which ranking
    /// weighs as a city of at least 100,000 (`Ranking.capitalPopulation`).
    static let capital: UInt8 = 0x40

    /// The kinds of rows, in the order they are stored.
    enum RowKind: UInt8 {
        case geonames = 0, venue = 1, address = 2, street = 3, area = 4, postcode = 5
        /// Added to importance (`Ranking.kindBonus`).
        var bonus: Float { Ranking.kindBonus(self) }
        /// The kind of place a row of this kind is.
        var placeKind: PlaceKind {
            switch self {
            case .geonames: .place
            case .venue: .venue
            case .address: .address
            case .street: .street
            case .area: .area
            case .postcode: .postcode
            }
        }
    }

    /// Rows 0 ..< geonamesCount are GeoNames places, sorted by id. They come first, so a binary search finds the
    /// first other row (callers ask per query, and a scan would read every row).
    var geonamesCount: Int {
        firstIndex(in: kind.indices) { rowKind($0) != .geonames }
    }

    func rowKind(_ i: Int) -> RowKind { RowKind(rawValue: kind[i] & ~(Self.sectionLike | Self.capital | Self.landmark)) ?? .geonames }

    /// The bit of a venue row's `kind` byte set when it is a named feature of the landscape or a landmark that ranks
    /// above a venue (a peak, a lake, a river, a hamlet's place node: Nominatim's search rank 22 or lower).
    static let landmark: UInt8 = 0x20

    /// Whether row i is a landmark (`landmark`).
    func isLandmark(_ i: Int) -> Bool { kind[i] & Self.landmark != 0 }

    /// Whether row i is a country's capital.
    func isCapital(_ i: Int) -> Bool { kind[i] & Self.capital != 0 }

    /// How many rows the table holds.
    var count: Int { geonameID.count }

    func name(_ i: Int) -> String {
        let bytes = nameRange(i)
        // From the buffer: a slice of the column would retain and release its storage for every answer.
        return nameBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[bytes]), as: UTF8.self) }
    }

    /// Where row i's name lies in `nameBytes`.
    private func nameRange(_ i: Int) -> Range<Int> {
        let (a, b) = (Int(nameStart[i]), Int(nameStart[i + 1]))
        precondition(a <= b && b <= nameBytes.count, "name bytes out of range")
        return a..<b
    }

    func countryInfo(_ i: Int) -> CountryInfo? {
        country[i] == Self.noCountry ? nil : countries[Int(country[i])]
    }

    func admin1Info(_ i: Int) -> Admin1Info? {
        admin1[i] < 0 ? nil : admin1s[Int(admin1[i])]
    }

    /// Ranking weight: log2 of the population (people expect the biggest place of a name first).
    func importance(_ i: Int) -> Float {
        Ranking.importance(population: population[i], kind: rowKind(i), landmark: isLandmark(i), capital: isCapital(i))
    }

    /// A row's place id: "geonames:<id>" or the OpenStreetMap row's own.
    func id(_ i: Int) -> String {
        osmExtras(i)?.id ?? PlaceText.geonamesID(geonameID[i]).string
    }

    /// `extras` of a street-level row; nil for a GeoNames row without reading `extraStart` (its kind, read for every
    /// answer anyway, says there are none), whose pages would otherwise all be read in (tens of megabytes at scale).
    private func osmExtras(_ i: Int) -> PlaceExtras? {
        rowKind(i) == .geonames ? nil : extras(i)
    }

    /// The row of a GeoNames id (rows are sorted by id).
    func index(ofGeonameID id: Int32) -> Int? {
        let count = geonamesCount
        let i = firstIndex(in: 0..<count) { geonameID[$0] >= id }
        return i < count && geonameID[i] == id ? i : nil
    }
}

extension String {
    /// nil for the empty string.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
