import Foundation
import PindropCore
@testable import PindropImport
import PindropTesting
import Testing

@Suite("OSM change files")
struct OSMChangeTests {
    static let document = """
        <?xml version='1.0' encoding='UTF-8'?>
        <!-- as osmium derive-changes writes them -->
        <osmChange version="0.6" generator="osmium/1.15.0">
          <create>
            <node id="90000000001" version="1" timestamp="2021-01-06T15:54:42Z" lat="47.1391" lon="-9.5203">
              <tag k="name" v="Caf&#233; &quot;Zur Post&quot; &amp; Bar"/>
              <tag k="note" v="two&#10;lines"/>
            </node>
          </create>
          <modify>
            <way id="6203383" version="3" timestamp="2021-01-06T15:55:42Z">
              <nd ref="51631139"/>
              <nd ref="51680604"/>
              <tag k="highway" v="residential"/>
            </way>
            <relation id="75155" version="12" timestamp="2021-01-06T15:56:42Z">
              <member type="way" ref="1" role="outer"/>
              <member type="node" ref="2" role=""/>
              <tag k="type" v="boundary"/>
            </relation>
          </modify>
          <delete>
            <node id="280027827" version="9"/>
          </delete>
        </osmChange>
        """

    @Test("reads created, modified and deleted objects with their tags, references, members and versions")
    func readsEveryPart() throws {
        let change = try OSMChangeReader.parse(Array(Self.document.utf8))
        #expect(change.edits.map(\.action) == [.create, .modify, .modify, .delete])
        #expect(change.edits.map(\.version) == [1, 3, 12, 9])
        guard case .node(let node)? = change.edits[0].element else { Issue.record("not a node"); return }
        #expect(node.tags["name"] == "Café \"Zur Post\" & Bar" && node.tags["note"] == "two\nlines")
        #expect(node.timestamp == 1_609_948_482)
        // Read exactly as the PBF reader makes a coordinate from nanodegrees.
        #expect(node.coordinate.latitude == Double(47_139_100_000) * 1e-9 && node.coordinate.longitude == Double(-9_520_300_000) * 1e-9)
        guard case .way(let way)? = change.edits[1].element, case .relation(let relation)? = change.edits[2].element else {
            Issue.record("not a way and a relation"); return
        }
        #expect(way.nodeIDs == [51_631_139, 51_680_604] && way.tags["highway"] == "residential")
        #expect(relation.members == [OSMRelationMember(type: .way, id: 1, role: "outer"), OSMRelationMember(type: .node, id: 2, role: "")])
        #expect(change.edits[3].key == OSMElementKey(type: .node, id: 280_027_827) && change.edits[3].element == nil)
    }

    @Test("refuses a damaged file whole, saying where", arguments: [
        ("a cut file", String(document.prefix(700)), "truncated"),
        ("a tag without a value", document.replacingOccurrences(of: "v=\"residential\"", with: ""), "lacks k or v"),
        ("text between tags", document.replacingOccurrences(of: "<delete>", with: "<delete>oops"), "unexpected text"),
        ("a node without a place", document.replacingOccurrences(of: "lat=\"47.1391\"", with: ""), "no valid lat and lon"),
        ("a latitude off the globe", document.replacingOccurrences(of: "lat=\"47.1391\"", with: "lat=\"91\""), "no valid lat and lon"),
        ("an id that is not a number", document.replacingOccurrences(of: "id=\"6203383\"", with: "id=\"x\""), "numeric id"),
        ("an unknown element", document.replacingOccurrences(of: "<nd ref=\"51631139\"/>", with: "<foo/>"), "unexpected <foo>"),
        ("an unknown entity", document.replacingOccurrences(of: "&amp;", with: "&bogus;"), "unknown entity"),
        ("another kind of file", "<osm version=\"0.6\"></osm>", "not an osmChange file"),
        ("an empty file", "", "not an osmChange file"),
    ])
    func refusesDamage(_ label: String, _ text: String, _ says: String) {
        #expect {
            _ = try OSMChangeReader.parse(Array(text.utf8))
        } throws: { error in
            guard case .unreadableData(let message)? = error as? PindropError else { return false }
            return message.contains(says)
        }
    }

    @Test("a file cut anywhere is refused as truncated")
    func cutAnywhere() {
        let bytes = Array(Self.document.utf8)
        for length in stride(from: 60, to: bytes.count - 2, by: 7) {
            #expect {
                _ = try OSMChangeReader.parse(Array(bytes[..<length]))
            } throws: { error in
                guard case .unreadableData(let message)? = error as? PindropError else { return false }
                return message.contains("truncated")
            }
        }
    }

    @Test("reads and writes OpenStreetMap's timestamps", arguments: [
        ("2021-01-06T15:54:42Z", Int64(1_609_948_482)), ("1969-12-31T23:59:59Z", -1), ("2000-02-29T00:00:00Z", 951_782_400),
    ])
    func timestamps(_ text: String, _ seconds: Int64) {
        #expect(OSMTimestamp.seconds(text) == seconds)
        #expect(OSMTimestamp.text(seconds) == text)
    }

    @Test("a change applied twice changes nothing; an older version than the one applied is refused, changing nothing")
    func versions() throws {
        let change = try OSMChangeReader.parse(Array(Self.document.utf8))
        var journal = OSMChangeJournal()
        let first = try journal.apply(change)
        #expect(first.created == 1 && first.modified == 2 && first.deleted == 1 && first.alreadyApplied == 0)
        #expect(first.newestTimestamp == 1_609_948_602)
        let again = try journal.apply(change)
        #expect(again.alreadyApplied == 4 && again.created + again.modified + again.deleted == 0)
        let before = journal.document()
        let older = Self.document.replacingOccurrences(of: "version=\"3\"", with: "version=\"2\"")
        #expect(throws: PindropError.self) { try journal.apply(OSMChangeReader.parse(Array(older.utf8))) }
        #expect(journal.document() == before)
    }

    @Test("the journal written and read back is the same journal")
    func journalRoundTrip() throws {
        var journal = OSMChangeJournal()
        try journal.apply(OSMChangeReader.parse(Array(Self.document.utf8)))
        var read = OSMChangeJournal()
        try read.apply(OSMChangeReader.parse(journal.document()))
        #expect(read.document() == journal.document() && read.count == 4)
    }

    @Test("changes laid over the Helsinki extract give the places of the changed data, read in memory")
    func overlay() throws {
        let data = try OSMTestData.helsinki()
        let (change, editedNodes) = try OSMTestData.helsinkiEdits()
        var journal = OSMChangeJournal()
        try journal.apply(change)
        let overlaid = try OSMFeatureExtractor().extract(from: OSMPBFReader(contentsOfFile: OSMTestData.helsinkiPath), changes: journal)
        var edited = data
        edited.nodes = editedNodes
        let deleted = try #require(change.edits.first { $0.action == .delete }).key.id
        let renamed = try #require(change.edits.first { $0.action == .modify }).key.id
        let expected = OSMFeatureExtractor().extract(from: edited)
        func places(_ features: OSMFeatures) -> [String] {
            features.venues.map { "\($0.id) \($0.name) \($0.category) \($0.coordinate.latitude) \($0.coordinate.longitude)" }
        }
        #expect(places(overlaid) == places(expected))
        #expect(overlaid.addressPoints.map(\.id) == expected.addressPoints.map(\.id))
        let names = Set(overlaid.venues.map(\.name))
        #expect(names.contains("Pindrop Kahvila") && names.contains("Uusi Nimi"))
        #expect(!overlaid.venues.contains { $0.id == "osm:node/\(deleted)" || $0.id == "osm:node/\(renamed)" && $0.name != "Uusi Nimi" })
    }

    @Test("changes laid over an index of two extracts: each object over the extract it belongs to, once")
    func overlayOfSeveralExtracts() throws {
        let helsinki = try OSMTestData.helsinki()
        let liechtenstein = try OSMPBFReader(contentsOfFile: ConformanceData.liechtensteinExtract).readAll()
        let deleted = try #require(helsinki.nodes.first { $0.tags["name"] != nil && $0.tags["amenity"] != nil })
        let original = try #require(liechtenstein.nodes.first { $0.tags["name"] != nil && $0.tags["amenity"] != nil })
        var renamed = original
        renamed.tags["name"] = "Neuer Name"
        // New objects: a café in each town, and a street in Vaduz over nodes the Liechtenstein extract holds.
        let helsinkiCafe = OSMNode(id: 90_000_000_001, coordinate: Coordinate(latitude: 60.17, longitude: 24.94),
                                   tags: ["amenity": "cafe", "name": "Pindrop Kahvila"])
        let vaduzCafe = OSMNode(id: 90_000_000_002, coordinate: Coordinate(latitude: 47.14, longitude: 9.52),
                                tags: ["amenity": "cafe", "name": "Pindrop Café"])
        let someWay = try #require(liechtenstein.ways.first { $0.tags["highway"] != nil && $0.nodeIDs.count >= 3 })
        let street = OSMWay(id: 90_000_000_003, nodeIDs: Array(someWay.nodeIDs.prefix(3)),
                            tags: ["highway": "residential", "name": "Pindropweg"])
        var journal = OSMChangeJournal()
        try journal.apply(OSMChange(edits: [
            .init(action: .delete, key: .init(type: .node, id: deleted.id), version: 99, element: nil),
            .init(action: .modify, key: .init(type: .node, id: original.id), version: 99, element: .node(renamed)),
            .init(action: .create, key: .init(type: .node, id: helsinkiCafe.id), version: 1, element: .node(helsinkiCafe)),
            .init(action: .create, key: .init(type: .node, id: vaduzCafe.id), version: 1, element: .node(vaduzCafe)),
            .init(action: .create, key: .init(type: .way, id: street.id), version: 1, element: .way(street)),
        ]))
        let overlaid = try OSMExtracts(files: [OSMTestData.helsinkiPath, ConformanceData.liechtensteinExtract], changes: journal)
            .readFeatures()
        // The same edits made to each extract's data by hand.
        var editedHelsinki = helsinki, editedLiechtenstein = liechtenstein
        editedHelsinki.nodes = helsinki.nodes.filter { $0.id != deleted.id } + [helsinkiCafe]
        editedLiechtenstein.nodes = liechtenstein.nodes.map { $0.id == original.id ? renamed : $0 } + [vaduzCafe]
        editedLiechtenstein.ways.append(street)
        let expected = [editedHelsinki, editedLiechtenstein].map { OSMFeatureExtractor().extract(from: $0) }
        func venues(_ features: [OSMFeatures]) -> [String] {
            features.flatMap(\.venues).map { "\($0.id) \($0.name) \($0.category) \($0.coordinate.latitude) \($0.coordinate.longitude)" }.sorted()
        }
        #expect(venues([overlaid]) == venues(expected))
        #expect(overlaid.streets.map(\.id).sorted() == expected.flatMap(\.streets).map(\.id).sorted())
        #expect(overlaid.addressPoints.map(\.id).sorted() == expected.flatMap(\.addressPoints).map(\.id).sorted())
        // Each new café once, in its town; the new street found with its nodes.
        #expect(overlaid.venues.count { $0.name == "Pindrop Kahvila" } == 1 && overlaid.venues.count { $0.name == "Pindrop Café" } == 1)
        #expect(overlaid.venues.contains { $0.name == "Neuer Name" } && !overlaid.venues.contains { $0.id == "osm:node/\(deleted.id)" })
        #expect(overlaid.streets.count { $0.name == "Pindropweg" } == 1)
    }
}
