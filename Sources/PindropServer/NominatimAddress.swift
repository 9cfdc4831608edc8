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
    /// The country's code in lower case, as Nominatim writes it (made when asked: Photon's answers do not).
    var countryCode: String? { upperCaseCountryCode?.lowercased() }
    private let upperCaseCountryCode: String?

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
            if terms.addressType == "country" { own = nil }
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
                                          ("suburb", suburb), (townKey, city), ("county", county), ("state", state),
                                          ("postcode", postcode), ("country", country)]
        // Nominatim keeps the first part under a key that comes twice (its finest).
        var seen: Set<String> = []
        parts.removeAll { key, value in value == nil || !seen.insert(key).inserted }
        return parts.map { ($0.0, $0.1!) }
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

    /// The one line of a place with its country at the end, as Nominatim's `display_name` always ends:
    /// "Mannerheimintie 5, 00100 Helsinki, Finland"; the place's own name and the country in the reader's languages.
    static func displayName(_ place: Place, languages: [String]) -> PlaceText {
        var line = place.displayText   // as the store kept it: written into the answer without a String when it ends right
        let local = languages.isEmpty ? place.name : localName(place, languages: languages)
        if local != place.name {
            let text = line.string
            line = .written(text.hasPrefix(place.name) ? local + text.dropFirst(place.name.count) : local)
        }
        guard let code = place.countryCode, place.kind != .area || place.category != "country",
              let country = place.address?.country ?? OSMTerms.countryName(code, languages: languages)
        else { return line }
        // The English name is the one just looked up unless the address or a language named another.
        let english = place.address?.country == nil && languages.isEmpty ? country : OSMTerms.countryName(code, language: nil) ?? country
        // Byte for byte: both names come from the same tables, and `hasSuffix` compared them character by character.
        let endsRight = line.withUTF8 { bytes in
            func endsWith(_ suffix: String) -> Bool {
                bytes.count >= suffix.utf8.count && bytes.reversed().starts(with: suffix.utf8.reversed())
            }
            return endsWith(country) || endsWith(english)
        }
        if endsRight, country != english, line.withUTF8({ $0.reversed().starts(with: english.utf8.reversed()) }) {
            // Ends in English where another language was asked for: the country in that language instead.
            let text = line.string
            return .written(text.dropLast(english.count) + country)
        }
        return endsRight ? line : .written(line.string + ", " + country)
    }
}
