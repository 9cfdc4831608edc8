import Foundation
import PindropCore
import Synchronization

/// A place in the terms of the OpenStreetMap geocoders (Nominatim, Photon): its OSM object, its main tag, its
/// rank in the address hierarchy, its box and its importance. Both compatible APIs read a place through this one
/// view, so they classify it alike.
struct OSMTerms {
    /// "node", "way" or "relation" for an OpenStreetMap row; nil for other sources (GeoNames, saved places).
    let osmType: String?
    let osmID: Int64?
    /// A number standing for the place's id (Nominatim's `place_id`): stable for the same id, so a client can send
    /// it back in `exclude_place_ids`. Made when asked, as `importance` and `box` are: Photon's answers use none of them.
    var placeID: Int64 { Self.placeID(of: id) }
    private let id: PlaceText, population: Int, boundingBox: BoundingBox?, coordinate: Coordinate
    /// The main tag: Nominatim's `class`/`category` and `type`, Photon's `osm_key` and `osm_value`.
    let key: String, value: String
    /// Nominatim's `addresstype`: what the place would be called as part of an address ("city", "road").
    private(set) var addressType: String
    /// Nominatim's `place_rank` (its search rank): 4 a country … 16 a city, 18 a town … 26 a street, 30 a house or a venue.
    let rank: Int
    /// Nominatim's address rank: as `rank`, but every municipality is 16, and 0 for what is no part of an address
    /// (a lake, a peak).
    private(set) var addressRank = 0
    /// Photon's `type`: house, street, locality, district, city, county, state, country or other.
    let layer: String
    /// 0 … 1, higher for bigger places (Nominatim's `importance`): its own default for a place without a Wikipedia
    /// link (`0.40001 - rank/75`), raised by population.
    var importance: Double {
        let byRank = 0.40001 - Double(rank) / 75
        return population > 0 ? max(byRank, min(1, log10(Double(population) + 1) / 8)) : byRank
    }
    /// The place's extent where it is an area, else a small box around its point, sized by its rank.
    var box: BoundingBox { boundingBox ?? Self.box(around: coordinate, rank: rank) }
    /// Whether `box` is the place's real extent (Photon sends `extent` only then).
    var hasExtent: Bool { boundingBox != nil }

    init(_ place: Place) {
        // An embedded GeoNames place's id stays unwritten: it is no OSM object, and its `placeID` hashes its bytes.
        id = place.idText
        // A town answered with its boundary is that boundary in OSM's terms.
        let object: PlaceID.OSMObject? = if let boundary = place.boundaryID { PlaceID.osmObject(of: boundary) }
            else if case .geonamesID = id { nil } else { PlaceID.osmObject(of: place.id) }
        (osmType, osmID) = (object?.kind.rawValue, object?.number)
        (population, boundingBox, coordinate) = (place.population, place.boundingBox, place.coordinate)
        let kind = place.kind ?? Self.inferredKind(place)
        // A venue's two ranks come from one lookup.
        var venueRanks: PlaceRank?
        switch kind {
        case .place where place.boundaryID != nil:
            let level = place.tags?["admin_level"].flatMap { Int($0) }
            (key, value, layer) = ("boundary", "administrative", "city")
            rank = level.map { PlaceRank.of(key: "boundary", value: "administrative", adminLevel: $0).search } ?? 16
            addressType = place.address?.townKind ?? "city"
        case .place:
            let value = place.population >= 100_000 ? "city" : place.population >= 10_000 ? "town" : "village"
            (key, self.value, addressType, layer) = ("place", value, value, "city")
            rank = value == "city" ? 16 : value == "town" ? 18 : 19
        case .area:
            let level = AreaLevel.allCases.first { "\($0)" == place.category } ?? .city
            (key, value) = level == .postcode ? ("boundary", "postal_code") : ("boundary", "administrative")
            addressType = "\(level)"
            layer = Self.layers[level] ?? "other"
            rank = Self.ranks[level] ?? 16
        case .street:
            (key, value, addressType, layer, rank) = ("highway", place.category ?? "road", "road", "street", 26)
        case .address:
            (key, value, addressType, layer, rank) = ("place", "house", "place", "house", 30)
        case .postcode:
            (key, value, addressType, layer, rank) = ("place", "postcode", "postcode", "other", PlaceRank.of(key: "place", value: "postcode").search)
        case .venue:
            let key = place.categoryKey ?? "amenity", value = place.category ?? "yes"
            (self.key, self.value, addressType, layer) = (key, value, key == "place" ? value : key, key == "place" ? "locality" : "house")
            let ranks = PlaceRank.of(key: key, value: value)
            (rank, venueRanks) = (ranks.search, ranks)
        }
        addressRank = venueRanks?.address ?? (key == "place" && (17...19).contains(rank) ? 16 : rank)
        // Nominatim names a place of the address hierarchy by its place type where the object says it ("town" for
        // a municipality's boundary that is a town).
        if rank < 26, let type = place.tags?["place"] ?? place.tags?["linked_place"] { addressType = type }
    }

    /// Whether a reverse question at `point` may be answered with this place: a town or village only within its
    /// reach, as Nominatim's `reverse_place_diameter` gives it by rank (a city 0.16°, a village 0.04°), so that a
    /// point at sea is answered by nothing rather than by a village hundreds of kilometres away.
    func reaches(_ point: Coordinate) -> Bool {
        guard key == "place", rank < 26 else { return true }
        let diameter = switch rank {
        case ...4: 5.0
        case ...8: 1.8
        case ...12: 0.6
        case ...17: 0.16
        case 18: 0.08
        case 19: 0.04
        default: 0.02
        }
        let dx = point.longitude - coordinate.longitude, dy = point.latitude - coordinate.latitude
        return (dx * dx + dy * dy).squareRoot() <= diameter
    }

    /// Photon's layer of each area level.
    static let layers: [AreaLevel: String] = [.country: "country", .state: "state", .county: "county", .city: "city",
                                              .suburb: "district", .neighbourhood: "locality", .postcode: "other"]
    /// Nominatim's search rank of each area level.
    static let ranks: [AreaLevel: Int] = [.country: 4, .state: 8, .county: 12, .city: 16, .suburb: 20, .neighbourhood: 22,
                                          .postcode: 21]

    /// What a place from a source that does not say its kind most likely is.
    static func inferredKind(_ place: Place) -> PlaceKind {
        if place.category == nil { return place.address?.houseNumber != nil && place.population == 0 ? .address : .place }
        return .venue
    }

    /// A Pindrop id of Nominatim's `osm_ids` form, `N123`, `W45`, `R6`, or nil for ids of other forms.
    static func osmIDs(_ text: Substring) -> String? {
        PlaceID.OSMObject(nominatim: text).map { PlaceID.osm($0).description }
    }

    /// FNV-1a of the id, kept to 53 bits so JavaScript clients read it exactly.
    static func placeID(of id: PlaceText) -> Int64 {
        id.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return Int64(hash & ((1 << 53) - 1))
        }
    }

    /// A box around a point, as Nominatim gives points: wider the coarser the place (a city ±0.1°, a house ±0.00005°).
    static func box(around c: Coordinate, rank: Int) -> BoundingBox {
        let d = switch rank {
        case ...4: 7.0
        case ...8: 2.6
        case ...12: 0.5
        case ...16: 0.1
        case ...19: 0.02
        case ...22: 0.01
        case ...26: 0.0005
        default: 0.00005
        }
        return BoundingBox(south: max(-90, c.latitude - d), west: max(-180, c.longitude - d),
                           north: min(90, c.latitude + d), east: min(180, c.longitude + d))
    }

    /// The name of a country in a language ("Finland", "Suomi"), from the system's CLDR data; nil for an unknown code.
    /// Remembered: asking ICU costs tens of microseconds, and every answer names a country per place.
    static func countryName(_ code: String, language: String?) -> String? {
        // English, what a request asks when it names no language, from a table made once and only read after.
        if language == nil || language == "en", let known = englishCountryNames[code] { return known }
        // Two strings for a key rather than one joined: every place of every answer asks, and joining allocated.
        let key = CountryNameKey(language: language ?? "en", code: code)
        if let known = countryNames.withLock({ $0[key] }) { return known }
        let name = Locale(identifier: language ?? "en").localizedString(forRegionCode: code).flatMap { $0 == code ? nil : $0 }
        // Languages come from clients: the table stops growing at a bound rather than grow with what they send.
        countryNames.withLock { names in if names.count < maxRememberedNames { names[key] = name } }
        return name
    }

    /// The name of a country in the first of `languages` the system's CLDR data knows, else in English.
    static func countryName(_ code: String, languages: [String]) -> String? {
        countryName(code, language: languages.first(where: knowsLanguage))
    }

    /// Whether the system's CLDR data names countries in `language` ("fo", "zh-Hans", "en-CA": by its language part).
    static func knowsLanguage(_ language: String) -> Bool {
        let base = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        return cldrLanguages.contains(base)
    }

    /// The languages of the system's locales ("fo", "zh", "de"), made on first use.
    private static let cldrLanguages: Set<String> = Set(Locale.availableIdentifiers.compactMap { identifier in
        identifier.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() }
    })

    private struct CountryNameKey: Hashable { var language: String; var code: String }
    /// Every ISO region's English name (nil where ICU has none but the code), made on first use.
    private static let englishCountryNames: [String: String?] = Dictionary(uniqueKeysWithValues: Locale.Region.isoRegions.map { region in
        let code = region.identifier
        return (code, Locale(identifier: "en").localizedString(forRegionCode: code).flatMap { $0 == code ? nil : $0 })
    })
    private static let countryNames = Mutex<[CountryNameKey: String?]>([:])
    private static let maxRememberedNames = 20_000
}

