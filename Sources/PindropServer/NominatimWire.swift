import Foundation
import PindropCore

/// Nominatim's output formats, field for field as its own `format_json.py` writes them (json, jsonv2, geojson,
/// geocodejson): `lat`/`lon` and `boundingbox` as strings with 7 decimals, `boundingbox` as
/// [minlat, maxlat, minlon, maxlon], GeoJSON `bbox` as [minlon, minlat, maxlon, maxlat].
enum NominatimWire {
    /// The attribution sent as `licence`: the embedded index is OpenStreetMap and GeoNames data.
    static let licence = "Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright; GeoNames, CC BY 4.0"

    /// One result of the json (`classLabel` "class") or jsonv2 ("category") formats.
    static func writeResult(_ place: Place, into w: inout JSONWriter, classLabel: String, language: String?, details: Bool,
                            extratags: Bool, namedetails: Bool) {
        let terms = OSMTerms(place)
        w.beginObject()
        w.key("place_id"); w.number(Int(terms.placeID))
        w.field("licence", licence)
        writeOSMObject(terms, into: &w)
        w.key("lat"); writeDegrees(place.coordinate.latitude, into: &w)
        w.key("lon"); writeDegrees(place.coordinate.longitude, into: &w)
        writeClassification(place, terms, into: &w, classLabel: classLabel, language: language)
        if details { w.key("address"); writeAddress(place, terms, into: &w, language: language) }
        if extratags { w.key("extratags"); writeExtratags(place, into: &w) }
        if namedetails { w.key("namedetails"); writeNamedetails(place, into: &w) }
        let box = terms.box
        w.key("boundingbox"); w.beginArray()
        for value in [box.south, box.north, box.west, box.east] { writeDegrees(value, into: &w) }
        w.endArray()
        w.endObject()
    }

    /// The geojson format: a FeatureCollection of points, each with the jsonv2 fields as properties and a `bbox`.
    static func writeGeoJSON(_ places: [Place], into w: inout JSONWriter, language: String?, details: Bool,
                             extratags: Bool, namedetails: Bool) {
        w.beginObject()
        w.field("type", "FeatureCollection")
        w.field("licence", licence)
        w.key("features"); w.beginArray()
        for place in places {
            let terms = OSMTerms(place)
            w.beginObject()
            w.field("type", "Feature")
            w.key("properties"); w.beginObject()
            w.key("place_id"); w.number(Int(terms.placeID))
            writeOSMObject(terms, into: &w)
            w.key("place_rank"); w.number(terms.rank)
            writeClassification(place, terms, into: &w, classLabel: "category", language: language, rank: false)
            if details { w.key("address"); writeAddress(place, terms, into: &w, language: language) }
            if extratags { w.key("extratags"); writeExtratags(place, into: &w) }
            if namedetails { w.key("namedetails"); writeNamedetails(place, into: &w) }
            w.endObject()
            w.key("bbox"); w.beginArray()
            for value in [terms.box.west, terms.box.south, terms.box.east, terms.box.north] { w.degrees(value) }
            w.endArray()
            w.key("geometry"); writePoint(place.coordinate, into: &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// The geocodejson format (GeocodeJSON 0.1.0): the address as flat `properties.geocoding` fields.
    static func writeGeocodeJSON(_ places: [Place], into w: inout JSONWriter, query: String?, language: String?, details: Bool,
                                 distances: [Double?] = []) {
        w.beginObject()
        w.field("type", "FeatureCollection")
        w.key("geocoding"); w.beginObject()
        w.field("version", "0.1.0")
        w.field("attribution", licence)
        w.field("licence", "ODbL")
        w.field("query", query)
        w.endObject()
        w.key("features"); w.beginArray()
        for (n, place) in places.enumerated() {
            let terms = OSMTerms(place)
            w.beginObject()
            w.field("type", "Feature")
            w.key("properties"); w.beginObject(); w.key("geocoding"); w.beginObject()
            w.key("place_id"); w.number(Int(terms.placeID))
            writeOSMObject(terms, into: &w)
            w.field("osm_key", terms.key)
            w.field("osm_value", terms.value)
            w.field("type", geocodeJSONType(terms.addressRank))
            if n < distances.count, let distance = distances[n] { w.field("accuracy", Int(distance)) }
            w.key("label"); w.string(displayName(place, language: language))
            if terms.layer != "house" || place.kind != .address { w.field("name", place.name) }
            if details {
                let parts = AddressParts(place, terms, language: language)
                w.field("housenumber", parts.houseNumber)
                w.field("postcode", parts.postcode)
                w.field("street", parts.road)
                w.field("district", parts.suburb)
                w.field("city", parts.city)
                w.field("county", parts.county)
                w.field("state", parts.state)
                w.field("country", parts.country)
                w.field("country_code", parts.countryCode)
                w.key("admin"); w.beginObject()
                if let country = parts.country { w.field("level2", country) }
                if let state = parts.state { w.field("level4", state) }
                if let county = parts.county { w.field("level6", county) }
                if let city = parts.city { w.field("level8", city) }
                if let suburb = parts.suburb { w.field("level10", suburb) }
                w.endObject()
            }
            w.endObject(); w.endObject()
            w.key("geometry"); writePoint(place.coordinate, into: &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    // MARK: Parts

    /// `osm_type` and `osm_id`, for OpenStreetMap rows only.
    static func writeOSMObject(_ terms: OSMTerms, into w: inout JSONWriter) {
        guard let type = terms.osmType, let id = terms.osmID else { return }
        w.field("osm_type", type)
        w.key("osm_id"); w.number(Int(id))
    }

    /// `class`/`category`, `type`, `place_rank`, `importance`, `addresstype`, `name`, `display_name`.
    static func writeClassification(_ place: Place, _ terms: OSMTerms, into w: inout JSONWriter, classLabel: String,
                                    language: String?, rank: Bool = true) {
        w.field(named: classLabel, terms.key)
        w.field("type", terms.value)
        if rank { w.key("place_rank"); w.number(terms.rank) }
        w.key("importance"); w.number(terms.importance)
        w.field("addresstype", terms.addressType)
        w.field("name", place.kind == .address ? "" : place.name)
        w.key("display_name"); w.string(displayName(place, language: language))
    }

    /// The address, fine to coarse, keyed as Nominatim keys it (`house_number`, `road`, `suburb`, `city`, …).
    static func writeAddress(_ place: Place, _ terms: OSMTerms, into w: inout JSONWriter, language: String?) {
        let parts = AddressParts(place, terms, language: language)
        w.beginObject()
        if let own = parts.own { w.field(named: own.key, own.name) }
        w.field("house_number", parts.houseNumber)
        w.field("road", parts.road)
        w.field("suburb", parts.suburb)
        w.field("city", parts.city)
        w.field("county", parts.county)
        w.field("state", parts.state)
        w.field("postcode", parts.postcode)
        w.field("country", parts.country)
        w.field("country_code", parts.countryCode)
        w.endObject()
    }

    /// The tags Pindrop keeps beyond the name: a place's population (as OSM tags it), nothing else.
    static func writeExtratags(_ place: Place, into w: inout JSONWriter) {
        w.beginObject()
        if place.population > 0 { w.field("population", String(place.population)) }
        w.endObject()
    }

    /// The names Pindrop returns for a place: its own name (`name`).
    static func writeNamedetails(_ place: Place, into w: inout JSONWriter) {
        w.beginObject()
        w.field("name", place.name)
        w.endObject()
    }

    static func writePoint(_ c: Coordinate, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", "Point")
        w.key("coordinates"); w.beginArray(); w.degrees(c.longitude); w.degrees(c.latitude); w.endArray()
        w.endObject()
    }

    /// The one line of a place with its country at the end, as Nominatim's `display_name` always ends:
    /// "Mannerheimintie 5, 00100 Helsinki, Finland".
    static func displayName(_ place: Place, language: String?) -> PlaceText {
        let line = place.displayText   // as the store kept it: written into the answer without a String when it ends right
        guard let code = place.countryCode, let country = place.address?.country ?? OSMTerms.countryName(code, language: language)
        else { return line }
        // The English name is the one just looked up unless the address or the language named another.
        let english = place.address?.country == nil && (language == nil || language == "en") ? country
            : OSMTerms.countryName(code, language: nil) ?? country
        // Byte for byte: both names come from the same tables, and `hasSuffix` compared them character by character.
        let endsRight = line.withUTF8 { bytes in
            func endsWith(_ suffix: String) -> Bool {
                bytes.count >= suffix.utf8.count && bytes.reversed().starts(with: suffix.utf8.reversed())
            }
            return endsWith(country) || endsWith(english)
        }
        return endsRight ? line : .written(place.displayName + ", " + country)
    }

    /// GeocodeJSON's `type` of an address rank (Nominatim's `GEOCODEJSON_RANKS`).
    static func geocodeJSONType(_ rank: Int) -> String {
        switch max(3, min(28, rank)) {
        case 3: "locality"
        case 4: "country"
        case 5...9: "state"
        case 10...12: "county"
        case 13...16: "city"
        case 17...21: "district"
        case 22...24: "locality"
        case 25...27: "street"
        default: "house"
        }
    }

    /// Degrees with 7 decimals, as Nominatim writes them ("60.1694433").
    static func degrees(_ value: Double) -> String {
        // Written on the stack, then made a string of its own length (a short one needs no allocation).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maxDegreesBytes) { bytes in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[..<writeDegrees(value, to: bytes.baseAddress!)]), as: UTF8.self)
        }
    }

    /// `degrees` as a JSON string value, written in place (six go into every result).
    static func writeDegrees(_ value: Double, into w: inout JSONWriter) {
        w.plainString(room: maxDegreesBytes) { writeDegrees(value, to: $0) }
    }

    /// The most bytes `degrees` writes: a sign, 20 digits and the point.
    static let maxDegreesBytes = 22

    /// Writes `degrees` at `out`; returns how many bytes. As "%.7f" writes it, without Foundation's format parsing,
    /// digit by digit.
    private static func writeDegrees(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let scaled = Int64((abs(value) * 1e7).rounded())
        let negative = value < 0 && scaled != 0
        var whole = scaled / 10_000_000, wholeDigits = 1
        while whole >= 10 { whole /= 10; wholeDigits += 1 }
        let count = (negative ? 1 : 0) + wholeDigits + 8
        var rest = scaled
        for i in stride(from: count - 1, through: negative ? 1 : 0, by: -1) {
            if i == count - 8 { out[i] = UInt8(ascii: "."); continue }
            out[i] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        if negative { out[0] = UInt8(ascii: "-") }
        return count
    }
}

/// A place's address as both compatible APIs name its parts: the place's own name under its kind (a venue's
/// `amenity`, a town's `city`), then house number, road, suburb, city, county, state, postcode and country.
struct AddressParts {
    var own: (key: String, name: String)?
    var houseNumber, road, suburb, city, county, state, postcode, country: String?
    /// The country's code in lower case, as Nominatim writes it (made when asked: Photon's answers do not).
    var countryCode: String? { upperCaseCountryCode?.lowercased() }
    private let upperCaseCountryCode: String?

    init(_ place: Place, _ terms: OSMTerms, language: String?) {
        let address = place.address ?? Address()
        houseNumber = address.houseNumber
        road = address.street
        suburb = address.suburb
        city = address.town
        county = address.county
        state = address.state
        postcode = address.postcode
        upperCaseCountryCode = place.countryCode
        country = place.countryCode.flatMap { OSMTerms.countryName($0, language: language) } ?? address.country
        switch place.kind ?? OSMTerms.inferredKind(place) {
        case .place:
            city = place.name
        case .area:
            own = (terms.addressType, place.name)
            if terms.addressType == "city" { city = place.name; own = nil }
            if terms.addressType == "country" { own = nil }
        case .venue:
            own = (terms.key, place.name)
        case .street:
            road = place.name
        case .address:
            break
        }
        // GeoNames' first-level division is a state or region (Uusimaa); in Liechtenstein it is the town itself.
        if state == nil, let admin1 = place.admin1, admin1 != city { state = admin1 }
    }
}
