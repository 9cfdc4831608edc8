import Foundation
import PindropCore

/// What a Nominatim request asks of the answer's shape: the format, the reader's languages and the optional parts
/// (address, extra tags, names, geometry, a JSONP callback), read as Nominatim's `server_glue.py` reads them.
struct NominatimOutput {
    /// The output formats, as `format=` names them.
    enum Format: String, CaseIterable {
        case xml, json, jsonv2, geojson, geocodejson

        /// Whether the format is one of the JSON ones (sent as `application/json`, wrapped by `json_callback`).
        var isJSON: Bool { self != .xml }
    }

    /// The geometry formats asked for (`polygon_geojson`, `polygon_kml`, `polygon_svg`, `polygon_text`).
    struct Geometries: OptionSet {
        let rawValue: Int
        static let geojson = Geometries(rawValue: 1), kml = Geometries(rawValue: 2), svg = Geometries(rawValue: 4)
        static let text = Geometries(rawValue: 8)
    }

    var format: Format
    /// The reader's languages, best first: `accept-language`, else the `Accept-Language` header (`LanguagePreference`).
    var languages: [String]
    var addressDetails, extratags, namedetails: Bool
    /// `entrances=1`: each place's entrance nodes.
    var entrances: Bool
    var geometries: Geometries
    /// `polygon_threshold`: how far, in degrees, a point may stray from a straight line and be dropped.
    var threshold: Double
    /// The JSONP function a JSON answer is wrapped in; nil for none (and always for XML, which ignores it).
    var callback: String?

    /// The format of a request (`defaultFormat` when it names none); nil for a name Nominatim does not know.
    static func format(_ query: QueryParameters, default defaultFormat: Format) -> Format? {
        guard let text = query.string("format") else { return defaultFormat }
        return Format(rawValue: text)
    }

    /// The rest of the output parameters; `.invalidInput` with Nominatim's words for a bad threshold or callback.
    init(_ query: QueryParameters, format: Format, defaultDetails: Bool) throws {
        self.format = format
        languages = query.languages("accept-language")
        addressDetails = query.compatFlag("addressdetails") ?? defaultDetails
        extratags = query.compatFlag("extratags") ?? false
        namedetails = query.compatFlag("namedetails") ?? false
        entrances = query.compatFlag("entrances") ?? false
        var geometries: Geometries = []
        if query.compatFlag("polygon_geojson") == true { geometries.insert(.geojson) }
        // geojson and geocodejson carry the shape as the feature's geometry: the text forms are not theirs.
        if format != .geojson, format != .geocodejson {
            if query.compatFlag("polygon_text") == true { geometries.insert(.text) }
            if query.compatFlag("polygon_kml") == true { geometries.insert(.kml) }
            if query.compatFlag("polygon_svg") == true { geometries.insert(.svg) }
        }
        self.geometries = geometries
        threshold = try query.compatNumber("polygon_threshold") ?? 0
        callback = format.isJSON ? try query.string("json_callback").map(Self.validatedCallback) : nil
    }

    /// A JSONP function name as Nominatim accepts one: identifiers joined by dots ("cb", "app.handlers.geo").
    static func validatedCallback(_ name: String) throws -> String {
        let valid = name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.first, first.isLetter || first == "_" else { return false }
            return part.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        }
        guard valid, name.count <= 100 else { throw PindropError.invalidInput("Invalid json_callback value") }
        return name
    }
}

/// The structured search parameters.
struct StructuredQuery {
    var amenity, street, city, county, state, postalcode, country: String?

    init(_ query: QueryParameters) {
        // Quotes around a part are no part of it ("\"Vaduz\"").
        func part(_ name: String) -> String? {
            query.string(name)?.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(["\"", "'"])).nonBlank
        }
        amenity = part("amenity"); street = part("street"); city = part("city"); county = part("county")
        state = part("state"); postalcode = part("postalcode"); country = part("country")
    }

    // Part by part: an array of the seven cost every search an allocation.
    var isEmpty: Bool {
        amenity == nil && street == nil && city == nil && county == nil && state == nil && postalcode == nil && country == nil
    }

    /// The parts given, in Nominatim's order, joined as its `querystring` shows them ("Old Palace Road, GU2 7UP").
    var joined: String { [amenity, street, city, county, state, postalcode, country].compactMap { $0 }.joined(separator: ", ") }

    /// The parts given as query parameters, for `more_url`.
    var parameters: [(String, String)] {
        [("amenity", amenity), ("street", street), ("city", city), ("county", county), ("state", state),
         ("postalcode", postalcode), ("country", country)].compactMap { name, value in value.map { (name, $0) } }
    }

    /// What is looked up by name: the finest part given (the coarser ones narrow it); an amenity in its city, so that
    /// a kind of place ("bar") reads as one there.
    var text: String? {
        if let amenity { return city.map { "\(amenity) in \($0)" } ?? amenity }
        return street ?? city ?? county ?? state ?? postalcode ?? country
    }

    /// The kind of place the finest part names when it is a division (a country, a state, a city), as Nominatim keeps a
    /// structured search for a city to settlements; nil when a street, an amenity or a postcode is asked for.
    var featureType: FeatureType? {
        guard amenity == nil, street == nil, postalcode == nil else { return nil }
        if city != nil || county != nil { return .settlement }
        if state != nil { return .state }
        return country != nil ? .country : nil
    }

    /// The city narrows only when something finer is searched for.
    var cityFilter: String? { amenity ?? street == nil ? nil : city }

    /// `country` as codes: a two-letter code, or a country's name in English or the request's languages.
    func countryCodes(_ languages: [String]) throws -> Set<String> {
        guard let country, amenity ?? street ?? city ?? county ?? state ?? postalcode != nil else { return [] }
        return try Self.countryCodes(country, languages)
    }

    /// A country's codes: a two-letter code, or a country's name in English or the `languages`.
    static func countryCodes(_ country: String, _ languages: [String]) throws -> Set<String> {
        if country.count == 2, country.allSatisfy({ $0.isASCII && $0.isLetter }) { return [country.uppercased()] }
        let wanted = TextFolding.fold(country)
        let codes = Locale.Region.isoRegions.map(\.identifier).filter { code in
            code.count == 2 && (languages + ["en"]).contains { OSMTerms.countryName(code, language: $0).map(TextFolding.fold) == wanted }
        }
        guard !codes.isEmpty else { throw PindropError.invalidInput("unknown country \"\(country.prefix(40))\"") }
        return Set(codes)
    }
}

/// Nominatim's `layer` (address, poi, railway, natural, manmade) and `featureType` (country, state, city,
/// settlement): which kinds of place a search keeps. Carried to the store on the request, and checked here on what it
/// answers, by each place's OSM class and rank.
struct KindFilter {
    var layers: Set<PlaceLayer> = []
    /// `featureType`, nil without it (or for a name Nominatim does not know, which keeps every rank).
    var featureType: FeatureType?
    /// Whether `featureType` was given at all: it narrows to the address layer even when its value is unknown.
    var hasFeatureType = false

    init(_ query: QueryParameters, structured: StructuredQuery) throws {
        layers = try PlaceLayer.layers(parsing: query.string("layer") ?? "")
        if let feature = query.string("featureType") {
            hasFeatureType = true
            featureType = FeatureType(rawValue: feature.lowercased())
            layers = [.address]
        } else if let feature = structured.featureType {
            (hasFeatureType, featureType, layers) = (true, feature, [.address])
        } else if structured.amenity != nil {
            layers = [.poi]
        }
    }

    var isEmpty: Bool { layers.isEmpty && !hasFeatureType }

    func admits(_ place: Place) -> Bool {
        let terms = OSMTerms(place)
        // Nominatim's test: each end of the range met by the address rank or the search rank.
        if let ranks = featureType?.ranks,
           !(max(terms.addressRank, terms.rank) >= ranks.lowerBound && min(terms.addressRank, terms.rank) <= ranks.upperBound) {
            return false
        }
        return layers.isEmpty || layers.contains(PlaceLayer.of(osmClass: terms.key, addressRank: terms.addressRank))
    }
}

extension QueryParameters {
    /// Nominatim's yes-or-no: "0" is no and anything else yes (as its own `get_bool`); nil when absent.
    func compatFlag(_ name: String) -> Bool? { string(name).map { $0 != "0" } }

    /// A whole number, nil when absent; 400 when not a number.
    func compatInteger(_ name: String) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) ?? Int(text.trimmingWhitespace()) else {
            throw PindropError.invalidInput("Parameter '\(name)' must be a number.")
        }
        return value
    }

    /// A finite number, nil when absent; 400 in Nominatim's words when not one.
    func compatNumber(_ name: String) throws -> Double? {
        guard let text = string(name) else { return nil }
        guard let value = DecimalNumber.parse(text.trimmingWhitespace()) else {
            throw PindropError.invalidInput("Parameter '\(name)' must be a number.")
        }
        return value
    }

    /// A finite number that must be there (Nominatim's and Photon's wording when it is not).
    func requiredNumber(_ name: String) throws -> Double {
        guard let value = try compatNumber(name) else { throw PindropError.invalidInput("Parameter '\(name)' missing.") }
        return value
    }

    /// `lat` and `lon` as a coordinate in range; 400 for a missing, malformed or out-of-range value.
    func compatCoordinate() throws -> Coordinate {
        let lat = try requiredNumber("lat"), lon = try requiredNumber("lon")
        guard (-90...90).contains(lat) else { throw PindropError.invalidInput("Invalid value for 'lat' parameter.") }
        guard (-180...180).contains(lon) else { throw PindropError.invalidInput("Invalid value for 'lon' parameter.") }
        return try Coordinate(validatingLatitude: lat, longitude: lon)
    }

    /// `viewbox=x1,y1,x2,y2` (Nominatim) or `bbox=` (Photon): longitude, latitude of two opposite corners, clamped to
    /// the globe; nil when absent.
    func viewbox(_ name: String = "viewbox") throws -> BoundingBox? {
        try string(name)?.nonBlank.map(Self.boundingBox)
    }

    /// Two opposite corners, "x1,y1,x2,y2", as a box clamped to the globe; 400 in Nominatim's words when the text is
    /// not four numbers or the box has no width or no height.
    static func boundingBox(_ text: String) throws -> BoundingBox {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 4 else { throw PindropError.invalidInput("Bounding box parameter needs 4 coordinates.") }
        let numbers = parts.compactMap { DecimalNumber.parse($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4 else { throw PindropError.invalidInput("Bounding box parameter needs to be numbers.") }
        let x1 = min(max(numbers[0], -180), 180), x2 = min(max(numbers[2], -180), 180)
        let y1 = min(max(numbers[1], -90), 90), y2 = min(max(numbers[3], -90), 90)
        guard x1 != x2, y1 != y2 else { throw PindropError.invalidInput("Bounding box with invalid parameters.") }
        return BoundingBox(south: min(y1, y2), west: min(x1, x2), north: max(y1, y2), east: max(x1, x2))
    }

    /// `countrycode=FI&countrycode=LI` (Photon, repeated) as upper-case codes; an item that is not two letters is
    /// dropped.
    func countryCodes(_ name: String) -> Set<String> {
        Set(strings(name).flatMap { NominatimSearch.countryList($0) }.map { $0.uppercased() })
    }
}
