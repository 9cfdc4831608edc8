import PindropCore
import Testing
@testable import PindropIndex

/// Deduplication off: a street answered as each OpenStreetMap way it is made of, as Nominatim answers `dedupe=0`
/// (the expectations are Nominatim 5.3.3's answers on the same extract).
@Suite("Streets as their ways (dedupe off)")
struct StreetWaysTests {
    static func search(_ text: String, dedupe: Bool, limit: Int = 10) throws -> [Place] {
        var request = try SearchRequest(text: text, limit: limit)
        request.dedupe = dedupe
        return try LiechtensteinIndex.index.search(request).map(\.place)
    }

    @Test("\"Malbunstr, Schaan\" is one street, and with dedupe off the four ways of it in Schaan, each on its own line")
    func malbunstrasse() throws {
        #expect(try Self.search("Malbunstr, Schaan", dedupe: true).map(\.id) == ["osm:way/156628349"])
        let ways = try Self.search("Malbunstr, Schaan", dedupe: false)
        #expect(Set(ways.map(\.id)) == ["osm:way/156628349", "osm:way/440003694", "osm:way/440003697", "osm:way/440003698"])
        for way in ways {
            #expect(way.name == "Malbunstrasse" && way.kind == .street && way.address?.town == "Schaan", "\(way.id)")
            #expect(way.boundingBox?.contains(way.coordinate) == true, "\(way.id): its point lies off its line")
        }
        #expect(Set(ways.compactMap(\.boundingBox).map { "\($0)" }).count == 4, "each way has a box of its own")
    }

    @Test("with dedupe off the limit counts ways, each way once")
    func limit() throws {
        let ten = try Self.search("landstr", dedupe: false)
        #expect(ten.count == 10 && Set(ten.map(\.id)).count == 10)
        #expect(try Self.search("landstr", dedupe: false, limit: 4).map(\.id) == Array(ten.prefix(4).map(\.id)))
    }
}
