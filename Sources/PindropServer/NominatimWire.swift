import Foundation
import PindropCore

/// Nominatim's output formats, field for field as its own `format_json.py` writes them (json, jsonv2, geojson,
/// geocodejson): `lat`/`lon` and `boundingbox` as strings with 7 decimals, `boundingbox` as
/// [minlat, maxlat, minlon, maxlon], GeoJSON `bbox` as [minlon, minlat, maxlon, maxlat].
enum NominatimWire {
    /// The attribution sent as `licence`: the embedded index is OpenStreetMap and GeoNames data.
    static let licence = "Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright; GeoNames, CC BY 4.0"

    /// One result of the json (`classLabel` "class") or jsonv2 ("category") formats, with its `geometry` in the forms
    /// asked for.
    static func writeResult(_ place: Place, into w: inout JSONWriter, classLabel: String, output: NominatimOutput,
                            geometry: PlaceGeometry? = nil) {
        let terms = OSMTerms(place)
        w.beginObject()
        w.key("place_id"); w.number(Int(terms.placeID))
        w.field("licence", licence)
        writeOSMObject(terms, into: &w)
        w.key("lat"); writeDegrees(place.coordinate.latitude, into: &w)
        w.key("lon"); writeDegrees(place.coordinate.longitude, into: &w)
        writeClassification(place, terms, into: &w, classLabel: classLabel, languages: output.languages)
        writeDetails(place, terms, into: &w, output: output)
        let box = terms.box
        w.key("boundingbox"); w.beginArray()
        for value in [box.south, box.north, box.west, box.east] { writeDegrees(value, into: &w) }
        w.endArray()
        if let geometry {
            if output.geometries.contains(.text) { w.field("geotext", GeometryText.wkt(geometry)) }
            if output.geometries.contains(.kml) { w.field("geokml", GeometryText.kml(geometry)) }
            if output.geometries.contains(.geojson) { w.key("geojson"); writeGeometry(geometry, into: &w) }
            if output.geometries.contains(.svg) { w.field("svg", GeometryText.svg(geometry)) }
        }
        w.endObject()
    }

    /// The geojson format: a FeatureCollection, each feature with the jsonv2 fields as properties, a `bbox`, and as
    /// geometry the place's shape where `polygon_geojson` asked for it, else its point.
    static func writeGeoJSON(_ places: [Place], into w: inout JSONWriter, output: NominatimOutput, geometries: [PlaceGeometry] = []) {
        w.beginObject()
        w.field("type", "FeatureCollection")
        w.field("licence", licence)
        w.key("features"); w.beginArray()
        for (n, place) in places.enumerated() {
            let terms = OSMTerms(place)
            w.beginObject()
            w.field("type", "Feature")
            w.key("properties"); w.beginObject()
            w.key("place_id"); w.number(Int(terms.placeID))
            writeOSMObject(terms, into: &w)
            w.key("place_rank"); w.number(terms.rank)
            writeClassification(place, terms, into: &w, classLabel: "category", languages: output.languages, rank: false)
            writeDetails(place, terms, into: &w, output: output)
            w.endObject()
            w.key("bbox"); w.beginArray()
            for value in [terms.box.west, terms.box.south, terms.box.east, terms.box.north] { w.degrees(value) }
            w.endArray()
            w.key("geometry"); writeGeometry(n < geometries.count ? geometries[n] : .point(place.coordinate), into: &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// The geocodejson format (GeocodeJSON 0.1.0): the address as flat `properties.geocoding` fields.
    static func writeGeocodeJSON(_ places: [Place], into w: inout JSONWriter, query: String?, output: NominatimOutput,
                                 distances: [Double?] = [], geometries: [PlaceGeometry] = []) {
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
            w.key("label"); w.string(displayName(place, terms, languages: output.languages))
            if terms.layer != "house" || place.kind != .address { w.field("name", localName(place, languages: output.languages)) }
            if output.addressDetails { writeGeocodeJSONAddress(AddressParts(place, terms, languages: output.languages), into: &w) }
            if output.extratags { w.key("extra"); writeTags(extraTags(place), into: &w) }
            w.endObject(); w.endObject()
            w.key("geometry"); writeGeometry(n < geometries.count ? geometries[n] : .point(place.coordinate), into: &w)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// GeocodeJSON's address fields and its `admin` levels.
    private static func writeGeocodeJSONAddress(_ parts: AddressParts, into w: inout JSONWriter) {
        w.field("housenumber", parts.houseNumber)
        w.field("postcode", parts.postcode)
        w.field("street", parts.road ?? parts.place?.name)
        w.field("locality", parts.locality)
        w.field("district", parts.district)
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

    // MARK: Parts

    /// `osm_type` and `osm_id`, for OpenStreetMap rows only.
    static func writeOSMObject(_ terms: OSMTerms, into w: inout JSONWriter) {
        guard let type = terms.osmType, let id = terms.osmID else { return }
        w.field("osm_type", type)
        w.key("osm_id"); w.number(Int(id))
    }

    /// `class`/`category`, `type`, `place_rank`, `importance`, `addresstype`, `name`, `display_name`.
    static func writeClassification(_ place: Place, _ terms: OSMTerms, into w: inout JSONWriter, classLabel: String,
                                    languages: [String], rank: Bool = true) {
        w.field(named: classLabel, terms.key)
        w.field("type", terms.value)
        if rank { w.key("place_rank"); w.number(terms.rank) }
        w.key("importance"); w.number(terms.importance)
        w.field("addresstype", terms.addressType)
        w.field("name", place.kind == .address ? "" : localName(place, languages: languages))
        w.key("display_name"); w.string(displayName(place, terms, languages: languages))
    }

    /// The optional parts asked for: `address`, `extratags`, `namedetails`.
    static func writeDetails(_ place: Place, _ terms: OSMTerms, into w: inout JSONWriter, output: NominatimOutput) {
        if output.addressDetails {
            let parts = AddressParts(place, terms, languages: output.languages)
            w.key("address"); w.beginObject()
            for (key, value) in parts.keyed { w.field(named: key, value) }
            w.field("country_code", parts.countryCode)
            w.endObject()
        }
        if output.extratags { w.key("extratags"); writeTags(extraTags(place), into: &w) }
        if output.namedetails { w.key("namedetails"); writeTags(nameDetails(place), into: &w) }
        if output.entrances, let entrances = place.entrances, !entrances.isEmpty { writeEntrances(entrances, into: &w) }
    }

    /// `entrances`, as Nominatim writes them: each node's id, its `entrance` value as `type`, its point as text, and its
    /// other tags as `extratags` when it has any.
    static func writeEntrances(_ entrances: [PlaceEntrance], into w: inout JSONWriter) {
        w.key("entrances")
        w.beginArray()
        for e in entrances {
            w.beginObject()
            w.key("osm_id"); w.number(Int(e.nodeID))
            w.field("type", e.kind)
            w.key("lat"); writeDegrees(e.coordinate.latitude, into: &w)
            w.key("lon"); writeDegrees(e.coordinate.longitude, into: &w)
            if let tags = e.tags, !tags.isEmpty { w.key("extratags"); writeTags(tags.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }, into: &w) }
            w.endObject()
        }
        w.endArray()
    }

    /// The tags a place keeps beyond its names (`Place.tags`), by key, with its population where a source gives one
    /// and the tags do not.
    static func extraTags(_ place: Place) -> [(key: String, value: String)] {
        var tags = (place.tags ?? [:]).filter { !PlaceTags.isName($0.key) }.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if place.population > 0, !tags.contains(where: { $0.0 == "population" }) { tags.append(("population", String(place.population))) }
        return tags
    }

    /// Every name of a place: `name` first, then its other names by key ("name:de", "alt_name", "ref").
    static func nameDetails(_ place: Place) -> [(key: String, value: String)] {
        [("name", place.name)] + (place.tags ?? [:]).filter { $0.key != "name" && PlaceTags.isName($0.key) }.sorted { $0.key < $1.key }
            .map { ($0.key, $0.value) }
    }

    static func writeTags(_ tags: [(key: String, value: String)], into w: inout JSONWriter) {
        w.beginObject()
        for (key, value) in tags { w.key(named: key); w.string(value) }
        w.endObject()
    }

    static func writePoint(_ c: Coordinate, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", "Point")
        w.key("coordinates"); w.beginArray(); w.degrees(c.longitude); w.degrees(c.latitude); w.endArray()
        w.endObject()
    }

    /// A shape as a GeoJSON geometry object (a point written in place: every feature of every answer has one).
    static func writeGeometry(_ geometry: PlaceGeometry, into w: inout JSONWriter) {
        if case .point(let c) = geometry { return writePoint(c, into: &w) }
        w.raw(Array(GeometryText.geoJSON(geometry).utf8))
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
