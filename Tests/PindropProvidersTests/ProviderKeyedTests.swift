import Foundation
import PindropCore
import PindropProviders
import PindropTesting
import Testing

@Suite("Google client")
struct ProviderGoogleTests {
    @Test("geocoding decodes formatted_address, geometry.location and address_components")
    func search() async throws {
        try await withClient(.google, make: { try GoogleClient(configuration: $0) }) { client, server in
            let results = try await client.search(try SearchRequest(text: "1600 Amphitheatre Parkway", countryCode: "US"))
            #expect(results.map(\.place.id) == ["google:ChIJeRpOeF67j4AR9ydy_PIzPuM", "google:ChIJiQHsW0m3j4ARm69rRkrUF3w"])
            let place = results[0].place
            #expect(place.displayName == "1600 Amphitheatre Pkwy, Mountain View, CA 94043, USA", "rows show formatted_address")
            #expect(place.name == "1600 Amphitheatre Pkwy")
            #expect(place.coordinate == Coordinate(latitude: 37.4224428, longitude: -122.0842467))
            #expect(place.address == Address(houseNumber: "1600", street: "Amphitheatre Parkway", postcode: "94043", town: "Mountain View"))
            #expect(place.countryCode == "US" && place.admin1 == "California" && place.source == "google")
            #expect(place.category == nil)
            let sent = try #require(server.requests.first)
            #expect(sent.path == "/maps/api/geocode/json")
            #expect(sent.query["address"] == "1600 Amphitheatre Parkway")
            #expect(sent.query["components"] == "country:US")
            #expect(sent.query["key"] == server.apiKey)
        }
    }

    @Test("reverse asks latlng= and keeps the most precise address first")
    func reverse() async throws {
        try await withClient(.google, make: { try GoogleClient(configuration: $0) }) { client, server in
            let results = try await client.reverse(try ReverseRequest(coordinate: Coordinate(latitude: 37.4224, longitude: -122.0842)))
            #expect(results.count == 1)
            let address = try #require(results[0].place.address)
            #expect([address.houseNumber, address.street, address.postcode, address.town] == ["1600", "Amphitheatre Parkway", "94043", "Mountain View"])
            // The US template: number before street; then "town, state ZIP", the state left out where the line has none.
            #expect(AddressFormatter.streetLine(address, countryCode: "US") == "1600 Amphitheatre Parkway, Mountain View, 94043")
            #expect(server.requests.first?.query["latlng"] == "37.4224,-122.0842")
        }
    }

    @Test("each status becomes what it means", arguments: [
        ("REQUEST_DENIED", "upstream_failed", "PINDROP_GOOGLE_API_KEY"),
        ("OVER_QUERY_LIMIT", "rate_limited", "quota is used up (OVER_QUERY_LIMIT)"),
        ("OVER_DAILY_LIMIT", "rate_limited", "quota is used up (OVER_DAILY_LIMIT)"),
        ("INVALID_REQUEST", "upstream_failed", "invalid (INVALID_REQUEST)"),
    ])
    func statuses(status: String, code: String, phrase: String) async throws {
        try await withFake(.google) { server in
            server.setBehavior(.googleStatus(status))
            let error = await pindropError { try await askOnce(server) }
            #expect(error?.code == code)
            #expect(error?.message.contains(phrase) == true, "\(error?.message ?? "")")
            #expect(server.requests.count == 1)
        }
    }

    @Test("UNKNOWN_ERROR is asked once more: a second success answers, a second failure is reported")
    func unknownErrorRetried() async throws {
        try await withFake(.google) { server in
            server.setBehaviors([.googleStatus("UNKNOWN_ERROR"), .success])
            let results = try await askOnce(server)
            #expect(results.count == 2)
            #expect(server.requests.count == 2)

            server.clearRequests()
            server.setBehavior(.googleStatus("UNKNOWN_ERROR"))
            let error = await pindropError { try await askOnce(server) }
            #expect(error?.message.contains("UNKNOWN_ERROR") == true)
            #expect(server.requests.count == 2, "exactly one retry")
        }
    }

    @Test("suggestions come from Places Autocomplete, completed with their location by Place Details")
    func suggest() async throws {
        try await withClient(.google, make: { try GoogleClient(configuration: $0) }) { client, server in
            let near = Coordinate(latitude: 37.42, longitude: -122.08)
            let results = try await client.suggest(try SuggestRequest(text: "Googlep", near: near, countryCode: "US"))
            #expect(results.map(\.place.name) == ["Googleplex", "Mountain View"])
            #expect(results[0].place.id == "google:ChIJj61dQgK6j4AR4GeTYWZsKWw")
            #expect(results[0].place.displayName == "Googleplex, Amphitheatre Parkway, Mountain View, CA, USA")
            #expect(results[0].place.coordinate == Coordinate(latitude: 37.4220656, longitude: -122.0840897))
            #expect(results[0].place.category == "corporate_office")
            let autocomplete = try #require(server.requests.first { $0.path.hasSuffix("autocomplete/json") })
            #expect(autocomplete.query["input"] == "Googlep")
            #expect(autocomplete.query["location"] == "37.42,-122.08" && autocomplete.query["radius"] == "50000")
            #expect(autocomplete.query["components"] == "country:us")
            #expect(server.requests.filter { $0.path.hasSuffix("details/json") }.count == 2)
        }
    }

    @Test("one session token per typing session, ended by the selection")
    func sessionTokens() async throws {
        try await withClient(.google, make: { try GoogleClient(configuration: $0) }) { client, server in
            for text in ["Goog", "Googl", "Googleplex"] { _ = try await client.suggest(try SuggestRequest(text: text)) }
            let typed = server.requests.filter { $0.path.hasSuffix("autocomplete/json") }.compactMap { $0.query["sessiontoken"] }
            #expect(typed.count == 3 && Set(typed).count == 1, "every keystroke of one session shares its token")
            #expect(server.requests.filter { $0.path.hasSuffix("details/json") }.count == 2,
                    "the same predictions are completed once, then served from the details cache")

            server.clearRequests()
            let chosen = try await client.place(id: "google:ChIJj61dQgK6j4AR4GeTYWZsKWw")
            #expect(chosen?.name == "Googleplex")
            #expect(server.requests.first?.query["sessiontoken"] == typed[0], "the selection carries the session's token")
            #expect(client.currentSessionToken == nil)

            server.clearRequests()
            _ = try await client.suggest(try SuggestRequest(text: "Mountain"))
            let next = try #require(server.requests.first?.query["sessiontoken"])
            #expect(next != typed[0], "the next typing session has a new token")
            #expect(try await client.place(id: "geonames:1") == nil)
        }
    }

    @Test("a place Google does not know is nil, not an error")
    func unknownPlace() async throws {
        try await withClient(.google, make: { try GoogleClient(configuration: $0) }) { client, _ in
            let place = try await client.place(id: "google:ChIJnope")
            #expect(place == nil)
        }
    }
}

@Suite("Mapbox client")
struct ProviderMapboxTests {
    @Test("forward geocoding decodes v6 features with their context; limit at most 10")
    func search() async throws {
        try await withClient(.mapbox, make: { try MapboxClient(configuration: $0) }) { client, server in
            let near = Coordinate(latitude: 38.9, longitude: -77.03)
            let results = try await client.search(try SearchRequest(text: "2 Lincoln Memorial Circle", near: near, countryCode: "US", limit: 25))
            #expect(results.count == 2)
            let address = results[0].place
            #expect(address.id == "mapbox:dXJuOm1ieGFkcjo0ZGE1YmM3Ni1jNDc2LTQ3ZDYtYjY1Ni1lZmE1OGE0NGVkYzQ")
            #expect(address.name == "2 Lincoln Memorial Circle Northwest")
            #expect(address.displayName == "2 Lincoln Memorial Circle Northwest, Washington, District of Columbia 20037, United States")
            #expect(address.coordinate == Coordinate(latitude: 38.889248, longitude: -77.050636))
            #expect(address.address == Address(houseNumber: "2", street: "Lincoln Memorial Circle Northwest", postcode: "20037", town: "Washington"))
            #expect(address.countryCode == "US" && address.admin1 == "District of Columbia" && address.source == "mapbox")
            #expect(results[1].place.name == "Washington")
            let sent = try #require(server.requests.first)
            #expect(sent.path == "/search/geocode/v6/forward")
            #expect(sent.query["autocomplete"] == "false" && sent.query["limit"] == "10")
            #expect(sent.query["proximity"] == "-77.03,38.9" && sent.query["country"] == "us")
            #expect(sent.query["access_token"] == server.apiKey)
        }
    }

    @Test("suggest asks with autocomplete=true")
    func suggest() async throws {
        try await withClient(.mapbox, make: { try MapboxClient(configuration: $0) }) { client, server in
            let results = try await client.suggest(try SuggestRequest(text: "2 Lincoln Mem", limit: 5))
            #expect(results.count == 2)
            #expect(server.requests.first?.query["autocomplete"] == "true")
            #expect(server.requests.first?.query["limit"] == "5")
        }
    }

    @Test("reverse gives the address first, then wider features")
    func reverse() async throws {
        try await withClient(.mapbox, make: { try MapboxClient(configuration: $0) }) { client, server in
            let point = Coordinate(latitude: 38.889, longitude: -77.0506)
            let one = try await client.reverse(try ReverseRequest(coordinate: point))
            let address = try #require(one.first?.place.address)
            #expect(one.count == 1)
            #expect([address.houseNumber, address.street, address.postcode, address.town]
                    == ["2", "Lincoln Memorial Circle Northwest", "20037", "Washington"])
            #expect(AddressFormatter.streetLine(address, countryCode: "US") == "2 Lincoln Memorial Circle Northwest, Washington, 20037")
            #expect(try await client.reverse(try ReverseRequest(coordinate: point, limit: 5)).map(\.place.name)
                    == ["2 Lincoln Memorial Circle Northwest", "20037"])
            let sent = try #require(server.requests.first)
            #expect(sent.path == "/search/geocode/v6/reverse")
            #expect(sent.query["longitude"] == "-77.0506" && sent.query["latitude"] == "38.889")
        }
    }
}

@Suite("Foursquare client")
struct ProviderFoursquareTests {
    let centre = Coordinate(latitude: 37.7763, longitude: -122.4232)

    @Test("both response forms give the same venues", arguments: ["", "/v3"])
    func bothForms(path: String) async throws {
        try await withClient(.foursquare, path: path, make: { try FoursquareClient(configuration: $0) }) { client, server in
            let results = try await client.nearby(try NearbyRequest(coordinate: centre, radiusMeters: 1000, limit: 80))
            #expect(results.map(\.place.id) == ["foursquare:4a27e3f2f964a52051931fe3", "foursquare:49d51ce3f964a520675c1fe3"])
            let venue = results[0].place
            #expect(venue.name == "Blue Bottle Coffee")
            #expect(venue.coordinate == Coordinate(latitude: 37.776283, longitude: -122.423244))
            #expect(venue.category == "coffee shop")
            #expect(venue.address == Address(houseNumber: "315", street: "Linden St", postcode: "94102", town: "San Francisco"))
            #expect(venue.countryCode == "US" && venue.admin1 == "CA" && venue.source == "foursquare")
            #expect(results.map(\.distanceMeters) == [120, 240])
            let sent = try #require(server.requests.first)
            #expect(sent.path == path + "/places/search")
            #expect(sent.query["ll"] == "37.7763,-122.4232" && sent.query["radius"] == "1000")
            #expect(sent.query["limit"] == "50", "Foursquare's cap")
            if path == "/v3" {
                #expect(sent.headers["authorization"] == server.apiKey)
            } else {
                #expect(sent.headers["authorization"] == "Bearer \(server.apiKey)")
                #expect(sent.headers["x-places-api-version"] == FoursquareClient.apiVersion)
            }
            #expect(sent.query.values.allSatisfy { !$0.contains(server.apiKey) }, "the key goes in a header only")
        }
    }

    @Test("a category word is a query, Foursquare category ids are a filter")
    func categories() async throws {
        try await withClient(.foursquare, make: { try FoursquareClient(configuration: $0) }) { client, server in
            _ = try await client.nearby(try NearbyRequest(coordinate: centre, radiusMeters: 500, category: "Cafe"))
            _ = try await client.nearby(try NearbyRequest(coordinate: centre, radiusMeters: 500, category: "13032,13035"))
            let sent = server.requests
            #expect(sent[0].query["query"] == "cafe" && sent[0].query["categories"] == nil)
            #expect(sent[1].query["categories"] == "13032,13035" && sent[1].query["query"] == nil)
        }
    }
}
