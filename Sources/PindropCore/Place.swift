/// A structured postal address; absent parts are nil.
public struct Address: Sendable, Hashable, Codable {
    /// The parts as people write them: "5", "Mannerheimintie", "00100", "Helsinki". The town is the
    /// municipality (city, town or village) the address belongs to.
    public var houseNumber, street, postcode, town: String?
    /// The areas that hold the address, from OSM boundaries where the index has them: the part of town
    /// ("Kamppi"), the county or district ("Oberland"), the state or region, and the country.
    public var suburb, county, state, country: String?

    /// Makes an address from its parts.
    public init(houseNumber: String? = nil, street: String? = nil, postcode: String? = nil, town: String? = nil,
                suburb: String? = nil, county: String? = nil, state: String? = nil, country: String? = nil) {
        self.houseNumber = houseNumber; self.street = street; self.postcode = postcode; self.town = town
        self.suburb = suburb; self.county = county; self.state = state; self.country = country
    }

    /// Whether no part is known.
    public var isEmpty: Bool {
        houseNumber == nil && street == nil && postcode == nil && town == nil && suburb == nil && county == nil
            && state == nil && country == nil
    }

    /// The one line Pindrop shows for an address, street part first, then postcode and town, with the house
    /// number where the country writes it: "Simonkatu 7, 00100 Helsinki", "Städtle 35, 9490 Vaduz", but
    /// "1600 Amphitheatre Parkway, 94043 Mountain View" in the US (`numberFirstCountries`). Absent parts are left out.
    public func formatted(countryCode: String?) -> String {
        let numberFirst = countryCode.map(Self.numberFirstCountries.contains) ?? false
        let streetLine = (numberFirst ? [houseNumber, street] : [street, houseNumber]).compactMap { $0 }.joined(separator: " ")
        let townLine = [postcode, town].compactMap { $0 }.joined(separator: " ")
        return [streetLine, townLine].filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// Countries that write the house number before the street ("10 Downing Street"); everywhere else it follows
    /// the street, as in Finland, Liechtenstein, Germany or Switzerland ("Simonkatu 7", "Städtle 35").
    public static let numberFirstCountries: Set<String> = ["US", "CA", "GB", "IE", "FR", "LU", "MC", "AU", "NZ", "IN",
                                                           "ZA", "SG", "MY", "PH", "IL", "TH", "LK", "PK", "NG", "KE"]
}

/// What kind of thing a place is: a settlement (a GeoNames populated place), or an OpenStreetMap venue, address
/// point, street or area (a boundary: a town's, a district's, a postcode's).
public enum PlaceKind: String, Sendable, Hashable, Codable { case place, venue, address, street, area }

/// A place any store or provider can return.
public struct Place: Sendable, Hashable, Codable, Identifiable {
    /// Globally unique, prefixed by its source: "geonames:2988507", "osm:node/123".
    public var id: String
    /// The place's own name ("Zürich").
    public var name: String
    /// The name with its context, as shown in lists ("Zürich, Zurich, Switzerland").
    public var displayName: String
    public var coordinate: Coordinate
    /// ISO 3166-1 alpha-2, upper case; nil when unknown.
    public var countryCode: String?
    /// First-level administrative division's name (state, region); nil when unknown.
    public var admin1: String?
    /// Inhabitants, 0 when unknown.
    public var population: Int
    /// Venue category ("cafe", "museum"), a street's kind ("residential"), an area's level ("county"); nil for
    /// plain towns.
    public var category: String?
    /// The OpenStreetMap key the category is the value of ("amenity" for a cafe, "tourism" for a museum), where
    /// the source says; nil otherwise.
    public var categoryKey: String?
    /// What kind of place this is, where the source says; nil when it does not.
    public var kind: PlaceKind?
    /// Street-level address where known.
    public var address: Address?
    /// Which store or provider answered ("embedded", "nominatim", ...); nil when not recorded.
    public var source: String?
    /// The extent of a place that is an area (a town's or a district's boundary), to fit a map to; nil for points.
    public var boundingBox: BoundingBox?
}

// The public initializers live in extensions and hand over to the synthesized memberwise ones (whose labels, in the
// stored order, differ): an initializer that assigns property by property built the value aside and then copied
// it, and every result is made this way.
extension Place {
    /// Makes a place from its parts.
    public init(id: String, name: String, displayName: String, coordinate: Coordinate, countryCode: String? = nil,
                admin1: String? = nil, population: Int = 0, category: String? = nil, address: Address? = nil,
                source: String? = nil, boundingBox: BoundingBox? = nil, kind: PlaceKind? = nil, categoryKey: String? = nil) {
        self.init(id: id, name: name, displayName: displayName, coordinate: coordinate, countryCode: countryCode, admin1: admin1,
                  population: population, category: category, categoryKey: categoryKey, kind: kind, address: address,
                  source: source, boundingBox: boundingBox)
    }
}

/// A place as the answer to a query, with its distance from the query's point when there was one.
public struct PlaceResult: Sendable, Hashable, Codable {
    public var place: Place
    /// Great-circle metres from the request's point (reverse, nearby, or a `near` bias).
    public var distanceMeters: Double?
    /// The alternate name the text matched, as written ("Helsingfors" for Helsinki), when it was not the
    /// place's own name; nil otherwise (and from stores that do not say).
    public var matchedName: String?
    /// Why it ranked where it did, when the request asked (`explain`) and the store can say; nil otherwise.
    public var explanation: MatchExplanation?
    /// The text the user probably meant ("Helsinki" for "Helsinky"), set by a store on the first result of a search
    /// or suggestion when the text matched nothing as typed or matched weakly. The facade moves it to
    /// `ProviderAnswer.didYouMean`, so it is nil on every result a caller of `PlaceService` sees.
    public var didYouMean: String?

    /// How the result reads in a list: "Helsingfors → Helsinki, Uusimaa, Finland" when an alternate name matched.
    public var label: String { matchedName.map { "\($0) → \(place.displayName)" } ?? place.displayName }
}

extension PlaceResult {
    /// Makes a result.
    public init(place: Place, distanceMeters: Double? = nil, matchedName: String? = nil, explanation: MatchExplanation? = nil) {
        self.init(place: place, distanceMeters: distanceMeters, matchedName: matchedName, explanation: explanation, didYouMean: nil)
    }
}
