import Foundation

/// Limits shared by every front end, so the CLI and the server reject the same things.
public enum RequestLimits {
    /// Whether `text` is at most `limit` characters long. Every length limit counts characters so: as Unicode
    /// scalars (code points), which is what the OpenAPI document's `maxLength` counts (JSON Schema) and what a
    /// letter with 10,000 combining marks is 10,001 of (as one grapheme it would pass any limit). The bytes settle
    /// most texts without a count: each scalar is one to four of them.
    public static func fits(_ text: some StringProtocol, within limit: Int) -> Bool {
        let bytes = text.utf8.count
        if bytes <= limit { return true }
        if bytes > 4 * limit { return false }
        return text.unicodeScalars.count <= limit
    }

    /// Longest query text accepted, in characters (`fits`).
    public static let maxTextLength = 256
    /// Most results one request may ask for.
    public static let maxResults = 100
    /// Smallest and largest nearby radius, metres.
    public static let radiusMeters: ClosedRange<Double> = 1...50_000
    /// Default number of results.
    public static let defaultLimit = 10
    /// Most places one page of a nearby answer holds; its `next` cursor leads on. Larger than `maxResults`
    /// because "every venue within 1 km" of a city centre is thousands: a page of 1000 is ~300 KB of JSON.
    public static let maxNearbyPage = 1000
    /// Most places `pindrop nearby --limit` collects (page by page); `--all` has no cap.
    public static let maxNearbyCollected = 10_000
}

/// Forward geocoding: text to a ranked list of places.
public struct SearchRequest: Sendable, Hashable {
    public var text: String
    /// Location bias: nearer places rank higher.
    public var near: Coordinate?
    /// Keep only places in this ISO country (upper case).
    public var countryCode: String?
    public var limit: Int
    /// Ask for each result's `explanation` (only the embedded index gives one; it costs nothing when false).
    public var explain: Bool
    /// Keep only places inside these areas (structured search: `city=`, `postcode=`, `county=`, `state=`).
    public var within: AreaFilter
    /// The languages the reader asked for, best first (`LanguagePreference`): the names answers are given in.
    public var languages: [String] = []
    /// Keep only places of these layers (Nominatim's `layer`); empty keeps every layer.
    public var layers: Set<PlaceLayer> = []
    /// Keep only places of this level of the address hierarchy (Nominatim's `featureType`); nil keeps every level.
    public var featureType: FeatureType?
    /// Whether places that read the same (the segments of one street, a town and its boundary) are answered once
    /// (Nominatim's `dedupe`, on by default).
    public var dedupe = true

    /// Validates and makes a request; throws `.invalidInput` for empty or oversized text, a bad limit or a
    /// language that is not a tag.
    public init(text: String, near: Coordinate? = nil, countryCode: String? = nil,
                limit: Int = RequestLimits.defaultLimit, explain: Bool = false, within: AreaFilter = .none,
                languages: [String] = []) throws(PindropError) {
        self.text = try Self.validated(text: text)
        self.near = near
        self.countryCode = try countryCode.map { c throws(PindropError) in try Self.validated(countryCode: c) }
        self.limit = try Self.validated(limit: limit)
        self.explain = explain
        self.within = within
        self.languages = try Self.validated(languages: languages)
    }

    /// The request as echoed back in every answer's `query` object.
    public var echo: [(String, QueryValue)] {
        Self.echo(text: text, near: near, countryCode: countryCode, limit: limit, languages: languages)
            + within.parts.map { ($0.name, .text($0.value)) }
    }

    /// The echo of a text query (search and suggest share it).
    static func echo(text: String, near: Coordinate?, countryCode: String?, limit: Int, languages: [String] = []) -> [(String, QueryValue)] {
        var echo: [(String, QueryValue)] = [("text", .text(text))]
        if let near { echo += near.echo }
        if let countryCode { echo.append(("country", .text(countryCode))) }
        echo.append(("limit", .integer(limit)))
        if !languages.isEmpty { echo.append(("lang", .text(languages.joined(separator: ",")))) }
        return echo
    }

    /// `languages` when each is a language tag (`LanguagePreference.isTag`) and there are at most
    /// `LanguagePreference.maxLanguages`.
    static func validated(languages: [String]) throws(PindropError) -> [String] {
        guard languages.count <= LanguagePreference.maxLanguages else {
            throw .invalidInput("at most \(LanguagePreference.maxLanguages) languages, got \(languages.count)")
        }
        if let bad = languages.first(where: { !LanguagePreference.isTag($0) }) {
            throw .invalidInput("a language is a tag such as \"de\" or \"zh-Hans\", got \"\(bad.prefix(40))\"")
        }
        return languages
    }

    static func validated(text: String) throws(PindropError) -> String {
        let trimmed = text.trimmingWhitespace(newlines: true)
        guard !trimmed.isEmpty else { throw .invalidInput("the search text is empty") }
        guard isShortEnough(trimmed) else {
            throw .invalidInput("the search text is longer than \(RequestLimits.maxTextLength) characters")
        }
        return trimmed
    }

    /// Whether text is at most `RequestLimits.maxTextLength` characters.
    static func isShortEnough(_ text: String) -> Bool { RequestLimits.fits(text, within: RequestLimits.maxTextLength) }

    static func validated(limit: Int) throws(PindropError) -> Int {
        guard (1...RequestLimits.maxResults).contains(limit) else {
            throw .invalidInput("limit must be between 1 and \(RequestLimits.maxResults), got \(limit)")
        }
        return limit
    }

    static func validated(countryCode: String) throws(PindropError) -> String {
        let code = countryCode.trimmingWhitespace().uppercased()
        guard code.count == 2, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw .invalidInput("country must be a two-letter ISO code like \"FR\", got \"\(countryCode.prefix(20))\"")
        }
        return code
    }
}

/// Search as you type: the last word is a prefix.
public struct SuggestRequest: Sendable, Hashable {
    public var text: String
    public var near: Coordinate?
    public var countryCode: String?
    public var limit: Int
    /// Below this many characters there are no suggestions (and no error).
    public var minChars: Int
    /// Ask for each result's `explanation`, as `SearchRequest.explain`.
    public var explain: Bool
    /// Keep only places inside these areas, as `SearchRequest.within`.
    public var within: AreaFilter
    /// The languages the reader asked for, best first, as `SearchRequest.languages`.
    public var languages: [String] = []

    /// Validates and makes a request. Text shorter than `minChars` is valid and yields no suggestions.
    public init(text: String, near: Coordinate? = nil, countryCode: String? = nil,
                limit: Int = RequestLimits.defaultLimit, minChars: Int = 3, explain: Bool = false,
                within: AreaFilter = .none, languages: [String] = []) throws(PindropError) {
        guard (0...RequestLimits.maxTextLength).contains(minChars) else {
            throw .invalidInput("min-chars must be between 0 and \(RequestLimits.maxTextLength), got \(minChars)")
        }
        let trimmed = text.trimmingWhitespace(newlines: true)
        guard SearchRequest.isShortEnough(trimmed) else {
            throw .invalidInput("the search text is longer than \(RequestLimits.maxTextLength) characters")
        }
        // Keep a trailing space: "new " means the word "new" is complete.
        self.text = text.last == " " && text.count > trimmed.count ? trimmed + " " : trimmed
        self.near = near
        self.countryCode = try countryCode.map { c throws(PindropError) in try SearchRequest.validated(countryCode: c) }
        self.limit = try SearchRequest.validated(limit: limit)
        self.minChars = minChars
        self.explain = explain
        self.within = within
        self.languages = try SearchRequest.validated(languages: languages)
    }

    /// The request as echoed back in every answer's `query` object.
    public var echo: [(String, QueryValue)] {
        SearchRequest.echo(text: text, near: near, countryCode: countryCode, limit: limit, languages: languages)
    }

    /// Whether the text is too short to suggest anything.
    public var isBelowMinimum: Bool {
        // Walks at most the minimum's characters, not the whole text.
        let trimmed = text.trimmingWhitespace()
        return trimmed.index(trimmed.startIndex, offsetBy: max(minChars, 1), limitedBy: trimmed.endIndex) == nil
    }
}

/// Reverse geocoding: the nearest place to a point.
public struct ReverseRequest: Sendable, Hashable {
    public var coordinate: Coordinate
    public var limit: Int
    /// How coarse the first answer is: the building's address (the default), the street, or the suburb, town,
    /// county, state or country the point lies in.
    public var level: ReverseLevel
    /// The languages the reader asked for, best first, as `SearchRequest.languages`.
    public var languages: [String] = []
    /// Answer only places of these layers (Nominatim's `layer`); empty: addresses and points of interest, as
    /// Nominatim's reverse defaults to.
    public var layers: Set<PlaceLayer> = []

    /// Makes a request; the coordinate is already validated by its own initialiser.
    public init(coordinate: Coordinate, limit: Int = 1, level: ReverseLevel = .building,
                languages: [String] = []) throws(PindropError) {
        self.coordinate = coordinate
        self.limit = try SearchRequest.validated(limit: limit)
        self.level = level
        self.languages = try SearchRequest.validated(languages: languages)
    }

    /// The request as echoed back in every answer's `query` object (the level only when it is not the default).
    public var echo: [(String, QueryValue)] {
        coordinate.echo + (level == .building ? [] : [("level", .text(level.rawValue))])
            + (languages.isEmpty ? [] : [("lang", .text(languages.joined(separator: ",")))])
    }
}

/// The areas a search keeps its answers inside: by name (structured search), by box, by country; nil or empty parts
/// do not narrow.
public struct AreaFilter: Sendable, Hashable {
    /// The municipality ("Triesen"), the postcode ("9495"), the county or district, the state or region.
    public var city, postcode, county, state: String?
    /// Keep only places inside this box (Nominatim's `viewbox` with `bounded=1`, Photon's `bbox`).
    public var box: BoundingBox?
    /// Keep only places in one of these countries (ISO codes, upper case; Nominatim's `countrycodes`). A code the
    /// index does not know narrows to nothing; an empty set keeps every country.
    public var countries: Set<String> = []

    /// No narrowing.
    public static let none = AreaFilter(unchecked: ())
    private init(unchecked: Void) {}

    /// Validates each part as search text is validated (not blank, not over the length limit).
    public init(city: String? = nil, postcode: String? = nil, county: String? = nil, state: String? = nil) throws(PindropError) {
        func checked(_ name: String, _ value: String?) throws(PindropError) -> String? {
            guard let value else { return nil }
            do { return try SearchRequest.validated(text: value) } catch {
                throw .invalidInput("\(name) must be a name of up to \(RequestLimits.maxTextLength) characters, got \"\(value.prefix(40))\"")
            }
        }
        self.city = try checked("city", city); self.postcode = try checked("postcode", postcode)
        self.county = try checked("county", county); self.state = try checked("state", state)
    }

    /// The parts given, named as in the API.
    public var parts: [(name: String, value: String)] {
        [("city", city), ("postcode", postcode), ("county", county), ("state", state)].compactMap { name, value in value.map { (name, $0) } }
    }

    /// Whether nothing narrows.
    public var isEmpty: Bool { city == nil && postcode == nil && county == nil && state == nil && box == nil && countries.isEmpty }

    /// Whether a place passes the box and the countries (the parts a place's own fields can answer; the named
    /// areas need the index's boundaries).
    public func admits(_ place: Place) -> Bool {
        (box?.contains(place.coordinate) ?? true) && (countries.isEmpty || place.countryCode.map(countries.contains) == true)
    }
}

/// The levels `reverse` answers at, fine to coarse.
public enum ReverseLevel: String, Sendable, Hashable, CaseIterable {
    case building, street, suburb, city, county, state, country

    /// The area level this asks for; nil for building and street, which are points and lines, not areas.
    public var areaLevel: AreaLevel? {
        switch self {
        case .building, .street: nil
        case .suburb: .suburb
        case .city: .city
        case .county: .county
        case .state: .state
        case .country: .country
        }
    }

    /// A level by name ("city"), or by Nominatim's zoom (18 building, 16 street, 14 suburb, 10 city, 8 county,
    /// 5 state, 3 country; the levels between round to the coarser one).
    public init(parsing text: String) throws(PindropError) {
        if let level = ReverseLevel(rawValue: text.lowercased()) { self = level; return }
        guard let zoom = Int(text), (0...18).contains(zoom) else {
            throw .invalidInput("level must be one of \(Self.allCases.map(\.rawValue).joined(separator: ", ")) or a zoom of 0-18; got \"\(text.prefix(40))\"")
        }
        switch zoom {
        case 18...: self = .building
        case 16...17: self = .street
        case 12...15: self = .suburb
        case 10...11: self = .city
        case 8...9: self = .county
        case 5...7: self = .state
        default: self = .country
        }
    }
}

/// Places within a radius of a point in the stable nearby order: nearest first, ties by id. A page of them:
/// `limit` places after `after` (the last place of the previous page, which its `next` cursor names).
public struct NearbyRequest: Sendable, Hashable {
    public var coordinate: Coordinate
    public var radiusMeters: Double
    public var limit: Int
    /// Keep only venues of this category ("cafe"); nil keeps all.
    public var category: String?
    /// Keep only venues, places a person goes to: no towns or districts, and none of `notVenues`.
    public var venuesOnly: Bool
    /// Where this page starts: after this place of the order; nil for the first page.
    public var after: NearbyPosition?

    /// Categories of named things that are not places to go to, though OpenStreetMap files them under a venue's key:
    /// street furniture (an information board, a vending machine, a bench...).
    public static let notVenues: Set<String> = ["information", "vending_machine", "recycling", "outdoor_seating", "bench",
                                                "waste_basket", "post_box", "telephone", "drinking_water", "parking_entrance",
                                                "bicycle_parking", "clock", "fountain", "shelter"]

    /// Validates the radius (1 m ... 50 km), the limit (1 ... `RequestLimits.maxNearbyPage`) and the cursor
    /// (the `next` of an earlier page).
    public init(coordinate: Coordinate, radiusMeters: Double, limit: Int = RequestLimits.defaultLimit,
                category: String? = nil, venuesOnly: Bool = false, cursor: String? = nil) throws(PindropError) {
        guard radiusMeters.isFinite, RequestLimits.radiusMeters.contains(radiusMeters) else {
            throw .invalidInput("radius must be between 1 and 50000 metres, got \(radiusMeters)")
        }
        guard (1...RequestLimits.maxNearbyPage).contains(limit) else {
            throw .invalidInput("limit must be between 1 and \(RequestLimits.maxNearbyPage), got \(limit)")
        }
        self.coordinate = coordinate
        self.radiusMeters = radiusMeters
        self.limit = limit
        self.category = category.map { $0.trimmingWhitespace().lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
        self.venuesOnly = venuesOnly
        self.after = try cursor.map { c throws(PindropError) in try NearbyCursor.position(c) }
    }

    /// The request as echoed back in every answer's `query` object (with `cursor` after the first page).
    public var echo: [(String, QueryValue)] {
        var echo = coordinate.echo + [("radius", .number(radiusMeters)), ("limit", .integer(limit))]
        if let category { echo.append(("category", .text(category))) }
        if venuesOnly { echo.append(("kind", .text("venue"))) }
        if let after { echo.append(("cursor", .text(NearbyCursor.cursor(after: after)))) }
        return echo
    }
}

extension Coordinate {
    /// `latitude` and `longitude` as echoed in a `query` object.
    var echo: [(String, QueryValue)] { [("latitude", .number(latitude)), ("longitude", .number(longitude))] }
}
