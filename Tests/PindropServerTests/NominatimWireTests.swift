import Foundation
import PindropCore
import PindropTesting
import Testing
@testable import PindropServer

@Suite("Nominatim's wire: coordinates as its strings")
struct NominatimWireTests {
    @Test("a coordinate is written with 7 decimals, as printf's %.7f writes it away from exact halves, and zero without a sign")
    func degrees() {
        /// The digits as whole and fraction strings joined, the former way of writing them.
        func joined(_ value: Double) -> String {
            let scaled = Int64((abs(value) * 1e7).rounded())
            let fraction = String(scaled % 10_000_000)
            return (value < 0 && scaled != 0 ? "-" : "") + String(scaled / 10_000_000) + "."
                + String(repeating: "0", count: 7 - fraction.count) + fraction
        }
        let edges: [Double] = [0, -0.0, 1e-8, -1e-8, 0.00000005, -0.00000005, 90, -90, 180, -180, 179.99999995, -179.99999995,
                               1e-7, -1e-7, 9.9999999, -9.99999996]
        for value in edges { #expect(NominatimWire.degrees(value) == joined(value), "\(value)") }
        #expect(NominatimWire.degrees(-1e-8) == "0.0000000" && NominatimWire.degrees(-33.86785) == "-33.8678500")
        // Seeded: the same values every run, so a run does not pass or fail by the draw.
        var random = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let value = random.unit() * 360 - 180
            #expect(NominatimWire.degrees(value) == String(format: "%.7f", value), "\(value)")
        }
    }

    @Test("degrees written into a document are the same strings, each a JSON string with a comma before it where one is due")
    func degreesInDocument() throws {
        let values = [60.16952, -33.86785, 0, -1e-8, 179.99999995, -180]
        var w = JSONWriter()
        w.beginObject()
        w.key("box"); w.beginArray()
        for value in values { NominatimWire.writeDegrees(value, into: &w) }
        w.endArray()
        w.key("lat"); NominatimWire.writeDegrees(values[0], into: &w)
        w.endObject()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
        #expect(document["box"] as? [String] == values.map(NominatimWire.degrees))
        #expect(document["lat"] as? String == "60.1695200")
    }
}

@Suite("Nominatim's entrances")
struct NominatimEntranceTests {
    /// The church building of Nominatim's "Search with entrances" scenario, with its two entrance nodes as the data has
    /// them (a ref on the main one, to show the extra tags).
    static let church: Place = {
        var place = Place(id: "osm:way/692858157", name: "Church Building", displayName: "Church Building, North Memorial Drive",
                          coordinate: Coordinate(latitude: 32.4744217, longitude: -86.4527229), countryCode: "US",
                          category: "place_of_worship", kind: .venue, categoryKey: "amenity")
        place.entrances = [PlaceEntrance(nodeID: 6_504_823_563, kind: "yes", coordinate: Coordinate(latitude: 32.4742267, longitude: -86.4532963)),
                           PlaceEntrance(nodeID: 6_504_823_660, kind: "main", coordinate: Coordinate(latitude: 32.4741452, longitude: -86.4527155),
                                         tags: ["ref": "A"])]
        return place
    }()

    @Test("entrances=1 lists each entrance as Nominatim does: osm_id, type, lat and lon as strings, extratags; without it, none")
    func listed() async throws {
        var server = TestServer()
        server.store = RecordingStore(places: [Self.church])
        try await server.test { client in
            for format in ["json", "jsonv2"] {
                let body = try await client.get("/search?q=Church+Building&format=\(format)&entrances=1").body
                let results = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [[String: Any]])
                let entrances = try #require(results.first?["entrances"] as? [[String: Any]])
                #expect(entrances.map { $0["osm_id"] as? Int } == [6_504_823_563, 6_504_823_660])
                #expect(entrances.map { $0["type"] as? String } == ["yes", "main"])
                #expect(entrances.map { $0["lat"] as? String } == ["32.4742267", "32.4741452"])
                #expect(entrances.map { $0["lon"] as? String } == ["-86.4532963", "-86.4527155"])
                #expect((entrances[1]["extratags"] as? [String: String]) == ["ref": "A"] && entrances[0]["extratags"] == nil)
                let plain = try await client.get("/search?q=Church+Building&format=\(format)").body
                let without = try #require(try JSONSerialization.jsonObject(with: Data(buffer: plain)) as? [[String: Any]])
                #expect(without.first?["entrances"] == nil)
            }
            let v1 = try await client.get("/v1/search?q=Church+Building").body
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(buffer: v1)) as? [String: Any])
            let first = try #require((answer["results"] as? [[String: Any]])?.first)
            let listed = try #require(first["entrances"] as? [[String: Any]])
            #expect(listed.map { $0["id"] as? String } == ["osm:node/6504823563", "osm:node/6504823660"] && listed[1]["kind"] as? String == "main")
        }
    }
}
