/// A structured postal address; absent parts are nil.
public struct Address: Sendable, Hashable, Codable {
    /// The parts as people write them: "5", "Mannerheimintie", "00100", "Helsinki". The town is the
    /// municipality (city, town or village) the address belongs to.
    public var houseNumber, street, postcode, town: String?
    /// The areas that hold the address, from OSM boundaries where the index has them: the part of town
    /// ("Kamppi"), the county or district ("Oberland"), the state or region, and the country.
    public var suburb, county, state, country: String?
    /// A neighbourhood or quarter finer than the suburb, where OSM has one.
    public var neighbourhood: String?
    /// A named place a house belongs to where it has no street (OSM's `addr:place`: a hamlet, a farm, a square).
    public var place: String?
    /// What `place` names in OSM's place terms ("village", "hamlet", "isolated_dwelling", "square"…), where a place of
    /// that name holds the house; nil when not known (Nominatim then calls it a "locality").
    public var placeKind: String?
    /// What the town is in OSM's place terms: "city", "town", "village" or "hamlet" (Nominatim's address key for it);
    /// nil when not known.
    public var townKind: String?
    /// The ISO 3166-2 codes of the boundaries that hold the address, coarse to fine ("LI-10" for Triesenberg); nil when
    /// none has one.
    public var subdivisionCodes: [SubdivisionCode]?

    /// Makes an address from its parts.
    public init(houseNumber: String? = nil, street: String? = nil, postcode: String? = nil, town: String? = nil,
                suburb: String? = nil, county: String? = nil, state: String? = nil, country: String? = nil,
                neighbourhood: String? = nil, place: String? = nil, townKind: String? = nil, placeKind: String? = nil) {
        self.houseNumber = houseNumber; self.street = street; self.postcode = postcode; self.town = town
        self.suburb = suburb; self.county = county; self.state = state; self.country = country
        self.neighbourhood = neighbourhood; self.place = place; self.townKind = townKind; self.placeKind = placeKind
    }

    /// Whether no part is known.
    public var isEmpty: Bool {
        houseNumber == nil && street == nil && postcode == nil && town == nil && suburb == nil && county == nil
            && state == nil && country == nil && neighbourhood == nil && place == nil
    }
}

/// A country subdivision's ISO 3166-2 code ("LI-10") and the `admin_level` of the boundary that carries it.
public struct SubdivisionCode: Sendable, Hashable, Codable {
    public var adminLevel: Int
    public var code: String

    /// Makes a code.
    public init(adminLevel: Int, code: String) { self.adminLevel = adminLevel; self.code = code }
}

/// What kind of thing a place is: a settlement (a GeoNames populated place), an OpenStreetMap venue or other named
/// feature, address point, street or area (a boundary: a town's, a district's, a postcode's), or a postcode.
public enum PlaceKind: String, Sendable, Hashable, Codable { case place, venue, address, street, area, postcode }

/// A place any store or provider can return.
public struct Place: Sendable, Hashable, Codable, Identifiable {
    /// Globally unique, prefixed by its source: "geonames:2988507", "osm:node/123".
    public var id: String {
        get { idText.string }
        set { idText = .written(newValue) }
    }
    /// `id` as the store handed it over (see `PlaceText`).
    public private(set) var idText: PlaceText
    /// The place's own name ("Zürich").
    public var name: String
    /// The name with its context, as shown in lists ("Zürich, Zurich, Switzerland").
    public var displayName: String {
        get { displayText.string }
        set { displayText = .written(newValue) }
    }
    /// `displayName` as the store handed it over (see `PlaceText`).
    public private(set) var displayText: PlaceText
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
    /// The OpenStreetMap tags answers show beyond the name and address, where the source keeps them: every name the
    /// object has ("name:de", "alt_name", "old_name", "official_name", "short_name", "int_name", "loc_name", "ref"; see
    /// `PlaceTags.isName`) and Nominatim's extra tags ("wikidata", "website", "phone", "opening_hours", "population",
    /// "capital"…); nil when none.
    public var tags: [String: String]?
    /// The OpenStreetMap boundary answered as this same place ("osm:relation/1155956" for GeoNames' Vaduz): a town and
    /// its municipal boundary are one place, as Nominatim links a boundary to its place node; nil when none is known.
    public var boundaryID: String?
    /// The entrances OpenStreetMap marks on the building or the place's outline (`entrance=*` nodes), in id order;
    /// nil when none is known.
    public var entrances: [PlaceEntrance]?

    /// The keys of the encoded form: `id` and `displayName` as text, whatever form the store gave them in.
    enum CodingKeys: String, CodingKey {
        case idText = "id", name, displayText = "displayName", coordinate, countryCode, admin1, population, category,
             categoryKey, kind, address, source, boundingBox, tags, boundaryID, entrances
    }
}

// The public initializers live in extensions and hand over to the synthesized memberwise one (whose labels, in the
// stored order, differ): an initializer that assigns property by property built the value aside and then copied
// it, and every result is made this way.
extension Place {
    /// Makes a place from its parts.
    public init(id: String, name: String, displayName: String, coordinate: Coordinate, countryCode: String? = nil,
                admin1: String? = nil, population: Int = 0, category: String? = nil, address: Address? = nil,
                source: String? = nil, boundingBox: BoundingBox? = nil, kind: PlaceKind? = nil, categoryKey: String? = nil) {
        self.init(idText: .written(id), name: name, displayText: .written(displayName), coordinate: coordinate,
                  countryCode: countryCode, admin1: admin1, population: population, category: category,
                  categoryKey: categoryKey, kind: kind, address: address, source: source, boundingBox: boundingBox, tags: nil, boundaryID: nil,
                  entrances: nil)
    }

    /// Makes a place whose id and list line are kept as their parts until they are read (`PlaceText`).
    public init(id: PlaceText, name: String, displayName: PlaceText, coordinate: Coordinate, countryCode: String? = nil,
                admin1: String? = nil, population: Int = 0, category: String? = nil, source: String? = nil,
                kind: PlaceKind? = nil) {
        self.init(idText: id, name: name, displayText: displayName, coordinate: coordinate, countryCode: countryCode,
                  admin1: admin1, population: population, category: category, categoryKey: nil, kind: kind,
                  address: nil, source: source, boundingBox: nil, tags: nil, boundaryID: nil, entrances: nil)
    }
}

/// A way into a building or a place: an OpenStreetMap `entrance=*` node on its outline.
public struct PlaceEntrance: Sendable, Hashable, Codable {
    /// The node's OSM id.
    public var nodeID: Int64
    /// The `entrance` value: "main", "yes", "service", "emergency"…
    public var kind: String
    /// Where it is.
    public var coordinate: Coordinate
    /// Its other tags Nominatim returns ("ref", "wheelchair", "access", "door", "level"…); nil when none.
    public var tags: [String: String]?

    /// Makes an entrance.
    public init(nodeID: Int64, kind: String, coordinate: Coordinate, tags: [String: String]? = nil) {
        self.nodeID = nodeID; self.kind = kind; self.coordinate = coordinate; self.tags = tags
    }
}

/// A place's id or list line as a store hands it over: written out, or as the parts it is made of. The embedded
/// index makes both for every answer, and writing them out cost two allocations a place (a third of a suggestion's
/// work); the JSON writer writes the parts straight into the answer, and `string` writes them out for anyone who
/// reads them. Equal, and hashed, by that text.
public enum PlaceText: Sendable, Hashable, Codable {
    /// The text itself.
    case written(String)
    /// "geonames:<id>".
    case geonamesID(Int32)
    /// The parts that are there, joined by ", " ("Zürich", "Zurich", "Switzerland").
    case joined(String, String?, String?)

    /// The text.
    public var string: String {
        switch self {
        case .written(let text): text
        case .geonamesID:
            // Into a string of its own length: asked for with room to spare, a string of 15 bytes or fewer would be a
            // heap string instead of a small one.
            withUTF8 { bytes in
                String(unsafeUninitializedCapacity: bytes.count) {
                    $0.baseAddress!.initialize(from: bytes.baseAddress!, count: bytes.count)
                    return bytes.count
                }
            }
        case .joined(let first, let second, let third): Self.joined(first, second, third)
        }
    }

    /// Hands the text's UTF-8 to `body`, written on the stack when it is kept as parts (no `String` made).
    public func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch self {
        case .written(let text): return try text.withUTF8Bytes(body)
        case .geonamesID(let id):
            return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.geonamesIDRoom) { scratch in
                try body(UnsafeBufferPointer(rebasing: scratch[..<Self.writeGeonamesID(id, to: scratch.baseAddress!)]))
            }
        case .joined(let first, let second, let third):
            return try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.joinedCount(first, second, third)) { scratch in
                try body(UnsafeBufferPointer(rebasing: scratch[..<Self.writeJoined(first, second, third, to: scratch.baseAddress!)]))
            }
        }
    }

    /// The most bytes "geonames:<id>" takes.
    static let geonamesIDRoom = 9 + 11

    /// Writes "geonames:<id>" at `out` (`geonamesIDRoom` bytes at most); returns how many bytes. Digit by digit:
    /// interpolation went through the generic formatting.
    static func writeGeonamesID(_ id: Int32, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let prefix: StaticString = "geonames:"
        out.initialize(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        var n = prefix.utf8CodeUnitCount
        if id < 0 { out[n] = 0x2D; n += 1 }
        var digits = 1, rest = id.magnitude
        while rest >= 10 { rest /= 10; digits += 1 }
        rest = id.magnitude
        for d in stride(from: n + digits - 1, through: n, by: -1) { out[d] = 0x30 + UInt8(rest % 10); rest /= 10 }
        return n + digits
    }

    /// The parts that are there, joined by ", ", in one allocation.
    static func joined(_ first: String, _ second: String?, _ third: String?) -> String {
        String(unsafeUninitializedCapacity: joinedCount(first, second, third)) { writeJoined(first, second, third, to: $0.baseAddress!) }
    }

    /// How many bytes the parts that are there take joined by ", ".
    static func joinedCount(_ first: String, _ second: String?, _ third: String?) -> Int {
        first.utf8.count + (second.map { $0.utf8.count + 2 } ?? 0) + (third.map { $0.utf8.count + 2 } ?? 0)
    }

    /// Writes the parts that are there, joined by ", ", at `out` (`joinedCount` bytes); returns how many.
    static func writeJoined(_ first: String, _ second: String?, _ third: String?, to out: UnsafeMutablePointer<UInt8>) -> Int {
        writeJoined(first, second, third, to: out) { part, at in
            part.withUTF8Bytes { bytes in
                if let from = bytes.baseAddress { at.initialize(from: from, count: bytes.count) }
                return bytes.count
            }
        }
    }

    /// Writes the parts that are there at `out`, each by `write` (which returns how many bytes it wrote), with ", "
    /// between them; returns how many bytes in all. The JSON writer passes one that escapes.
    @inline(__always)
    static func writeJoined(_ first: String, _ second: String?, _ third: String?, to out: UnsafeMutablePointer<UInt8>,
                            each write: (String, UnsafeMutablePointer<UInt8>) -> Int) -> Int {
        var n = write(first, out)
        func then(_ part: String?) {
            guard let part else { return }
            out[n] = 0x2C; out[n + 1] = 0x20
            n += 2 + write(part, out + n + 2)
        }
        then(second); then(third)
        return n
    }

    public static func == (a: PlaceText, b: PlaceText) -> Bool {
        switch (a, b) {
        case (.written(let x), .written(let y)): x == y
        case (.geonamesID(let x), .geonamesID(let y)): x == y
        default: a.string == b.string
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(string) }

    /// Read as the text it is.
    public init(from decoder: any Decoder) throws { self = .written(try decoder.singleValueContainer().decode(String.self)) }

    /// Written as the text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
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
