import Foundation
import PindropCore

/// A country as the index knows it, with the forms a qualifier may take.
struct CountryInfo: Sendable {
    var code: String
    var iso3: String
    var name: String
    /// Folded forms that name this country in a qualifier: "us", "usa", "united states", ...
    var qualifierForms: [String]
}

/// A first-level division ("US.IL" → Illinois).
struct Admin1Info: Sendable {
    var countryCode: String
    /// The part after "CC." ("IL", "08").
    var code: String
    var name: String
    var qualifierForms: [String]
}

/// Places as parallel arrays (compact, and loadable as raw blobs).
struct PlaceTable: Sendable {
    var geonameID: [Int32]
    var latitude: [Double]
    var longitude: [Double]
    var population: [Int32]
    /// Index into `countries`, or `noCountry`.
    var country: [UInt16]
    /// Index into `admin1s`, or -1.
    var admin1: [Int32]
    /// Place i's name is nameBytes[nameStart[i] ..< nameStart[i + 1]].
    var nameStart: [UInt32]
    var nameBytes: [UInt8]
    var countries: [CountryInfo]
    var admin1s: [Admin1Info]

    static let noCountry = UInt16.max

    var count: Int { geonameID.count }

    func name(_ i: Int) -> String {
        String(decoding: nameBytes[Int(nameStart[i])..<Int(nameStart[i + 1])], as: UTF8.self)
    }

    func countryInfo(_ i: Int) -> CountryInfo? {
        country[i] == Self.noCountry ? nil : countries[Int(country[i])]
    }

    func admin1Info(_ i: Int) -> Admin1Info? {
        admin1[i] < 0 ? nil : admin1s[Int(admin1[i])]
    }

    /// Ranking weight: log2 of the population (people expect the biggest place of a name first).
    func importance(_ i: Int) -> Float {
        Float(log2(Double(population[i]) + 100))
    }

    /// The place as the rest of Pindrop sees it.
    func place(_ i: Int) -> Place {
        let name = name(i)
        let country = countryInfo(i)
        let admin1 = admin1Info(i)?.name
        var parts = [name]
        if let admin1, admin1 != name { parts.append(admin1) }
        if let country { parts.append(country.name) }
        return Place(
            id: "geonames:\(geonameID[i])", name: name, displayName: parts.joined(separator: ", "),
            coordinate: Coordinate(latitude: latitude[i], longitude: longitude[i]),
            countryCode: country?.code, admin1: admin1, population: Int(population[i]), source: "embedded")
    }

    /// The slot of a GeoNames id (rows are sorted by id).
    func index(ofGeonameID id: Int32) -> Int? {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if geonameID[mid] < id { lo = mid + 1 } else { hi = mid }
        }
        return lo < count && geonameID[lo] == id ? lo : nil
    }

    /// Names people use for countries beyond the ISO codes and the GeoNames name.
    static let countryAliases: [String: [String]] = [
        "US": ["usa", "united states of america", "america", "u s a", "u s"],
        "GB": ["uk", "u k", "great britain", "britain", "england", "scotland", "wales", "northern ireland"],
        "NL": ["holland", "the netherlands"],
        "KR": ["south korea"], "KP": ["north korea"], "RU": ["russia"], "CZ": ["czechia"],
        "AE": ["uae"], "CD": ["drc"], "VN": ["viet nam"], "CI": ["ivory coast"], "MK": ["north macedonia"],
    ]
}
