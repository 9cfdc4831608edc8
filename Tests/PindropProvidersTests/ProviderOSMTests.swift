import Foundation
import PindropCore
import PindropProviders
import PindropTesting
import Testing

@Suite("Nominatim client")
struct ProviderNominatimTests {
    @Test("search decodes jsonv2 with address details into places, in Nominatim's order")
    func search() async throws {
        try await withFake(.nominatim) { server in
            let client = NominatimClient(configuration: try configuration(for: server))
            let near = Coordinate(latitude: 52.52, longitude: 13.40)
            let results = try await client.search(try SearchRequest(text: "Brandenburger Tor", near: near, countryCode: "DE", limit: 50))
            #expect(results.map(\.place.id) == ["nominatim:way/518071791", "nominatim:relation/62422"])
            let gate = try #require(results.first).place
            #expect(gate.name == "Brandenburger Tor")
            #expect(gate.displayName == "Brandenburger Tor, Pariser Platz, Mitte, Berlin, 10117, Deutschland")
            #expect(gate.coordinate == Coordinate(latitude: 52.5162699, longitude: 13.3777034))
            #expect(gate.address == Address(houseNumber: "1", street: "Pariser Platz", postcode: "10117", town: "Berlin"))
            #expect(gate.countryCode == "DE")
            #expect(gate.category == "attraction")
            #expect(gate.source == "nominatim")
            #expect(results[1].place.category == nil, "a city is a place, not a venue")
            #expect(results[1].place.admin1 == "Berlin")
            #expect((results[0].distanceMeters ?? 0) > 1_000)

            let sent = try #require(server.requests.first)
            #expect(sent.path == "/search")
            #expect(sent.query["format"] == "jsonv2" && sent.query["addressdetails"] == "1")
            #expect(sent.query["q"] == "Brandenburger Tor")
            #expect(sent.query["countrycodes"] == "de")
            #expect(sent.query["limit"] == "40", "Nominatim's cap")
            let box = (sent.query["viewbox"] ?? "").split(separator: ",").compactMap { Double($0) }
            let expectedBox = [12.9, 53.02, 13.9, 52.02]
            #expect(box.count == 4 && zip(box, expectedBox).allSatisfy { abs($0 - $1) < 1e-9 }, "a ±0.5° bias box around near")
            #expect(sent.headers["user-agent"]?.hasPrefix("Pindrop/") == true, "Nominatim requires an identifying User-Agent")
        }
    }

    @Test("reverse gives the street address: number, street, postcode, town")
    func reverse() async throws {
        try await withFake(.nominatim) { server in
            let client = NominatimClient(configuration: try configuration(for: server))
            let point = Coordinate(latitude: 52.5163, longitude: 13.3794)
            let results = try await client.reverse(try ReverseRequest(coordinate: point))
            let place = try #require(results.first).place
            #expect(results.count == 1)
            #expect(place.id == "nominatim:node/3790600765")
            #expect(place.name == "Pariser Platz 7")
            let address = try #require(place.address)
            #expect([address.houseNumber, address.street, address.postcode, address.town] == ["7", "Pariser Platz", "10117", "Berlin"])
            // Germany's template: the street, then its number; the postcode before the town.
            #expect(AddressFormatter.streetLine(address, countryCode: "DE") == "Pariser Platz 7, 10117 Berlin")
            #expect(place.category == nil)
            let sent = try #require(server.requests.first)
            #expect(sent.path == "/reverse" && sent.query["lat"] == "52.5163" && sent.query["lon"] == "13.3794")
        }
    }

    @Test("requests are kept a minimum interval apart")
    func pacing() async throws {
        try await withFake(.nominatim) { server in
            let client = NominatimClient(configuration: try configuration(for: server), minimumInterval: .milliseconds(200))
            let request = try SearchRequest(text: "Berlin")
            let started = ContinuousClock.now
            for _ in 0..<3 { _ = try await client.search(request) }
            #expect(ContinuousClock.now - started >= .milliseconds(400))
            #expect(server.requests.count == 3)
        }
    }

    @Test("a request whose turn is further away than the timeout is refused at once, so a fallback can answer")
    func pacingQueueFull() async throws {
        try await withFake(.nominatim) { server in
            let client = NominatimClient(configuration: try configuration(for: server, timeout: .seconds(2)),
                                         minimumInterval: .seconds(30))
            let request = try SearchRequest(text: "Berlin")
            _ = try await client.search(request)
            let started = ContinuousClock.now
            let error = await pindropError { try await client.search(request) }
            #expect(ContinuousClock.now - started < .seconds(2), "refused at once, not after waiting out the timeout")
            #expect(error?.code == "rate_limited")
            #expect(error?.message.contains("at most one request every 30 s") == true)
            #expect(server.requests.count == 1)
        }
    }
}

@Suite("Photon client")
struct ProviderPhotonTests {
    @Test("search decodes the GeoJSON FeatureCollection, with a location bias, language and box")
    func search() async throws {
        try await withFake(.photon) { server in
            let box = BoundingBox(south: 52.3, west: 13.0, north: 52.7, east: 13.8)
            let client = PhotonClient(configuration: try configuration(for: server), language: "de", boundingBox: box)
            let near = Coordinate(latitude: 52.52, longitude: 13.40)
            let results = try await client.search(try SearchRequest(text: "Brandenburger Tor", near: near, limit: 5))
            #expect(results.map(\.place.id) == ["photon:way/518071791", "photon:relation/62422"])
            let gate = results[0].place
            #expect(gate.name == "Brandenburger Tor")
            #expect(gate.displayName == "Brandenburger Tor, Pariser Platz 1, 10117 Berlin, Deutschland")
            #expect(gate.coordinate == Coordinate(latitude: 52.5162699, longitude: 13.3777034))
            #expect(gate.address == Address(houseNumber: "1", street: "Pariser Platz", postcode: "10117", town: "Berlin"))
            #expect(gate.category == "attraction")
            #expect(gate.countryCode == "DE" && gate.source == "photon")
            #expect(results[1].place.category == nil)
            #expect(results[1].place.displayName == "Berlin, Deutschland")

            let sent = try #require(server.requests.first)
            #expect(sent.path == "/api")
            #expect(sent.query["q"] == "Brandenburger Tor" && sent.query["limit"] == "5")
            #expect(sent.query["lat"] == "52.52" && sent.query["lon"] == "13.4")
            #expect(sent.query["lang"] == "de")
            #expect(sent.query["bbox"] == "13.0,52.3,13.8,52.7")
        }
    }

    @Test("a country filter keeps only places in that country")
    func countryFilter() async throws {
        try await withFake(.photon) { server in
            let client = PhotonClient(configuration: try configuration(for: server))
            #expect(try await client.search(try SearchRequest(text: "Berlin", countryCode: "DE")).count == 2)
            #expect(try await client.search(try SearchRequest(text: "Berlin", countryCode: "US")).isEmpty)
        }
    }

    @Test("suggest asks the same endpoint, and nothing below the minimum length")
    func suggest() async throws {
        try await withFake(.photon) { server in
            let client = PhotonClient(configuration: try configuration(for: server))
            #expect(try await client.suggest(try SuggestRequest(text: "Bra", minChars: 4)).isEmpty)
            #expect(server.requests.isEmpty)
            let results = try await client.suggest(try SuggestRequest(text: "Brand ", minChars: 4))
            #expect(results.first?.place.name == "Brandenburger Tor")
            #expect(server.requests.first?.query["q"] == "Brand")
        }
    }

    @Test("reverse names an unnamed house by its street and number")
    func reverse() async throws {
        try await withFake(.photon) { server in
            let client = PhotonClient(configuration: try configuration(for: server))
            let results = try await client.reverse(try ReverseRequest(coordinate: Coordinate(latitude: 52.5163, longitude: 13.3794)))
            let place = try #require(results.first).place
            #expect(place.id == "photon:node/3790600765")
            #expect(place.name == "Pariser Platz 7")
            let address = try #require(place.address)
            #expect([address.houseNumber, address.street, address.postcode, address.town] == ["7", "Pariser Platz", "10117", "Berlin"])
            // Germany's template: the street, then its number; the postcode before the town.
            #expect(AddressFormatter.streetLine(address, countryCode: "DE") == "Pariser Platz 7, 10117 Berlin")
            #expect((results[0].distanceMeters ?? 99) < 5)
            #expect(server.requests.first?.path == "/reverse")
        }
    }
}
