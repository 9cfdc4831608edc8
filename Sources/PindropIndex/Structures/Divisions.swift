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

/// The countries and first-level divisions an index knows, with the forms a qualifier may name them by.
enum Divisions {
    /// Countries and admin1 divisions in a fixed order (by code), with their qualifier forms.
    static func make(countries: [GeoNamesCountry], admin1Names: [String: String]) -> ([CountryInfo], [Admin1Info]) {
        let countryInfos = countries.sorted { $0.code < $1.code }.map { c in
            let forms = [c.code.lowercased(), c.iso3.lowercased(), TextFolding.fold(c.name)]
                + (Self.countryAliases[c.code] ?? [])
            return CountryInfo(code: c.code, iso3: c.iso3, name: c.name, qualifierForms: forms.filter { !$0.isEmpty })
        }
        let admin1Infos = admin1Names.keys.sorted().compactMap { key -> Admin1Info? in
            let parts = key.split(separator: ".", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let name = admin1Names[key] ?? ""
            let forms = [parts[1].lowercased(), TextFolding.fold(name)].filter { !$0.isEmpty }
            return Admin1Info(countryCode: String(parts[0]), code: String(parts[1]), name: name, qualifierForms: forms)
        }
        return (countryInfos, admin1Infos)
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
