import Foundation
import PindropCore

/// A Nominatim `/search` request, read and checked as Nominatim's `search_endpoint` reads it: the text (`q`, or the
/// structured parts joined), the limit, the filters, and what the XML answer echoes (`querystring`, `more_url`,
/// `exclude_place_ids`, `viewbox`).
struct NominatimSearch {
    /// Most results `/search` gives (Nominatim's code clamps `limit` to 1 … 50; its documentation says 40).
    static let maxResults = 50
    /// How far from a coordinate written in the text its results may lie, in degrees (Nominatim's `near_radius`).
    static let nearRadiusDegrees = 0.1

    let structured: StructuredQuery
    /// The text searched for: `q`, else the finest structured part; nil when the request has neither.
    let text: String?
    /// `q` as given, or the structured parts joined: what the XML answer calls the `querystring`.
    let querystring: String
    let limit: Int
    let kinds: KindFilter
    /// The ids to leave out, as Pindrop ids ("osm:node/456") and `place_id` numbers ("123").
    let excluded: Set<String>
    /// `exclude_place_ids` as Nominatim echoes it: "123,N456,W789".
    let excludedEcho: [String]
    var within: AreaFilter
    let viewbox: BoundingBox?
    let bounded: Bool
    let dedupe: Bool
    /// `countrycodes` as Nominatim echoes them: lower case, in the order given.
    let countryList: [String]

    init(_ query: QueryParameters, languages: [String]) throws {
        structured = StructuredQuery(query)
        let q = query.string("q")
        if q != nil, !structured.isEmpty {
            throw PindropError.invalidInput("Structured query parameters(amenity, street, city, county, state, postalcode, country) cannot be used together with 'q' parameter.")
        }
        text = q?.trimmingWhitespace(newlines: true) ?? structured.text
        querystring = q ?? structured.joined
        limit = min(max(try query.compatInteger("limit") ?? 10, 1), Self.maxResults)
        kinds = try KindFilter(query, structured: structured)
        (excluded, excludedEcho) = try Self.excludedIDs(query.string("exclude_place_ids") ?? "")
        within = try AreaFilter(city: structured.cityFilter, postcode: structured.postalcode, county: structured.county,
                                state: structured.state)
        countryList = Self.countryList(query.string("countrycodes") ?? "")
        within.countries = Set(countryList.map { $0.uppercased() }).union(try structured.countryCodes(languages))
        let box = query.string("viewbox")?.nonBlank ?? query.string("viewboxlbrt")?.nonBlank
        viewbox = try box.map(QueryParameters.boundingBox)
        bounded = query.compatFlag("bounded") ?? false
        if bounded { within.box = viewbox }
        dedupe = query.compatFlag("dedupe") ?? true
    }

    /// How many places to ask the store for: Nominatim's own margin for duplicates (`limit` + up to 10 more), and
    /// room for what the filters here may still drop.
    var pool: Int {
        let wanted = (dedupe ? limit + min(10, limit) : limit) + excluded.count
        // Houses are dropped from a text without their number: room for them too.
        let filtered = !kinds.isEmpty || text?.contains(where: \.isNumber) != true
        return min(filtered ? RequestLimits.maxResults : wanted, RequestLimits.maxResults)
    }

    /// The places of `found` the request keeps, at most `limit`: inside the filters, not excluded, within
    /// `nearRadiusDegrees` of `near` when the text held a coordinate, and without the repeats Nominatim's `dedupe`
    /// drops (the same class, display line and rank twice).
    func kept(_ found: [Place], near: Coordinate?, languages: [String], text: String) -> [Place] {
        var results: [Place] = []
        results.reserveCapacity(limit)
        var seen: Set<String> = []
        let words = Self.words(text)
        for place in found where results.count < limit {
            guard within.admits(place), kinds.isEmpty || kinds.admits(place), Self.isAsked(place, words: words) else { continue }
            // A country is no answer to a text that names a country after a comma ("Liechtenstein, LI"): the text asks for
            // a place in it.
            if text.contains(","), place.kind == .area, place.category == "country" { continue }
            // A structured search for a division names it whole ("Steg", not "Steglitz").
            if let type = structured.featureType, type != .country, !Self.isNamed(place, text) { continue }
            if !excluded.isEmpty, excluded.contains(place.id) || excluded.contains(String(OSMTerms.placeID(of: place.idText))) {
                continue
            }
            if let near, Self.planarDegrees(near, place.coordinate) > Self.nearRadiusDegrees { continue }
            if dedupe {
                let terms = OSMTerms(place)
                let key = [terms.osmType ?? "", terms.key, terms.value, String(terms.addressRank),
                           NominatimWire.displayName(place, terms, languages: languages).string].joined(separator: "\u{1F}")
                guard seen.insert(key).inserted else { continue }
            }
            results.append(place)
        }
        return results
    }

    /// Whether a house answers a text of these words: Nominatim finds a house only by its number, so "Gnetsch" is the
    /// street and "Gnetsch 29" the house.
    static func isAsked(_ place: Place, words: Set<Substring>) -> Bool {
        guard place.kind == .address, let number = place.address?.houseNumber else { return true }
        return words.contains(Substring(TextFolding.fold(number)))
    }

    /// Whether the place is called `text` (folded), by its name or any other name it has.
    static func isNamed(_ place: Place, _ text: String) -> Bool {
        let wanted = TextFolding.fold(text)
        if TextFolding.fold(place.name) == wanted { return true }
        return (place.tags ?? [:]).contains { PlaceTags.isName($0.key) && TextFolding.fold($0.value) == wanted }
    }

    /// The folded words of a text, split at anything but letters and digits.
    static func words(_ text: String) -> Set<Substring> {
        Set(TextFolding.fold(text).split { !$0.isLetter && !$0.isNumber })
    }

    static func planarDegrees(_ a: Coordinate, _ b: Coordinate) -> Double {
        let dx = a.longitude - b.longitude, dy = a.latitude - b.latitude
        return (dx * dx + dy * dy).squareRoot()
    }

    /// `exclude_place_ids=123,n456,W789`, each a `place_id` (a positive number) or an OSM object (N/W/R and a
    /// number), as Pindrop ids to leave out and as Nominatim echoes them; 0 is skipped, anything else is Nominatim's
    /// 400 "Invalid exclude ID". A postcode reference ("Pli:9490") is taken and left out as one.
    static func excludedIDs(_ text: String) throws -> (ids: Set<String>, echo: [String]) {
        func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
        var ids: Set<String> = [], echo: [String] = []
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            guard ids.count < RequestLimits.maxResults else { throw PindropError.invalidInput("Too many ids in 'exclude_place_ids'.") }
            if item.allSatisfy(isDigit), let number = Int64(item) {
                if number > 0 { ids.insert(String(number)); echo.append(String(number)) }
            } else if item.count > 1, "NWRnwr".contains(item.first!), item.dropFirst().allSatisfy(isDigit), let number = Int64(item.dropFirst()) {
                // Object 0 is no object: skipped, as Nominatim skips it.
                guard number > 0, let object = PlaceID.OSMObject(nominatim: item) else { continue }
                ids.insert(PlaceID.osm(object).description)
                echo.append("\(object.kind.letter)\(object.number)")
            } else if item.count > 4, item.first == "P", item.dropFirst(3).first == ":",
                      item.dropFirst().prefix(2).allSatisfy({ $0.isASCII && $0.isLetter }) {
                echo.append(item)
            } else {
                throw PindropError.invalidInput("Invalid exclude ID: \(item.prefix(40))")
            }
        }
        return (ids, echo)
    }

    /// `countrycodes=pl,1,,invalid,bo`: the two-letter items, lower case, in order (Nominatim drops the others).
    static func countryList(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isLetter } }.map { $0.lowercased() }
    }

    // MARK: What the XML answer echoes

    /// `viewbox` as Nominatim echoes it: each corner's number in up to 7 significant digits, west, south, east, north.
    var viewboxEcho: String? {
        viewbox.map { box in [box.west, box.south, box.east, box.north].map { Self.significant($0) }.joined(separator: ",") }
    }

    /// `exclude_place_ids` of the answer: the results' own ids (so the next page leaves them out), then those asked.
    func excludedAfter(_ results: [Place]) -> String {
        let own = results.map { place -> String in
            let terms = OSMTerms(place)
            if let type = terms.osmType, let id = terms.osmID { return "\(type.prefix(1).uppercased())\(id)" }
            return String(terms.placeID)
        }
        return (own + excludedEcho).joined(separator: ",")
    }

    /// The URL of the next page (`more_url`), as Nominatim makes it: the question, the options that shape the answer,
    /// the results so far excluded, and `format=xml`.
    func moreURL(base: String, results: [Place], output: NominatimOutput, featureType: String?) -> String {
        var parts: [(String, String)] = structured.isEmpty ? [("q", querystring)] : structured.parameters
        let flags: [(NominatimOutput.Geometries, String)] = [(.geojson, "polygon_geojson"), (.kml, "polygon_kml"),
                                                             (.svg, "polygon_svg"), (.text, "polygon_text")]
        for (geometry, name) in flags where output.geometries.contains(geometry) { parts.append((name, "1")) }
        parts.append(("addressdetails", "1"))
        if output.namedetails { parts.append(("namedetails", "1")) }
        if output.extratags { parts.append(("extratags", "1")) }
        if output.threshold > 0 { parts.append(("polygon_threshold", Self.significant(output.threshold, digits: 6))) }
        let asked = dedupe ? limit + min(10, limit) : limit
        if asked != 10 { parts.append(("limit", String(asked))) }
        if !countryList.isEmpty { parts.append(("countrycodes", countryList.joined(separator: ","))) }
        parts.append(("exclude_place_ids", excludedAfter(results)))
        if let viewboxEcho { parts.append(("viewbox", viewboxEcho)) }
        if bounded { parts.append(("bounded", "1")) }
        if !dedupe { parts.append(("dedupe", "0")) }
        if let featureType, FeatureType(rawValue: featureType) != nil { parts.append(("featureType", featureType)) }
        parts.append(("format", "xml"))
        return base + "/search?" + parts.map { "\(Self.formEncoded($0.0))=\(Self.formEncoded($0.1))" }.joined(separator: "&")
    }

    /// As Python's `urlencode` writes a value: letters, digits and `_.-~` as they are, a space as "+", the rest %XX.
    static func formEncoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "): out += "+"
            default: out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// A number as C's "%.Ng" writes it (Python's f"{x:.7g}"): `digits` significant digits, no trailing zeros.
    static func significant(_ value: Double, digits: Int = 7) -> String { String(format: "%.\(digits)g", value) }
}
