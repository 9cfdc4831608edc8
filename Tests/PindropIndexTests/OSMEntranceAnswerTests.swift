import PindropCore
import Testing
@testable import PindropIndex

/// The entrances of a place, on Nominatim's test data: the church building of Nominatim's "Search with entrances"
/// scenario (way 692858157) has two `entrance` nodes on its outline, whose ids, values and points are the data's (as
/// Nominatim 5.3.3 answers them).
@Suite("OSM entrances in answers")
struct OSMEntranceAnswerTests {
    @Test("a building's entrance nodes come with it: id, kind and point")
    func churchBuilding() throws {
        let place = try #require(LiechtensteinIndex.index.place(id: "osm:way/692858157"))
        let entrances = try #require(place.entrances)
        #expect(entrances.map(\.nodeID) == [6_504_823_563, 6_504_823_660])
        #expect(entrances.map(\.kind) == ["yes", "main"])
        let points = [(32.4742267, -86.4532963), (32.4741452, -86.4527155)]
        for (entrance, (latitude, longitude)) in zip(entrances, points) {
            #expect(abs(entrance.coordinate.latitude - latitude) < 1e-7 && abs(entrance.coordinate.longitude - longitude) < 1e-7)
        }
        // Found by its name too, with them.
        let found = try LiechtensteinIndex.index.search(SearchRequest(text: "Church Building", limit: 5)).map(\.place)
        #expect(found.first { $0.id == "osm:way/692858157" }?.entrances?.count == 2)
    }

    @Test("a place without entrance nodes has none")
    func none() throws {
        let place = try #require(LiechtensteinIndex.index.place(id: "osm:way/213915454"))
        #expect(place.entrances == nil)
    }
}
