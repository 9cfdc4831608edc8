import PindropCore

/// An object's address as Nominatim reads its `addr:*` tags: the house number (a list, "1;3", as tagged:
/// `Address.houseNumbers` reads it), the street or the place a house without one belongs to (`addr:place`), the
/// postcode, the town, the parts of town and the country's code.
enum OSMAddressTags {
    /// The keys read.
    static let keys: Set<String> = ["addr:housenumber", "addr:street", "addr:place", "addr:postcode", "postal_code", "postcode",
                                    "addr:city", "addr:suburb", "addr:neighbourhood", "addr:quarter", "addr:county", "addr:state",
                                    "addr:province", "addr:country", "addr:country_code", "addr:interpolation"]

    /// Every address part tagged, the house number as tagged (trimmed); nil when none is.
    static func address(_ tags: OSMTags) -> Address? {
        let address = Address(houseNumber: tags["addr:housenumber"]?.trimmingWhitespace(), street: tags["addr:street"],
                              postcode: tags["addr:postcode"] ?? tags["postal_code"] ?? tags["postcode"], town: tags["addr:city"],
                              suburb: tags["addr:suburb"], county: tags["addr:county"], state: tags["addr:state"] ?? tags["addr:province"],
                              neighbourhood: tags["addr:neighbourhood"] ?? tags["addr:quarter"], place: tags["addr:place"])
        return address.isEmpty ? nil : address
    }

    /// The country's two-letter code (`addr:country`), upper case; nil when missing or not two letters.
    static func countryCode(_ tags: OSMTags) -> String? {
        guard let code = tags["addr:country"] ?? tags["addr:country_code"], code.count == 2 else { return nil }
        return code.uppercased()
    }

    /// Whether an address is complete enough to be found: a house number with a street or a place.
    static func isComplete(_ address: Address) -> Bool {
        !address.houseNumbers.isEmpty && (address.street != nil || address.place != nil)
    }

    /// The scheme of an `addr:interpolation` value, or nil for one Nominatim does not read.
    static func interpolationScheme(_ value: String) -> OSMInterpolation.Scheme? {
        switch value {
        case "odd": .odd
        case "even": .even
        case "all": .all
        case "alphabetic": .alphabetic
        default: value.count == 1 ? Int(value).flatMap { $0 >= 1 ? .step($0) : nil } : nil
        }
    }
}
