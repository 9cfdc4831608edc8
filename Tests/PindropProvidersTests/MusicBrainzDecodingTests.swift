import Foundation
import PindropCore
@testable import PindropProviders
import PindropTesting
import Testing

/// A place search answer in MusicBrainz's shape (`/ws/2/place?query=copenhagen&fmt=json`): coordinates as
/// strings, empty parts left out, areas with their own empty life-span.
let copenhagenSearchJSON = """
{"created":"2024-05-14T09:12:44.331Z","count":7,"offset":0,"places":[
 {"id":"4b7a6f8e-1c52-4a55-9a0b-6f2d1c1e2a01","type":"Venue","type-id":"cd92781a-a73f-30e8-a430-55d7521338db","score":100,
  "name":"Vega","address":"Enghavevej 40, 1674 København V","coordinates":{"latitude":"55.668056","longitude":"12.544167"},
  "area":{"id":"e0fd1c9d-7d6e-4d8c-b0e3-0d6b1a0f9c11","type":"City","name":"Copenhagen","sort-name":"Copenhagen","life-span":{"ended":null}},
  "life-span":{"begin":"1996-11","ended":null}},
 {"id":"4b7a6f8e-1c52-4a55-9a0b-6f2d1c1e2a02","type":"Indoor arena","score":97,"name":"Royal Arena",
  "address":"Hannemanns Allé 18, 2300 København S","coordinates":{"latitude":"55.625278","longitude":"12.576389"},
  "area":{"id":"e0fd1c9d-7d6e-4d8c-b0e3-0d6b1a0f9c11","name":"Copenhagen","sort-name":"Copenhagen"},
  "life-span":{"begin":"2017-02-03","ended":null}},
 {"id":"4b7a6f8e-1c52-4a55-9a0b-6f2d1c1e2a03","type":"Studio","score":95,"name":"Sweet Silence Studios",
  "coordinates":{"latitude":"55.6727","longitude":"12.5530"},
  "area":{"id":"e0fd1c9d-7d6e-4d8c-b0e3-0d6b1a0f9c11","name":"Copenhagen","sort-name":"Copenhagen"},
  "life-span":{"begin":"1976","end":"2020","ended":true}},
 {"id":"4b7a6f8e-1c52-4a55-9a0b-6f2d1c1e2a04","type":"Venue","score":90,"name":"Jazzhouse",
  "address":"Niels Hemmingsens Gade 10, 1153 København K",
  "area":{"id":"e0fd1c9d-7d6e-4d8c-b0e3-0d6b1a0f9c11","name":"Copenhagen","sort-name":"Copenhagen"},
  "life-span":{"begin":"1991","ended":null}},
 {"id":"4b7a6f8e-1c52-4a55-9a0b-6f2d1c1e2a05","type":"Studio","score":88,"name":"Basement Tapes",
  "area":{"id":"e0fd1c9d-7d6e-4d8c-b0e3-0d6b1a0f9c11","name":"Copenhagen","sort-name":"Copenhagen"},
  "life-span":{"begin":"2005","ended":null}},
 {"id":"4b7a6f8e-1c52-4a55-9a0b-6f2d1c1e2a06","type":"Venue","score":80,"name":"Tivoli Concert Hall",
  "address":"Vesterbrogade 3, 1630 København V","coordinates":{"latitude":"55.6737","longitude":"12.5681"},
  "aliases":[{"name":"Tivolis Koncertsal","locale":"da","primary":true,"type":"Place name"}]},
 {"id":"4b7a6f8e-1c52-4a55-9a0b-6f2d1c1e2a07","score":70,"type":"Studio",
  "coordinates":{"latitude":"55.7","longitude":"12.6"},"life-span":{"begin":"2001"}}
]}
"""

@Suite("MusicBrainz JSON and place preparation")
struct MusicBrainzDecodingTests {
    static func decodedCopenhagen() throws -> MusicBrainzPlaceSearchResponse {
        try JSONDecoder().decode(MusicBrainzPlaceSearchResponse.self, from: Data(copenhagenSearchJSON.utf8))
    }

    static func search(geocoder: (any PlaceSearching)? = nil, since: Int = 1990) throws -> MusicBrainzPlaceSearch {
        let client = MusicBrainzClient(configuration: try MusicBrainzConfiguration(baseURL: "http://127.0.0.1:9"), geocoder: geocoder)
        return MusicBrainzPlaceSearch(client: client, text: "copenhagen", sinceYear: since)
    }

    @Test("search results: string coordinates, missing address / coordinates / life-span, unreadable place kept as nil")
    func decodesSearchShape() throws {
        let response = try Self.decodedCopenhagen()
        #expect(response.count == 7 && response.offset == 0 && response.places.count == 7)
        let vega = try #require(response.places[0])
        #expect(vega.name == "Vega" && vega.type == "Venue" && vega.score == 100)
        #expect(vega.coordinates == Coordinate(latitude: 55.668056, longitude: 12.544167))
        #expect(vega.address == "Enghavevej 40, 1674 København V")
        #expect(vega.area?.name == "Copenhagen" && vega.area?.sortName == "Copenhagen")
        #expect(vega.openYear == 1996)
        let jazzhouse = try #require(response.places[3])
        #expect(jazzhouse.coordinates == nil && jazzhouse.address != nil)
        let tivoli = try #require(response.places[5])
        #expect(tivoli.lifeSpan == nil && tivoli.openYear == nil && tivoli.area == nil)
        #expect(response.places[6] == nil, "a place without a name cannot be shown")
    }

    @Test("lookups write coordinates as numbers; both forms decode; off-globe or empty coordinates count as none")
    func decodesNumericCoordinates() throws {
        let lookup = #"{"id":"x","name":"Vega","coordinates":{"latitude":55.668056,"longitude":12.544167},"life-span":{"begin":"1996-11-01"}}"#
        let place = try JSONDecoder().decode(MusicBrainzPlace.self, from: Data(lookup.utf8))
        #expect(place.coordinates == Coordinate(latitude: 55.668056, longitude: 12.544167) && place.openYear == 1996)
        let broken = #"{"id":"y","name":"Nowhere","coordinates":{"latitude":"","longitude":"91.5"}}"#
        #expect(try JSONDecoder().decode(MusicBrainzPlace.self, from: Data(broken.utf8)).coordinates == nil)
        let outside = #"{"id":"z","name":"Off","coordinates":{"latitude":"95.0","longitude":"10"}}"#
        #expect(try JSONDecoder().decode(MusicBrainzPlace.self, from: Data(outside.utf8)).coordinates == nil)
    }

    @Test("keeps places opened in or after 1990; lifespan is year - 1990 seconds (2017 -> 27 s)")
    func yearFilterAndLifespan() async throws {
        let page = try await Self.search().prepare(try Self.decodedCopenhagen().places)
        let byName = Dictionary(uniqueKeysWithValues: page.items.map { ($0.name, $0) })
        #expect(byName["Royal Arena"]?.lifespanSeconds == 27 && byName["Royal Arena"]?.openYear == 2017)
        #expect(byName["Vega"]?.lifespanSeconds == 6)
        #expect(byName["Vega"]?.id == "musicbrainz:4b7a6f8e-1c52-4a55-9a0b-6f2d1c1e2a01")
        #expect(byName["Sweet Silence Studios"] == nil, "opened 1976")
        #expect(byName["Tivoli Concert Hall"] == nil, "no life-span, so no opening year")
        #expect(page.items.map(\.name) == ["Vega", "Royal Arena"], "kept in the service's order")
    }

    @Test("the since year is configurable and lifespans count from it")
    func configurableSince() async throws {
        let page = try await Self.search(since: 1970).prepare(try Self.decodedCopenhagen().places)
        #expect(page.items.first { $0.name == "Sweet Silence Studios" }?.lifespanSeconds == 6)
    }

    @Test("without a geocoder, qualifying places with no coordinates are skipped and counted (unreadable ones too)")
    func skipCounting() async throws {
        let page = try await Self.search().prepare(try Self.decodedCopenhagen().places)
        // Jazzhouse (address only), Basement Tapes (nothing) and the unreadable place.
        #expect(page.skipped == 3)
    }

    @Test("a place without coordinates is geocoded from its address and area; without an address it is skipped")
    func geocodingFallback() async throws {
        let jazzhouse = Place(id: "osm:node/1", name: "Niels Hemmingsens Gade 10",
                              displayName: "Niels Hemmingsens Gade 10, 1153 København K, Copenhagen",
                              coordinate: Coordinate(latitude: 55.6802, longitude: 12.5797))
        let page = try await Self.search(geocoder: FakeStore(places: [SamplePlaces.helsinki, jazzhouse]))
            .prepare(try Self.decodedCopenhagen().places)
        let geocoded = try #require(page.items.first { $0.name == "Jazzhouse" })
        #expect(geocoded.isGeocoded && geocoded.coordinate == jazzhouse.coordinate)
        #expect(geocoded.lifespanSeconds == 1)
        #expect(page.items.filter(\.isGeocoded).count == 1, "places with coordinates keep their own")
        #expect(page.skipped == 2, "Basement Tapes has no address; the unreadable place")
    }

    @Test("with only towns known (the GeoNames index), an address lands on its town; an unknown town is skipped")
    func townFallback() async throws {
        let copenhagen = Place(id: "geonames:2618425", name: "Copenhagen", displayName: "Copenhagen, Capital Region, Denmark",
                               coordinate: Coordinate(latitude: 55.67594, longitude: 12.56553))
        let page = try await Self.search(geocoder: FakeStore(places: [SamplePlaces.helsinki, copenhagen]))
            .prepare(try Self.decodedCopenhagen().places)
        let jazzhouse = try #require(page.items.first { $0.name == "Jazzhouse" })
        #expect(jazzhouse.isGeocoded && jazzhouse.coordinate == copenhagen.coordinate)

        let elsewhere = try await Self.search(geocoder: FakeStore(places: [SamplePlaces.helsinki]))
            .prepare(try Self.decodedCopenhagen().places)
        #expect(!elsewhere.items.contains { $0.name == "Jazzhouse" } && elsewhere.skipped == 3)
    }

    @Test("geocoding queries go from the whole address to its town (postcodes dropped) to the area")
    func geocodingQueries() {
        #expect(MusicBrainzPlaceSearch.geocodingQueries(address: "Istedgade 174, 1123 København K", area: "Copenhagen")
                == ["Istedgade 174, 1123 København K, Copenhagen", "Istedgade 174, 1123 København K", "København K", "Copenhagen"])
        #expect(MusicBrainzPlaceSearch.geocodingQueries(address: "3 Abbey Road, London NW8 9AY", area: "London")
                == ["3 Abbey Road, London NW8 9AY", "London"])
        #expect(MusicBrainzPlaceSearch.geocodingQueries(address: "  ", area: "Berlin").isEmpty)
    }

    @Test("configuration: User-Agent with contact, the public service needs a contact, bad URLs are clear errors")
    func configuration() throws {
        let local = try MusicBrainzConfiguration(baseURL: "http://127.0.0.1:8081/", contact: "me@example.org")
        #expect(local.baseURL == "http://127.0.0.1:8081")
        #expect(local.userAgent == "Pindrop/\(MusicBrainzConfiguration.clientVersion) ( me@example.org )")
        #expect(throws: PindropError.self) { try MusicBrainzConfiguration(contact: nil) }
        do {
            _ = try MusicBrainzConfiguration(baseURL: "ftp://musicbrainz.org", contact: "me@example.org")
            Issue.record("an ftp URL was accepted")
        } catch {
            #expect(error.message.contains("must look like https://musicbrainz.org"))
        }
        let resolved = try MusicBrainzConfiguration.resolve(baseURL: nil, contact: nil, environment: [
            "PINDROP_MUSICBRAINZ_URL": "http://127.0.0.1:9000", "PINDROP_MUSICBRAINZ_CONTACT": "ops@example.org"])
        #expect(resolved.baseURL == "http://127.0.0.1:9000" && resolved.contact == "ops@example.org")
        let optionWins = try MusicBrainzConfiguration.resolve(baseURL: "http://localhost:1", contact: "a@b.c",
                                                              environment: ["PINDROP_MUSICBRAINZ_URL": "http://127.0.0.1:9000"])
        #expect(optionWins.baseURL == "http://localhost:1")
    }

    @Test("query text is percent-encoded so Lucene syntax reaches the service intact")
    func percentEncoding() {
        #expect(ProviderHTTP.percentEncoded("type:studio AND area:\"København\"+x")
                == "type%3Astudio%20AND%20area%3A%22K%C3%B8benhavn%22%2Bx")
    }
}
