import Foundation
import Hummingbird
import HummingbirdTesting
import PindropCore
import PindropServer
import PindropTesting
import Testing

/// What Nominatim's answers say about a place and how its questions read (docs/api/Search.md, Output.md, Lookup.md,
/// and the search scenarios of its test suite): languages, names and extra tags, address keys, layers, lookups,
/// coordinates in the text, and its answers to odd input.
@Suite("Nominatim's details, languages and odd input")
struct NominatimDetailsTests {
    static func server(_ store: RecordingStore) -> TestServer {
        var server = TestServer()
        server.store = store
        return server
    }

    static func store() -> RecordingStore { RecordingStore(places: Liechtenstein.all + SamplePlaces.all) }

    @Test("accept-language and the Accept-Language header pick the name with Nominatim's fallbacks; the store is asked in them",
          arguments: [
              ("accept-language=zh,de", "", "列支敦士登"),
              ("accept-language=xx,fr,en,de", "", "Liechtenstein"),
              ("", "fo;q=0.8,en-ca;q=0.5,en;q=0.3", "Liktinstein"),
              ("accept-language=fo,en", "fr-ca,fr;q=0.8,en-ca;q=0.5,en;q=0.3", "Liktinstein"),
              ("", "fo-ca,en-ca;q=0.5", "Liktinstein"),
              ("", "fo-FR;q=0.8,en-ca;q=0.5", "Liktinstein"),
              ("", "", "Liechtenstein"),
          ])
    func languages(parameter: String, header: String, expected: String) async throws {
        let store = Self.store()
        try await Self.server(store).test { client in
            let headers: HTTPFields = header.isEmpty ? [:] : [.acceptLanguage: header]
            let first = try #require(try await client.nominatimList("/search?q=Liechtenstein&" + parameter, headers: headers).first)
            #expect(first["display_name"] as? String == expected)
            #expect(first["name"] as? String == expected)
        }
        let asked = try #require(store.searches.first?.languages)
        #expect(asked == LanguagePreference.languages(from: parameter.isEmpty ? header : String(parameter.dropFirst("accept-language=".count))))
    }

    @Test("a country without its names in the tags is named in the language from the system's country names; its line's country too")
    func countryNames() async throws {
        try await Self.server(Self.store()).test { client in
            let helsinki = try #require(try await client.nominatimList("/search?q=Helsinki&addressdetails=1&accept-language=de").first)
            #expect(helsinki["display_name"] as? String == "Helsinki, Uusimaa, Finnland")
            #expect((helsinki["address"] as? [String: String])?["country"] == "Finnland")
        }
    }

    @Test("extratags are the place's tags beyond its names; namedetails its names; both from the tags the store keeps")
    func tags() async throws {
        try await Self.server(Self.store()).test { client in
            let place = try #require(try await client.nominatimList("/search?q=Triesenberg&limit=1&extratags=1&namedetails=1&format=json").first)
            #expect(place["extratags"] as? [String: String] == ["admin_level": "8", "linked_place": "town", "population": "2634",
                                                                 "website": "https://www.triesenberg.li/", "wikidata": "Q49651",
                                                                 "wikipedia": "de:Triesenberg"])
            #expect(place["namedetails"] as? [String: String] == ["name": "Triesenberg", "name:de": "Triesenberg"])
            #expect(place["addresstype"] as? String == "town")
            let geocode = try await client.getJSON("/search?q=Triesenberg&limit=1&extratags=1&format=geocodejson")
            let properties = try #require(((geocode["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["geocoding"] as? [String: Any])
            #expect((properties["extra"] as? [String: String])?["admin_level"] == "8")
        }
    }

    @Test("address keys: the town under its kind, the addr:place under its own, the neighbourhood and suburb; geocodejson's flat fields")
    func addressKeys() async throws {
        try await Self.server(Self.store()).test { client in
            let house = try #require(try await client.nominatimList("/search?q=6%20Silum&addressdetails=1").first)
            // Nominatim's "House number search for non-street address" scenario.
            #expect(house["address"] as? [String: String] == ["house_number": "6", "village": "Silum", "town": "Triesenberg", "county": "Oberland",
                                                              "postcode": "9497", "country": "Liechtenstein", "country_code": "li"])
            let street = try #require(try await client.nominatimList("/search?q=Gnetsch&addressdetails=1").first)
            #expect(street["address"] as? [String: String] == ["road": "Gnetsch", "neighbourhood": "Gnetsch-Nord", "suburb": "Mäls", "town": "Balzers",
                                                               "county": "Oberland", "postcode": "9496", "country": "Liechtenstein", "country_code": "li"])
            let coded = try await client.getJSON("/search?q=Gnetsch&addressdetails=1&format=geocodejson")
            let fields = try #require(((coded["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["geocoding"] as? [String: Any])
            #expect(fields["name"] as? String == "Gnetsch" && fields["city"] as? String == "Balzers" && fields["postcode"] as? String == "9496")
            #expect(fields["district"] as? String == "Mäls" && fields["locality"] as? String == "Gnetsch-Nord" && fields["country"] as? String == "Liechtenstein")
        }
    }

    @Test("geocodejson's district is a house's part of town of a district's rank (Nominatim 5.3.3: Lochgass 5 is in Ebenholz)")
    func geocodeJSONDistrict() async throws {
        let house = Place(id: "osm:way/399332649", name: "5", displayName: "Lochgass 5, 9490 Vaduz",
                          coordinate: Coordinate(latitude: 47.1468657, longitude: 9.5117675), countryCode: "LI",
                          address: Address(houseNumber: "5", street: "Lochgass", postcode: "9490", town: "Vaduz", county: "Oberland",
                                           place: "Ebenholz", townKind: "town", placeKind: "village"), kind: .address)
        try await Self.server(RecordingStore(places: [house, Liechtenstein.silum6])).test { client in
            func fields(_ q: String) async throws -> [String: Any] {
                let coded = try await client.getJSON("/search?q=\(q)&addressdetails=1&format=geocodejson")
                return try #require(((coded["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["geocoding"] as? [String: Any])
            }
            let lochgass = try await fields("Lochgass%205")
            #expect(lochgass["housenumber"] as? String == "5" && lochgass["street"] as? String == "Lochgass")
            #expect(lochgass["district"] as? String == "Ebenholz" && lochgass["city"] as? String == "Vaduz" && lochgass["locality"] == nil)
            // A house without a street has its place as the street, not as a district.
            let silum = try await fields("6%20Silum")
            #expect(silum["street"] as? String == "Silum" && silum["district"] == nil)
        }
    }

    @Test("layer and featureType reach the store on the request and narrow what it answers; an unknown layer is a 400")
    func layers() async throws {
        let store = Self.store()
        try await Self.server(store).test { client in
            #expect(try await client.nominatimList("/search?q=Triesenberg&layer=poi").isEmpty)
            // The store's house 6 Silum is left out: a house answers only a text with its number, as in Nominatim.
            let addresses = try await client.nominatimList("/search?q=Triesenberg&layer=address")
            #expect(addresses.map { $0["osm_id"] as? Int } == [1_155_948])
            let cities = try await client.nominatimList("/search?q=Triesenberg&featureType=city")
            #expect(cities.map { $0["place_rank"] as? Int } == [16])
            #expect(try await client.nominatimList("/search?q=Liechtenstein&featureType=country").map { $0["place_rank"] as? Int } == [4])
            #expect(try await client.nominatimList("/search?q=Liechtenstein&featureType=state").isEmpty)
            #expect(try await client.get("/search?q=Triesenberg&layer=sea").status == .badRequest)
        }
        #expect(store.searches.map(\.layers) == [[.poi], [.address], [.address], [.address], [.address]])
        #expect(store.searches.map(\.featureType) == [nil, nil, .city, .country, .state])
    }

    @Test("/v1/search takes dedupe=0 as Nominatim does; dedupe stays on unless turned off; a bad value is a 400")
    func v1Dedupe() async throws {
        let store = Self.store()
        try await Self.server(store).test { client in
            for path in ["/v1/search?q=Gnetsch&dedupe=0", "/v1/search?q=Gnetsch", "/v1/search?q=Gnetsch&dedupe=1"] {
                let answer = try await client.get(path)
                #expect(answer.status == .ok, "\(path)")
            }
            let bad = try await client.get("/v1/search?q=Gnetsch&dedupe=maybe")
            #expect(bad.status == .badRequest)
        }
        #expect(store.searches.map(\.dedupe) == [false, true, true])
    }

    @Test("/lookup takes several ids of every kind through PlaceID, in order, asked in the reader's languages")
    func lookup() async throws {
        let store = Self.store()
        try await Self.server(store).test { client in
            let found = try await client.nominatimList("/lookup?osm_ids=R1155955,n3000000006,W3000000007,osm:relation/1155948,geonames:658225,X1,N0&format=json&accept-language=de")
            #expect(found.map { $0["display_name"] as? String } == ["Liechtenstein", "6, Silum, Triesenberg, Oberland, 9497, Liechtenstein",
                                                                   "Gnetsch, Gnetsch-Nord, Mäls, Balzers, Oberland, 9496, Liechtenstein",
                                                                   "Triesenberg, Oberland, 9497, Liechtenstein", "Helsinki, Uusimaa, Finnland"])
        }
        #expect(store.lookups.allSatisfy { $0 == ["de"] } && store.lookups.count == 5)
    }

    @Test("a text that is only a coordinate answers what is there, as Nominatim's reverse; with words, the words near it")
    func coordinates() async throws {
        let store = Self.store()
        try await Self.server(store).test { client in
            let there = try await client.nominatimList("/search?q=N%2047.127%C2%B0%20E%209.5545%C2%B0")
            #expect(there.map { $0["osm_id"] as? Int } == [3_000_000_006])
            // At sea (the Atlantic, 2,300 km from Paris, Ontario) nothing is near enough: no town far away.
            #expect(try await client.nominatimList("/search?q=30.0,-60.0").isEmpty)
            let near = try await client.nominatimList("/search?q=Triesenberg%2C%0BN%2047.127%C2%B0%09E%209.5545%C2%B0")
            #expect(near.map { $0["osm_id"] as? Int } == [1_155_948])
            // Far from the coordinate written, the same words find nothing.
            #expect(try await client.nominatimList("/search?q=Triesenberg%2047.5%2010.5").isEmpty)
        }
        #expect(store.reverses.first?.coordinate == Coordinate(latitude: 47.127, longitude: 9.5545))
        #expect(store.searches.first?.text == "Triesenberg,")
        #expect(store.searches.first?.near == Coordinate(latitude: 47.127, longitude: 9.5545))
    }

    @Test("odd input: punctuation finds nothing; bad viewboxes and exclude ids are 400s in Nominatim's words; id 0 is skipped")
    func oddInput() async throws {
        try await Self.server(Self.store()).test { client in
            #expect(try await client.nominatimList("/search?q=.").isEmpty)
            #expect(try await client.nominatimList("/search?q=%3B%2C%20%2B%2F").isEmpty)
            // More symbols than letters is no name (Nominatim's garbage search), where typo tolerance would find one.
            #expect(try await client.nominatimList("/search?q=%25%23%24%40*%26l%3Bder%23%24!").isEmpty)
            for box in ["34", "0.003,-84.4", "5.2,4.5542,12.4", "23.1,-6,0.11,44.2,9.1", "1.01,34.6,1.01,34.6"] {
                for name in ["viewbox", "viewboxlbrt"] {
                    #expect(try await client.get("/search?q=foo&\(name)=\(box)").status == .badRequest, "\(name)=\(box)")
                }
            }
            for (ids, bad) in [("abc", "abc"), ("X123", "X123"), ("N:100", "N:100"), ("-123", "-123"), ("123,abc,456", "abc")] {
                let response = try await client.get("/search?q=Tokyo&exclude_place_ids=\(ids)")
                #expect(response.status == .badRequest)
                #expect(try (response.json["error"] as? [String: Any])?["message"] as? String == "Invalid exclude ID: \(bad)")
            }
            // "Triesenberg" is its boundary (the store's house 6 Silum there answers only a text with its number).
            #expect(try await client.nominatimList("/search?q=Triesenberg&exclude_place_ids=0,N0").map { $0["osm_id"] as? Int } == [1_155_948])
            #expect(try await client.nominatimList("/search?q=Triesenberg&exclude_place_ids=0,N0,R1155948").isEmpty)
            #expect(try await client.nominatimList("/search?q=Triesenberg&exclude_place_ids=Pli:9497").map { $0["osm_id"] as? Int } == [1_155_948])
            // As a form writes it (geopy, requests): "+" is a space and "%2B" a plus, in every API.
            #expect(try await client.nominatimList("/search?q=6+Silum").map { $0["osm_id"] as? Int } == [3_000_000_006])
            #expect((try await client.getJSON("/v1/search?q=a%2Bb+c")["query"] as? [String: Any])?["text"] as? String == "a+b c")
        }
    }

    @Test("dedupe: places that read the same (class, line, rank) are answered once unless dedupe=0; the store is told")
    func dedupe() async throws {
        let segments = [(1, 47.16), (2, 47.161), (3, 47.162)].map { n, lat in
            Place(id: "osm:way/\(n)", name: "Malbunstrasse", displayName: "Malbunstrasse, 9494 Schaan",
                  coordinate: Coordinate(latitude: lat, longitude: 9.52), countryCode: "LI", category: "secondary", kind: .street)
        }
        let store = RecordingStore(places: segments)
        try await Self.server(store).test { client in
            let deduplicated = try await client.nominatimList("/search?q=Malbunstr")
            let all = try await client.nominatimList("/search?q=Malbunstr&dedupe=0")
            #expect(deduplicated.count == 1 && all.count == 3)
        }
        #expect(store.searches.map(\.dedupe) == [true, false])
    }

    @Test("/v1 and Photon take the reader's languages from lang or the header, ask the store in them and echo them")
    func v1Languages() async throws {
        let store = Self.store()
        try await Self.server(store).test { client in
            let search = try await client.getJSON("/v1/search?q=Liechtenstein&lang=fo,de")
            #expect((search["query"] as? [String: Any])?["lang"] as? String == "fo,de")
            let suggest = try await client.get("/v1/suggest?q=Liechtenstein", headers: [.acceptLanguage: "de-CH,de;q=0.9"])
            #expect(try (suggest.json["query"] as? [String: Any])?["lang"] as? String == "de-CH,de")
            let reverse = try await client.getJSON("/v1/reverse?lat=47.127&lon=9.5545&lang=zh")
            #expect((reverse["query"] as? [String: Any])?["lang"] as? String == "zh")
            let place = try await client.getJSON("/v1/places/osm%3Arelation%2F1155955?lang=fo")
            #expect((place["query"] as? [String: Any])?["lang"] as? String == "fo")
            let photon = try await client.getJSON("/api?q=Liechtenstein&lang=fo")
            #expect(((photon["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["name"] as? String == "Liktinstein")
        }
        #expect(store.searches.map(\.languages) == [["fo", "de"]])
        #expect(store.suggestions.map(\.languages) == [["de-CH", "de"], ["fo"]])
        #expect(store.reverses.map(\.languages) == [["zh"]])
        #expect(store.lookups == [["fo"]])
    }
}
