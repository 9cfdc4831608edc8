import Foundation
import PindropCore
import PindropTesting
import Testing
@testable import PindropIndex

/// Addresses as Nominatim builds them from OpenStreetMap, on Nominatim's own test data (Liechtenstein and the objects
/// its tests add: nodes 1 and 2, numbered 1001 and 1051, joined by the odd interpolation way 1; node 3, house 6 of the
/// place Silum). Expectations are the data's tags and coordinates.
@Suite("OSM addresses in answers: interpolation, parent streets, parts of town, towns as their boundaries")
struct OSMAddressAnswerTests {
    static func first(_ text: String) throws -> Place {
        try #require(try LiechtensteinIndex.index.search(SearchRequest(text: text, limit: 5)).first).place
    }

    @Test("a number on an interpolation line is at its share of the way between the numbered nodes, and says so")
    func interpolated() throws {
        let place = try Self.first("Grosssteg 1023, Triesenberg")
        #expect(place.address?.houseNumber == "1023" && place.address?.street == "Grosssteg")
        #expect(place.id == "osm:way/1" && place.tags?["addr:interpolation"] == "odd")
        // (1023 - 1001) / (1051 - 1001) = 0.44 of the way from node 1 to node 2.
        let node1 = Coordinate(latitude: 47.11855, longitude: 9.5697463), node2 = Coordinate(latitude: 47.1185372, longitude: 9.5719698)
        let expected = Coordinate(latitude: node1.latitude + 0.44 * (node2.latitude - node1.latitude),
                                  longitude: node1.longitude + 0.44 * (node2.longitude - node1.longitude))
        #expect(place.coordinate.distance(to: expected) < 1)
        // The numbered nodes are real houses; an even number is on no odd line, so the street answers.
        let real = try Self.first("Grosssteg 1001, Triesenberg")
        #expect(real.id == "osm:node/1" && real.tags?["addr:interpolation"] == nil)
        #expect(try Self.first("Grosssteg 1024, Triesenberg").kind == .street)
        // Reverse at the interpolated point answers its number.
        let reversed = try #require(try LiechtensteinIndex.index.reverse(ReverseRequest(coordinate: expected, level: .building)).first)
        #expect(reversed.place.address?.houseNumber == "1023")
    }

    @Test("a house number without addr:street belongs to the nearest street (way 213915454 is Im Winkel 8)")
    func parentStreet() throws {
        let place = try Self.first("Im Winkel 8, Triesen")
        #expect(place.id == "osm:way/213915454" && place.address?.street == "Im Winkel" && place.address?.houseNumber == "8")
        #expect(place.address?.postcode == "9495" && place.address?.town == "Triesen")
    }

    @Test("a number no house has falls back to the street, with the part of town it runs through")
    func streetFallback() throws {
        let place = try Self.first("Bündaweg 555")
        #expect(place.kind == .street && place.name == "Bündaweg" && place.address?.houseNumber == nil)
        // Silum is a place=village node of Triesenberg, 900 m from the track.
        #expect(place.address?.place == "Silum" && place.address?.placeKind == "village" && place.address?.town == "Triesenberg")
        #expect(place.address?.postcode == "9497")
    }

    @Test("a part of town after the comma narrows as the town does (way 399332649, Lochgass 5, lies in Ebenholz, place node 3577169505)")
    func partOfTownQualifier() throws {
        for text in ["Lochgass 5, Ebenholz, Vaduz", "Lochgass 5, Ebenholz"] {
            let place = try Self.first(text)
            #expect(place.id == "osm:way/399332649" && place.address?.houseNumber == "5" && place.address?.town == "Vaduz", "\(text)")
        }
    }

    @Test("a house of a place without a street (addr:place) is found by it, the place's kind known")
    func addrPlace() throws {
        let place = try Self.first("6 Silum")
        #expect(place.id == "osm:node/3" && place.address?.place == "Silum" && place.address?.placeKind == "village")
        #expect(place.address?.street == nil && place.address?.postcode == "9497")
    }

    @Test("a boundary is found by its other names (relation 1155955: official_name, official_name:en)")
    func boundaryOtherNames() throws {
        #expect(try Self.first("Fürstentum Liechtenstein").id == "osm:relation/1155955")
        #expect(try Self.first("Principality of Liechtenstein").id == "osm:relation/1155955")
    }

    @Test("a town and its municipal boundary are one place: the boundary's id, level, code and postcode, its node's kind")
    func townAsBoundary() throws {
        let vaduz = try Self.first("Vaduz")
        // Relation 1155956: boundary=administrative, admin_level=8, ISO3166-2=LI-11; node Vaduz is place=town.
        #expect(vaduz.id.hasPrefix("geonames:") && vaduz.boundaryID == "osm:relation/1155956")
        #expect(vaduz.tags?["admin_level"] == "8" && vaduz.tags?["linked_place"] == "town" && vaduz.address?.townKind == "town")
        #expect(vaduz.address?.subdivisionCodes == [SubdivisionCode(adminLevel: 8, code: "LI-11")])
        #expect(vaduz.address?.postcode == "9490")
        // An address inside Triesenberg (relation 1155948, ISO3166-2=LI-10) carries its code.
        let house = try Self.first("Gnalpstrasse 0")
        #expect(house.address?.subdivisionCodes?.contains(SubdivisionCode(adminLevel: 8, code: "LI-10")) == true)
    }
}
