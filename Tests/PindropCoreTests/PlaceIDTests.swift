import Testing
import PindropCore

/// Every kind of place id, written and read back by the one type that knows their forms.
@Suite("Place ids")
struct PlaceIDTests {
    @Test("each kind of id reads back as it was written", arguments: [
        ("geonames:2988507", PlaceID.geonames(2988507)),
        ("osm:node/240109189", .osm(.init(.node, 240109189))),
        ("osm:way/122595241", .osm(.init(.way, 122595241))),
        ("osm:relation/1155955", .osm(.init(.relation, 1155955))),
        ("postcode:li:9490", .postcode(country: "li", code: "9490")),
        ("postcode:gb:GU2 7UP", .postcode(country: "gb", code: "GU2 7UP")),
        ("nominatim:way/518071791", .provider(name: "nominatim", id: "way/518071791")),
        ("photon:relation/62422", .provider(name: "photon", id: "relation/62422")),
        ("google:ChIJLU7jZClu5kcR4PcOOO6p3I0", .provider(name: "google", id: "ChIJLU7jZClu5kcR4PcOOO6p3I0")),
        ("musicbrainz:4352063b-a833-421b-a420-e7fb295dece0", .provider(name: "musicbrainz", id: "4352063b-a833-421b-a420-e7fb295dece0")),
    ])
    func roundTrip(text: String, id: PlaceID) {
        #expect(PlaceID(text) == id)
        #expect(id.description == text)
    }

    @Test("a text that names no place is no id", arguments: [
        "", "geonames", ":123", "geonames:", "geonames:abc", "geonames:-5", "osm:node", "osm:street/5", "osm:node/x", "osm:way/", "postcode:", "postcode:li", "postcode::9490", "postcode:li:",
    ])
    func notAnID(text: String) {
        #expect(PlaceID(text) == nil)
    }

    @Test("the OpenStreetMap object of an id, whoever answered it")
    func osmObject() {
        #expect(PlaceID.osmObject(of: "osm:way/45") == .init(.way, 45))
        #expect(PlaceID.osmObject(of: "nominatim:relation/62422") == .init(.relation, 62422))
        #expect(PlaceID.osmObject(of: "photon:node/1") == .init(.node, 1))
        #expect(PlaceID.osmObject(of: "geonames:2988507") == nil)
        #expect(PlaceID.osmObject(of: "google:ChIJ") == nil)
    }

    @Test("Nominatim's osm_ids form: N, W or R and a positive number", arguments: [
        ("N123", PlaceID.OSMObject(.node, 123)), ("w45", .init(.way, 45)), ("R6", .init(.relation, 6)),
    ])
    func nominatimForm(text: String, object: PlaceID.OSMObject) {
        #expect(PlaceID.OSMObject(nominatim: text) == object)
        #expect(object.kind.letter == text.prefix(1).uppercased())
    }

    @Test("what is not Nominatim's osm_ids form", arguments: ["", "N", "X12", "N-3", "N0", "W1.5", "node/1"])
    func notNominatimForm(text: String) {
        #expect(PlaceID.OSMObject(nominatim: text) == nil)
    }
}
