import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

/// Nominatim's output forms beyond JSON: XML, JSONP, geometries, `/status` (docs/api/Output.md, Search.md,
/// Status.md, and the shapes its scenarios check).
@Suite("Nominatim's XML, JSONP, geometries and status")
struct NominatimFormatTests {
    /// Triesenberg's outline: a small ring the store keeps (what the engine's area rings give).
    static let ring = [Coordinate(latitude: 47.1338616, longitude: 9.5304765), Coordinate(latitude: 47.1016458, longitude: 9.541961),
                       Coordinate(latitude: 47.0897628, longitude: 9.5811905), Coordinate(latitude: 47.1560628, longitude: 9.5845054),
                       Coordinate(latitude: 47.1338616, longitude: 9.5304765)]

    static func server(_ store: RecordingStore = RecordingStore(places: Liechtenstein.all + SamplePlaces.all,
                                                                 outlines: [Liechtenstein.triesenberg.id: .multiPolygon([[ring]])])) -> TestServer {
        var server = TestServer()
        server.store = store
        return server
    }

    static func xml(_ response: TestResponse) throws -> XMLElement {
        #expect(response.headers[.contentType] == "text/xml; charset=utf-8")
        let document = try XMLDocument(data: Data(buffer: response.body))
        return try #require(document.rootElement())
    }

    @Test("format=xml: <searchresults> with querystring, more_url and the ids to exclude next; each <place> with its attributes and address")
    func searchXML() async throws {
        try await Self.server().test { client in
            let root = try Self.xml(try await client.get("/search?q=Triesenberg&format=xml&addressdetails=1&countrycodes=li,1,,x&limit=1"))
            #expect(root.name == "searchresults")
            #expect(root.attribute(forName: "querystring")?.stringValue == "Triesenberg")
            let more = try #require(root.attribute(forName: "more_url")?.stringValue)
            #expect(more.hasPrefix("http://") && more.contains("/search?q=Triesenberg&addressdetails=1&limit=2&countrycodes=li&"))
            #expect(more.hasSuffix("exclude_place_ids=R1155948&format=xml"))
            #expect(root.attribute(forName: "exclude_place_ids")?.stringValue == "R1155948")
            #expect(root.attribute(forName: "timestamp")?.stringValue?.hasSuffix("+00:00") == true)
            let place = try #require(root.elements(forName: "place").first)
            func attribute(_ name: String) -> String? { place.attribute(forName: name)?.stringValue }
            #expect(attribute("osm_type") == "relation" && attribute("osm_id") == "1155948")
            #expect(attribute("class") == "boundary" && attribute("type") == "administrative")
            #expect(attribute("lat") == "47.1186181" && attribute("boundingbox") == "47.0781382,47.1665343,9.5304765,9.6357143")
            #expect(attribute("place_rank") == "16" && attribute("address_rank") == "16" && attribute("ref") == "Triesenberg")
            #expect(attribute("display_name") == "Triesenberg, Oberland, 9497, Liechtenstein")
            let address = (place.children ?? []).compactMap { $0 as? XMLElement }.map { ($0.name ?? "", $0.stringValue ?? "") }
            #expect(address.map(\.0) == ["town", "county", "postcode", "country", "country_code"])
            #expect(address.first?.1 == "Triesenberg" && address.last?.1 == "li")
        }
    }

    @Test("XML echoes the viewbox (viewboxlbrt too) and the excluded ids as Nominatim writes them; text is escaped")
    func searchXMLEchoes() async throws {
        try await Self.server().test { client in
            let viewbox = try Self.xml(try await client.get("/search?q=xnznxvcx&format=xml&viewbox=12,33,77,45.13"))
            #expect(viewbox.attribute(forName: "viewbox")?.stringValue == "12,33,77,45.13")
            #expect(viewbox.elements(forName: "place").isEmpty)
            let lbrt = try Self.xml(try await client.get("/search?q=xnznxvcx&format=xml&viewboxlbrt=12,34.13,77,45"))
            #expect(lbrt.attribute(forName: "viewbox")?.stringValue == "12,34.13,77,45")
            let excluded = try Self.xml(try await client.get("/search?q=jghrleoxsbwjer&format=xml&exclude_place_ids=123,n456,W789"))
            #expect(excluded.attribute(forName: "exclude_place_ids")?.stringValue == "123,N456,W789")
            let none = try Self.xml(try await client.get("/search?q=jghrleoxsbwjer&format=xml&exclude_place_ids=,"))
            #expect(none.attribute(forName: "exclude_place_ids") == nil)
            let special = try Self.xml(try await client.get("/search?q=xfdghn%26zxn%22xvbyx%3Cvxx%3Ecssdex&format=xml"))
            #expect(special.attribute(forName: "querystring")?.stringValue == "xfdghn&zxn\"xvbyx<vxx>cssdex")
            #expect(special.attribute(forName: "more_url")?.stringValue?.contains("q=xfdghn%26zxn%22xvbyx%3Cvxx%3Ecssdex") == true)
        }
    }

    @Test("/reverse and /lookup default to XML as Nominatim's do: <reversegeocode> with the line as text and <addressparts>; lookup's <searchresults>")
    func reverseAndLookupXML() async throws {
        try await Self.server().test { client in
            let reverse = try Self.xml(try await client.get("/reverse?lat=47.127&lon=9.5545&zoom=18&extratags=1"))
            #expect(reverse.name == "reversegeocode")
            #expect(reverse.attribute(forName: "querystring")?.stringValue == "lat=47.127&lon=9.5545&format=xml&zoom=18")
            let result = try #require(reverse.elements(forName: "result").first)
            // Nominatim's display name: the address parts from the house number to the country.
            #expect(result.stringValue == "6, Silum, Triesenberg, Oberland, 9497, Liechtenstein")
            let parts = try #require(reverse.elements(forName: "addressparts").first)
            #expect(parts.elements(forName: "village").first?.stringValue == "Silum")
            #expect(reverse.elements(forName: "extratags").count == 1)
            let nowhere = try Self.xml(try await client.get("/reverse?lat=91&lon=0&zoom=18"))
            #expect(nowhere.elements(forName: "error").first?.stringValue == "Unable to geocode")
            let lookup = try Self.xml(try await client.get("/lookup?osm_ids=R1155955,N3000000006"))
            #expect(lookup.name == "searchresults")
            #expect(lookup.elements(forName: "place").map { $0.attribute(forName: "osm_id")?.stringValue } == ["1155955", "3000000006"])
        }
    }

    @Test("errors in XML are <error> with the code and message; an unknown format is plain text")
    func xmlErrors() async throws {
        try await Self.server().test { client in
            let response = try await client.get("/search?q=Triesenberg&format=xml&polygon_geojson=1&polygon_threshold=1m")
            #expect(response.status == .badRequest)
            let error = try Self.xml(response)
            #expect(error.name == "error")
            #expect(error.elements(forName: "code").first?.stringValue == "400")
            #expect(error.elements(forName: "message").first?.stringValue == "Parameter 'polygon_threshold' must be a number.")
            let format = try await client.get("/search?q=Vaduz&format=x45")
            #expect(format.status == .badRequest)
            #expect(format.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(String(buffer: format.body).hasPrefix("ERROR 400: Parameter 'format' must be one of: xml, json"))
        }
    }

    @Test("json_callback: a legal name wraps JSON as application/javascript; an illegal one is 400; XML ignores it",
          arguments: ["1asd", "bar(foo)", "XXX['bad']", "foo; evil", "234", "", "a..b"])
    func jsonp(illegal: String) async throws {
        try await Self.server().test { client in
            let bad = try await client.get("/search?q=Vaduz&format=json&json_callback=" + illegal.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(bad.status == .badRequest)
            #expect(try (bad.json["error"] as? [String: Any])?["message"] as? String == "Invalid json_callback value")
            let good = try await client.get("/search?q=Liechtenstein&format=jsonv2&json_callback=app.handlers.geo_1")
            #expect(good.status == .ok)
            #expect(good.headers[.contentType] == "application/javascript; charset=utf-8")
            let body = String(buffer: good.body)
            #expect(body.hasPrefix("app.handlers.geo_1([{") && body.hasSuffix("}])"))
            let status = try await client.get("/status?format=json&json_callback=cb")
            #expect(String(buffer: status.body).hasPrefix("cb({\"status\":0"))
            let xml = try await client.get("/search?q=Vaduz&format=xml&json_callback=" + illegal.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)
            #expect(xml.status == .ok)
            #expect(xml.headers[.contentType] == "text/xml; charset=utf-8")
        }
    }

    @Test("polygon_*: the outline the store keeps in each form; a point where a place is a point, as Nominatim gives a node")
    func geometries() async throws {
        try await Self.server().test { client in
            let area = try #require(try await client.nominatimList(
                "/search?q=Triesenberg&format=json&polygon_geojson=1&polygon_kml=1&polygon_svg=1&polygon_text=1").first)
            let geojson = try #require(area["geojson"] as? [String: Any])
            #expect(geojson["type"] as? String == "MultiPolygon")
            #expect(((geojson["coordinates"] as? [[[[Double]]]])?.first?.first?.first) == [9.5304765, 47.1338616])
            #expect(area["geotext"] as? String == "MULTIPOLYGON(((9.5304765 47.1338616,9.541961 47.1016458,9.5811905 47.0897628,9.5845054 47.1560628,9.5304765 47.1338616)))")
            #expect(area["svg"] as? String == "M 9.5304765 -47.1338616 L 9.541961 -47.1016458 9.5811905 -47.0897628 9.5845054 -47.1560628 Z")
            #expect((area["geokml"] as? String)?.hasPrefix("<MultiGeometry><Polygon><outerBoundaryIs><LinearRing><coordinates>9.5304765,47.1338616 9.541961,47.1016458") == true)
            let point = try #require(try await client.nominatimList("/search?q=6%20Silum&polygon_geojson=1&polygon_text=1&polygon_svg=1").first)
            #expect((point["geojson"] as? [String: Any])?["type"] as? String == "Point")
            #expect(point["geotext"] as? String == "POINT(9.5545 47.127)")
            #expect(point["svg"] as? String == "cx=\"9.5545\" cy=\"-47.127\"")
            // geojson carries the shape as the feature's geometry, and no text forms.
            let collection = try await client.getJSON("/search?q=Triesenberg&format=geojson&polygon_geojson=1&polygon_text=1")
            let feature = try #require((collection["features"] as? [[String: Any]])?.first)
            #expect((feature["geometry"] as? [String: Any])?["type"] as? String == "MultiPolygon")
            #expect((feature["properties"] as? [String: Any])?["geotext"] == nil)
            // Without a kept outline an area is its box.
            let country = try #require(try await client.nominatimList("/search?q=Liechtenstein&polygon_geojson=1").first)
            #expect((country["geojson"] as? [String: Any])?["type"] as? String == "Polygon")
        }
    }

    @Test("polygon_threshold drops the points nearer a straight line than it; not a number is a 400")
    func threshold() async throws {
        try await Self.server().test { client in
            for (threshold, points) in [("-1", 5), ("0.0", 5), ("0.01", 5), ("999", 4)] {
                let area = try #require(try await client.nominatimList("/search?q=Triesenberg&polygon_text=1&polygon_threshold=\(threshold)").first)
                let text = try #require(area["geotext"] as? String)
                #expect(text.split(separator: ",").count == points, "\(threshold): \(text)")
            }
            for bad in ["x", "%3B%3B", "1m"] {
                let response = try await client.get("/search?q=Triesenberg&polygon_geojson=1&polygon_threshold=\(bad)")
                #expect(response.status == .badRequest, "\(bad)")
            }
        }
    }

    @Test("/status in JSON: status, message, data_updated from the store's import time, software and database versions")
    func status() async throws {
        try await Self.server().test { client in
            let json = try await client.getJSON("/status?format=json")
            #expect(json["status"] as? Int == 0 && json["message"] as? String == "OK")
            #expect(json["data_updated"] as? String == "2026-11-18T11:06:40+00:00")
            #expect(json["software_version"] as? String == "Pindrop" && json["database_version"] as? String == "recording")
            #expect(try await client.get("/status?format=xml").status == .badRequest)
        }
        var failing = TestServer()
        failing.store = FailingStore()
        try await failing.test { client in
            // Nominatim's JSON status says a failure in its body with 200; its text status is a 500.
            let json = try await client.get("/status?format=json")
            #expect(json.status == .ok)
            #expect(try json.json["status"] as? Int == 700)
            #expect(try json.json["data_updated"] == nil)
            #expect(try await client.get("/status").status == .internalServerError)
        }
    }
}
