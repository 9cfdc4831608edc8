import Foundation
import PindropCore

/// A place's address as both compatible APIs name its parts: the place's own name under its kind (a venue's
/// `amenity`, a town's `village`), then house number, road, the `addr:place` a house without a street belongs to,
/// neighbourhood, suburb, the town under its kind (hamlet, village, town, city), county, state, postcode and country.
struct AddressParts {
    var own: (key: String, name: String)?
    var houseNumber, road, neighbourhood, suburb, city, county, state, postcode, country: String?
    /// The `addr:place` of a house without a street, and its key (its place type, "locality" when not known).
    var place: (key: String, name: String)?
    /// The key the town goes under: its place type (`Address.townKind`), "city" when not known.
    var townKey = "city"
    /// The ISO 3166-2 codes of the boundaries holding it (`Address.subdivisionCodes`).
    var subdivisionCodes: [SubdivisionCode] = []
    /// The country's code in lower case, as Nominatim writes it (made when asked: Photon's answers do not).
    var countryCode: String? { upperCaseCountryCode?.lowercased() }
    private var upperCaseCountryCode: String?

    private init(country: String?, countryCode: String?) {
        self.country = country
        upperCaseCountryCode = countryCode
    }

    init(_ place: Place, _ terms: OSMTerms, languages: [String]) {
        let address = place.address ?? Address()
        houseNumber = address.houseNumber
        road = address.street
        neighbourhood = address.neighbourhood
        suburb = address.suburb
        city = address.town
        townKey = address.townKind ?? "city"
        county = address.county
        state = address.state
        postcode = address.postcode
        subdivisionCodes = address.subdivisionCodes ?? []
        upperCaseCountryCode = place.countryCode
        country = place.countryCode.flatMap { OSMTerms.countryName($0, languages: languages) } ?? address.country
        if let name = address.place, name != address.town, name != address.suburb, name != address.neighbourhood {
            self.place = (address.placeKind ?? "locality", name)
        }
        let localName = NominatimWire.localName(place, languages: languages)
        switch place.kind ?? OSMTerms.inferredKind(place) {
        case .place:
            city = localName
            townKey = terms.addressType
        case .area:
            own = (terms.addressType, localName)
            if terms.addressRank == 16 { city = localName; townKey = terms.addressType; own = nil }
            if terms.addressType == "country" {
                // A country's address is the country alone.
                self = AddressParts(country: country, countryCode: upperCaseCountryCode)
                return
            }
        case .venue:
            own = (terms.addressType, localName)
        case .street:
            road = localName
        case .address, .postcode:
            break
        }
        // GeoNames' first-level division is a state or region (Uusimaa); in Liechtenstein it is the town itself.
        if state == nil, let admin1 = place.admin1, admin1 != city { state = admin1 }
    }

    /// The parts fine to coarse, keyed as Nominatim keys them; the country code is the caller's to add.
    var keyed: [(key: String, value: String)] {
        var parts: [(String, String?)] = [(own?.key ?? "", own?.name), ("house_number", houseNumber), ("road", road),
                                          (place?.key ?? "", place?.name), ("neighbourhood", neighbourhood),
                                          ("suburb", suburb), (townKey, city)] + codes(7...)
            + [("county", county)] + codes(5...6) + [("state", state)] + codes(...4) + [("postcode", postcode), ("country", country)]
        // Nominatim keeps the first part under a key that comes twice (its finest).
        var seen: Set<String> = []
        parts.removeAll { key, value in value == nil || !seen.insert(key).inserted }
        return parts.map { ($0.0, $0.1!) }
    }

    /// Place types a part of town has when Nominatim ranks it 17–21 inside a town (GeocodeJSON's `district`).
    static let districtKinds: Set<String> = ["village", "hamlet", "suburb", "quarter", "borough", "city_district", "town"]

    /// GeocodeJSON's and Photon's `district`: the suburb, else the part of town a house on a street lies in when it
    /// is of a district's rank ("Lochgass 5": Ebenholz, a village node in Vaduz).
    var district: String? { suburb ?? partOfTown { Self.districtKinds.contains($0) } }

    /// GeocodeJSON's `locality`: the neighbourhood, else a smaller part of town (a locality, a farm, a dwelling).
    var locality: String? { neighbourhood ?? partOfTown { !Self.districtKinds.contains($0) } }

    /// The part of town of a house on a street (not the `addr:place` of one without), when its kind passes.
    private func partOfTown(_ kind: (String) -> Bool) -> String? {
        guard road != nil, let place, kind(place.key) else { return nil }
        return place.name
    }

    /// The ISO 3166-2 codes of boundaries at these admin levels, keyed as Nominatim keys them ("ISO3166-2-lvl8").
    private func codes(_ levels: some RangeExpression<Int>) -> [(String, String?)] {
        subdivisionCodes.filter { levels.contains($0.adminLevel) }.map { ("ISO3166-2-lvl\($0.adminLevel)", $0.code) }
    }
}

extension NominatimWire {
    /// The place's name for the reader: the first of `languages` its tags name it in, else, for a country, the
    /// country's name in the first of them the system's CLDR data knows, else its own name.
    static func localName(_ place: Place, languages: [String]) -> String {
        guard !languages.isEmpty else { return place.name }
        let isCountry = place.kind == .area && place.category == "country"
        for language in languages {
            if let name = place.tags?["name:\(language)"] { return name }
            if isCountry, let code = place.countryCode, OSMTerms.knowsLanguage(language),
               let name = OSMTerms.countryName(code, language: language) {
                return name
            }
        }
        return place.name
    }

    /// Nominatim's `display_name`: the place's address parts from its own name to its country, each once, joined by
    /// ", " ("5, Mannerheimintie, Kluuvi, Helsinki, 00100, Finland"), named in the reader's languages; the line the
    /// store keeps where it knows no part.
    static func displayName(_ place: Place, _ terms: OSMTerms, languages: [String]) -> PlaceText {
        let parts = AddressParts(place, terms, languages: languages).keyed.filter { !$0.key.hasPrefix("ISO3166-2") }
        guard !parts.isEmpty else { return place.displayText }
        var line = ""
        for (n, part) in parts.enumerated() where n == 0 || part.value != parts[n - 1].value {
            if !line.isEmpty { line += ", " }
            line += part.value
        }
        return .written(line)
    }
}
