import Foundation
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

/// Nominatim's and Photon's APIs, field by field as their own code writes them (docs/api-compat.md).
@Suite("Nominatim- and Photon-compatible endpoints")
struct CompatEndpointTests {
    /// A cafe as the embedded index answers an OpenStreetMap venue.
    static let cafe = Place(id: "osm:way/3000000001", name: "Café Regatta", displayName: "Café Regatta, Merikannontie 8, 00260 Helsinki",
                            coordinate: Coordinate(latitude: 60.18269, longitude: 24.91302), countryCode: "FI", admin1: "Uusimaa",
                            category: "cafe", address: Address(houseNumber: "8", street: "Merikannontie", postcode: "00260", town: "Helsinki"),
                            source: "embedded", kind: .venue, categoryKey: "amenity")

    static func server() -> TestServer {
        var server = TestServer()
        server.store = FakeStore(places: SamplePlaces.all + [cafe])
        return server
    }

    @Test("Nominatim /search json: an array of places with lat/lon and boundingbox as strings, class and type, display_name ending in the country")
    func searchJSON() async throws {
        try await Self.server().test { client in
            let response = try await client.get("/search?q=Mannerheimintie&format=json&addressdetails=1")
            #expect(response.status == .ok)
            let places = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
            let first = try #require(places.first)
            #expect(first["lat"] as? String == "60.1683500")
            #expect(first["lon"] as? String == "24.9401000")
            #expect(first["osm_type"] as? String == "node")
            #expect(first["osm_id"] as? Int == 2_000_000_001)
            #expect(first["class"] as? String == "place")
            #expect(first["type"] as? String == "house")
            #expect(first["place_rank"] as? Int == 30)
            // Nominatim's display name: the address parts from the house number to the country.
            #expect(first["display_name"] as? String == "5, Mannerheimintie, Helsinki, Uusimaa, 00100, Finland")
            #expect((first["place_id"] as? Int ?? 0) > 0)
            let box = try #require(first["boundingbox"] as? [String])
            #expect(box == ["60.1683000", "60.1684000", "24.9400500", "24.9401500"])   // minlat, maxlat, minlon, maxlon
            let address = try #require(first["address"] as? [String: String])
            #expect(address == ["house_number": "5", "road": "Mannerheimintie", "city": "Helsinki", "state": "Uusimaa",
                                "postcode": "00100", "country": "Finland", "country_code": "fi"])
        }
    }

    @Test("jsonv2 says category where json says class; a venue is its OSM key and value, with its name under the key in the address")
    func jsonv2Venue() async throws {
        try await Self.server().test { client in
            let places = try await client.getJSONArray("/search?q=Caf&addressdetails=1")   // jsonv2 is the default
            let cafe = try #require(places.first)
            #expect(cafe["category"] as? String == "amenity")
            #expect(cafe["class"] == nil)
            #expect(cafe["type"] as? String == "cafe")
            #expect(cafe["addresstype"] as? String == "amenity")
            #expect(cafe["osm_type"] as? String == "way")
            #expect((cafe["address"] as? [String: String])?["amenity"] == "Café Regatta")
        }
    }

    @Test("accept-language writes the country in that language, in the address and the line, from the parameter or the header")
    func language() async throws {
        try await Self.server().test { client in
            let german = try await client.getJSONArray("/search?q=Helsinki&addressdetails=1&accept-language=de")
            #expect((german.first?["address"] as? [String: String])?["country"] == "Finnland")
            #expect(german.first?["display_name"] as? String == "Helsinki, Uusimaa, Finnland")
            let response = try await client.execute(uri: "/search?q=Mannerheimintie&addressdetails=1", method: .get,
                                                     headers: [.acceptLanguage: "fi-FI,fi;q=0.9,en;q=0.5"])
            let finnish = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]])
            #expect((finnish.first?["address"] as? [String: String])?["country"] == "Suomi")
        }
    }

    @Test("countrycodes, viewbox with bounded, exclude_place_ids and limit narrow the answer")
    func filters() async throws {
        try await Self.server().test { client in
            #expect(try await client.getJSONArray("/search?q=Paris").count == 3)
            let french = try await client.getJSONArray("/search?q=Paris&countrycodes=fr,xyz")
            #expect(french.map { $0["display_name"] as? String } == ["Paris, Île-de-France, France"])
            #expect(try await client.getJSONArray("/search?q=Paris&countrycodes=de").isEmpty)
            // Texas only: a box around it, as a filter; without bounded it only biases.
            let texas = try await client.getJSONArray("/search?q=Paris&viewbox=-96,34,-95,33&bounded=1")
            #expect(texas.map { $0["display_name"] as? String } == ["Paris, Texas, United States"])
            #expect(try await client.getJSONArray("/search?q=Paris&viewbox=-96,34,-95,33").count == 3)
            let first = try #require(try await client.getJSONArray("/search?q=Paris").first?["place_id"] as? Int)
            let rest = try await client.getJSONArray("/search?q=Paris&exclude_place_ids=\(first)")
            #expect(rest.count == 2)
            #expect(!rest.contains { $0["place_id"] as? Int == first })
            #expect(try await client.getJSONArray("/search?q=Paris&limit=1").count == 1)
            #expect(try await client.getJSONArray("/search?q=Paris&limit=0").count == 1)   // clamped, as Nominatim does
            #expect(try await client.getJSONArray("/search?q=").isEmpty)
        }
    }

    @Test("layer keeps venues (poi) or the address hierarchy (address) apart; featureType keeps places of that rank")
    func layers() async throws {
        try await Self.server().test { client in
            func types(_ uri: String) async throws -> [String] { try await client.getJSONArray(uri).compactMap { $0["type"] as? String } }
            #expect(try await types("/search?q=Caf&layer=poi") == ["cafe"])
            #expect(try await types("/search?q=Caf&layer=address").isEmpty)
            #expect(try await types("/search?q=Mannerheimintie&layer=address") == ["house"])
            #expect(try await types("/search?q=Mannerheimintie&layer=poi").isEmpty)
            let cities = try await types("/search?q=Paris&featureType=city")
            #expect(!cities.isEmpty && cities.allSatisfy { ["city", "town", "village"].contains($0) })
            #expect(try await types("/search?q=Caf&featureType=city").isEmpty)
        }
    }

    @Test("structured search looks up the finest part given; q beside it, or nothing at all, is Nominatim's 400")
    func structured() async throws {
        try await Self.server().test { client in
            let street = try await client.getJSONArray("/search?street=Mannerheimintie%205&city=Helsinki&format=json")
            #expect(street.first?["osm_id"] as? Int == 2_000_000_001)
            let city = try await client.getJSONArray("/search?city=Helsinki&country=Finland")
            #expect(city.first?["display_name"] as? String == "Helsinki, Uusimaa, Finland")
            #expect(city.first?["type"] as? String == "city")
            for uri in ["/search?q=Paris&city=Paris", "/search?format=json", "/search?q=Paris&exclude_place_ids=abc",
                        "/search?q=Paris&viewbox=1,2,3", "/search?q=Paris&limit=ten", "/search?q=Paris&layer=sea"] {
                let response = try await client.get(uri)
                #expect(response.status == .badRequest, "\(uri)")
                let error = try #require(try response.json["error"] as? [String: Any], "\(uri)")
                #expect(error["code"] as? Int == 400)
                #expect((error["message"] as? String)?.isEmpty == false)
            }
            let format = try await client.get("/search?q=Paris&format=kml")
            #expect(format.status == .badRequest)
            #expect(format.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(String(buffer: format.body).hasPrefix("ERROR 400: Parameter 'format' must be one of"))
        }
    }

    @Test("Nominatim /reverse: one object, or {\"error\": \"Unable to geocode\"} with 200 where nothing is or off the globe")
    func nominatimReverse() async throws {
        try await Self.server().test { client in
            let place = try await client.getJSON("/reverse?lat=60.1684&lon=24.9401&format=jsonv2")
            #expect(place["osm_id"] as? Int == 2_000_000_001)
            #expect((place["address"] as? [String: String])?["road"] == "Mannerheimintie")   // addressdetails is 1 by default here
            let none = try await client.get("/reverse?lat=91&lon=0&format=json")
            #expect(none.status == .ok)
            #expect(try none.json["error"] as? String == "Unable to geocode")
            let missing = try await client.get("/reverse?lat=60&format=json")
            #expect(missing.status == .badRequest)
            #expect(try (missing.json["error"] as? [String: Any])?["message"] as? String == "Parameter 'lon' missing.")
        }
    }

    @Test("geojson and geocodejson are FeatureCollections: bbox west, south, east, north; geocodejson's flat address")
    func geoJSONFormats() async throws {
        try await Self.server().test { client in
            let geojson = try await client.getJSON("/search?q=Mannerheimintie&format=geojson")
            #expect(geojson["type"] as? String == "FeatureCollection")
            let feature = try #require((geojson["features"] as? [[String: Any]])?.first)
            #expect(feature["bbox"] as? [Double] == [24.94005, 60.1683, 24.94015, 60.1684])
            #expect((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [24.9401, 60.16835])
            #expect((feature["properties"] as? [String: Any])?["category"] as? String == "place")
            let coded = try await client.getJSON("/reverse?lat=60.1684&lon=24.9401&format=geocodejson")
            #expect((coded["geocoding"] as? [String: Any])?["version"] as? String == "0.1.0")
            let properties = try #require(((coded["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["geocoding"] as? [String: Any])
            #expect(properties["type"] as? String == "house")
            #expect(properties["housenumber"] as? String == "5")
            #expect(properties["street"] as? String == "Mannerheimintie")
            #expect(properties["city"] as? String == "Helsinki")
            #expect(properties["accuracy"] as? Int != nil)
        }
    }

    @Test("/lookup takes N/W/R ids and Pindrop ids, skips the rest, and refuses more than 50")
    func lookup() async throws {
        try await Self.server().test { client in
            let found = try await client.getJSONArray("/lookup?osm_ids=N2000000001,W3000000001,R1,X5,geonames:658225&format=json")
            #expect(found.map { $0["display_name"] as? String } == ["5, Mannerheimintie, Helsinki, Uusimaa, 00100, Finland",
                                                                    "Café Regatta, 8, Merikannontie, Helsinki, Uusimaa, 00260, Finland",
                                                                    "Helsinki, Uusimaa, Finland"])
            #expect(try await client.getJSONArray("/lookup?format=json").isEmpty)
            let many = (1...51).map { "N\($0)" }.joined(separator: ",")
            #expect(try await client.get("/lookup?osm_ids=\(many)").status == .badRequest)
        }
    }

    @Test("/status is OK in text, and the index's figures with format=json")
    func status() async throws {
        try await Self.server().test { client in
            let text = try await client.get("/status")
            #expect(String(buffer: text.body) == "OK")
            let json = try await client.getJSON("/status?format=json")
            #expect(json["status"] as? Int == 0)
            #expect(json["message"] as? String == "OK")
        }
    }

    @Test("Photon /api: a FeatureCollection with Photon's properties; osm_tag and layer filter; an unknown parameter is a 400")
    func photonSearch() async throws {
        try await Self.server().test { client in
            let answer = try await client.getJSON("/api?q=Caf")
            let cafe = try #require((answer["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])
            #expect(cafe["osm_type"] as? String == "W")
            #expect(cafe["osm_key"] as? String == "amenity")
            #expect(cafe["osm_value"] as? String == "cafe")
            #expect(cafe["type"] as? String == "house")
            #expect(cafe["name"] as? String == "Café Regatta")
            #expect(cafe["street"] as? String == "Merikannontie")
            #expect(cafe["housenumber"] as? String == "8")
            #expect(cafe["countrycode"] as? String == "FI")
            func names(_ uri: String) async throws -> [String] {
                try await client.getJSON(uri)["features"].map { ($0 as? [[String: Any]] ?? []).compactMap { ($0["properties"] as? [String: Any])?["name"] as? String } } ?? []
            }
            #expect(try await names("/api?q=Paris&limit=2").count == 2)
            #expect(try await names("/api?q=Paris&osm_tag=place") == ["Paris", "Paris", "Paris"])
            #expect(try await names("/api?q=Caf&osm_tag=!amenity").isEmpty)
            #expect(try await names("/api?q=Caf&osm_tag=:cafe") == ["Café Regatta"])
            #expect(try await names("/api?q=Paris&layer=street").isEmpty)
            #expect(try await names("/api?q=Paris&bbox=-96,33,-95,34") == ["Paris"])
            #expect(try await names("/api?q=Paris&countrycode=CA").count == 1)
            for uri in ["/api?q=Paris&format=json", "/api", "/api?q=Paris&layer=sea", "/api?q=Paris&osm_tag=a:b:c", "/api?q=Paris&lat=1"] {
                let response = try await client.get(uri)
                #expect(response.status == .badRequest, "\(uri)")
                #expect((try response.json["message"] as? String)?.isEmpty == false, "\(uri)")
            }
            // The first unknown parameter is named, and a Photon parameter Pindrop does not serve says so.
            let unknown = try await client.get("/api?q=Paris&foo=3&format=json")
            #expect((try unknown.json["message"] as? String)?.hasPrefix("Unknown query parameter 'foo'") == true)
            let geometry = try await client.get("/api?q=Paris&geometry=1")
            #expect(geometry.status == .badRequest)
            #expect((try geometry.json["message"] as? String)?.contains("'geometry' is not supported") == true)
        }
    }

    @Test("/reverse without format is Photon's: a FeatureCollection within the radius")
    func photonReverse() async throws {
        try await Self.server().test { client in
            let near = try await client.getJSON("/reverse?lat=60.1684&lon=24.9401")
            let features = try #require(near["features"] as? [[String: Any]])
            #expect(features.count == 1)
            #expect((features[0]["properties"] as? [String: Any])?["street"] as? String == "Mannerheimintie")
            let far = try await client.getJSON("/reverse?lat=0&lon=0&radius=1")
            #expect((far["features"] as? [Any])?.isEmpty == true)
            #expect(try await client.get("/reverse?lat=95&lon=0").status == .badRequest)
        }
    }
}

extension TestClientProtocol {
    /// The body of a GET that must answer 200 with a JSON array.
    func getJSONArray(_ uri: String) async throws -> [[String: Any]] {
        let response = try await get(uri)
        #expect(response.status == .ok, "\(uri): \(String(buffer: response.body))")
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [[String: Any]], "\(uri)")
    }
}
