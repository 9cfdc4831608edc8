import Foundation
import PindropCore

/// Nominatim's XML format, element for element as its own `format_xml.py` writes it: `<searchresults>` of `<place>`
/// elements for search and lookup, `<reversegeocode>` with one `<result>` for reverse, the address parts, extra tags
/// and names as child elements, and the errors as `<error><code>…</code><message>…</message></error>`.
enum NominatimXML {
    /// `<searchresults>`: each place an element whose attributes say what it is and whose children its address.
    /// `attributes` are the root's own after its timestamp and attribution (`querystring`, `more_url`, …).
    static func searchResults(_ places: [Place], geometries: [PlaceGeometry], output: NominatimOutput,
                              attributes: [(String, String)]) -> String {
        var xml = root("searchresults", attributes: attributes) + ">"
        for (n, place) in places.enumerated() {
            let terms = OSMTerms(place)
            let geometry = n < geometries.count ? geometries[n] : nil
            let display = NominatimWire.displayName(place, terms, languages: output.languages).string
            var element = "<place" + placeAttributes(place, terms, geometry: geometry, output: output)
                + attribute("display_name", display) + attribute("class", terms.key) + attribute("type", terms.value)
                + attribute("importance", "\(terms.importance)")
            var children = ""
            if let geometry, output.geometries.contains(.kml) { children += "<geokml>" + GeometryText.kml(geometry) + "</geokml>" }
            if output.addressDetails { children += addressParts(place, terms, output: output) }
            children += details(place, output: output)
            element += children.isEmpty ? " />" : ">" + children + "</place>"
            xml += element
        }
        return xml + "</searchresults>"
    }

    /// `<reversegeocode>`: the one `<result>` with the display name as its text, then the address parts, extra tags
    /// and names beside it; `<error>Unable to geocode</error>` where nothing is.
    static func reverseGeocode(_ place: Place?, geometry: PlaceGeometry?, output: NominatimOutput, querystring: String) -> String {
        var xml = root("reversegeocode", attributes: [("querystring", querystring)]) + ">"
        guard let place else { return xml + "<error>Unable to geocode</error></reversegeocode>" }
        let terms = OSMTerms(place)
        let display = NominatimWire.displayName(place, terms, languages: output.languages).string
        xml += "<result" + placeAttributes(place, terms, geometry: geometry, output: output) + ">" + escaped(display) + "</result>"
        if let geometry, output.geometries.contains(.kml) { xml += "<geokml>" + GeometryText.kml(geometry) + "</geokml>" }
        if output.addressDetails { xml += "<addressparts>" + addressParts(place, terms, output: output) + "</addressparts>" }
        return xml + details(place, output: output) + "</reversegeocode>"
    }

    /// Nominatim's error document for the XML format.
    static func error(_ failure: PindropError) -> String {
        declaration + "<error><code>\(failure.httpStatus)</code><message>" + escaped(failure.message) + "</message></error>"
    }

    // MARK: Parts

    static let declaration = "<?xml version=\"1.0\" encoding=\"UTF-8\" ?>\n"

    /// The root's opening tag, without its ">": the time of the answer, the attribution, then `attributes`.
    private static func root(_ name: String, attributes: [(String, String)]) -> String {
        declaration + "<" + name + attribute("timestamp", timestamp(Date())) + attribute("attribution", NominatimWire.licence)
            + attributes.map { attribute($0.0, $0.1) }.joined()
    }

    /// The attributes `<place>` and `<result>` share: ids, `ref`, the point, the box, the ranks, and the shape in the
    /// text forms asked for.
    private static func placeAttributes(_ place: Place, _ terms: OSMTerms, geometry: PlaceGeometry?, output: NominatimOutput) -> String {
        var text = attribute("place_id", String(terms.placeID))
        if let type = terms.osmType, let id = terms.osmID { text += attribute("osm_type", type) + attribute("osm_id", String(id)) }
        let name = place.kind == .address ? "" : NominatimWire.localName(place, languages: output.languages)
        if let ref = place.tags?["ref"] ?? (name.isEmpty ? nil : name) { text += attribute("ref", ref) }
        text += attribute("lat", NominatimWire.degrees(place.coordinate.latitude))
            + attribute("lon", NominatimWire.degrees(place.coordinate.longitude))
        let box = terms.box
        text += attribute("boundingbox", [box.south, box.north, box.west, box.east].map(NominatimWire.degrees).joined(separator: ","))
        text += attribute("place_rank", String(terms.rank)) + attribute("address_rank", String(terms.addressRank))
        if let geometry {
            if output.geometries.contains(.text) { text += attribute("geotext", GeometryText.wkt(geometry)) }
            if output.geometries.contains(.svg) { text += attribute("geosvg", GeometryText.svg(geometry)) }
            if output.geometries.contains(.geojson) { text += attribute("geojson", GeometryText.geoJSON(geometry)) }
        }
        return text
    }

    /// The address parts as elements named by their keys (`<village>Triesen</village>`), then `<country_code>`.
    private static func addressParts(_ place: Place, _ terms: OSMTerms, output: NominatimOutput) -> String {
        let parts = AddressParts(place, terms, languages: output.languages)
        var xml = parts.keyed.map { element($0.key, $0.value) }.joined()
        if let code = parts.countryCode { xml += element("country_code", code) }
        return xml
    }

    /// `<extratags>` and `<namedetails>`, where asked for.
    private static func details(_ place: Place, output: NominatimOutput) -> String {
        var xml = ""
        if output.extratags {
            xml += "<extratags>" + NominatimWire.extraTags(place).map { "<tag" + attribute("key", $0.key) + attribute("value", $0.value) + " />" }
                .joined() + "</extratags>"
        }
        if output.namedetails {
            xml += "<namedetails>" + NominatimWire.nameDetails(place).map { "<name" + attribute("desc", $0.key) + ">" + escaped($0.value) + "</name>" }
                .joined() + "</namedetails>"
        }
        return xml
    }

    private static func element(_ name: String, _ text: String) -> String {
        // An address key is a tag value ("isolated_dwelling"): only what an XML name may hold is kept.
        let safe = String(name.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0) })
        let tag = safe.first.map { $0.isLetter || $0 == "_" } == true ? safe : "_" + safe
        return "<\(tag)>" + escaped(text) + "</\(tag)>"
    }

    private static func attribute(_ name: String, _ value: String) -> String { " \(name)=\"" + escaped(value, attribute: true) + "\"" }

    /// Text with XML's special characters as references (in an attribute, the quote and line breaks too).
    static func escaped(_ text: String, attribute: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where attribute: out += "&quot;"
            case "\n" where attribute: out += "&#10;"
            case "\r" where attribute: out += "&#13;"
            case "\t" where attribute: out += "&#09;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// "Mon, 23 Nov 2026 12:34:25 +00:00", as Nominatim stamps its XML.
    static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+00:00'"
        return formatter.string(from: date)
    }
}
