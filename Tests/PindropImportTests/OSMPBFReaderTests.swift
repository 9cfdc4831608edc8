import PindropCore
import PindropImport
import PindropTesting
import Testing

@Suite("OSM PBF reader")
struct OSMPBFReaderTests {
    // MARK: The real Helsinki extract

    @Test("decodes the Helsinki extract's real counts (osmium: 24,260 / 5,130 / 620)")
    func helsinkiCounts() throws {
        let data = try OSMTestData.helsinki()
        #expect(data.nodes.count == 24_260)
        #expect(data.ways.count == 5_130)
        #expect(data.relations.count == 620)
        #expect(Set(data.nodes.map(\.id)).count == 24_260)
    }

    @Test("reads the header: features and the README's bounding box")
    func helsinkiHeader() throws {
        let header = try OSMTestData.helsinki().header
        #expect(header.requiredFeatures == ["OsmSchema-V0.6", "DenseNodes"])
        let box = try #require(header.boundingBox)
        #expect(abs(box.west - 24.9351762) < 1e-6 && abs(box.east - 24.9534145) < 1e-6)
        #expect(abs(box.south - 60.164155) < 1e-6 && abs(box.north - 60.179113) < 1e-6)
    }

    @Test("every node lies in the README's bounding box")
    func helsinkiNodesInBox() throws {
        let box = BoundingBox(south: 60.164155, west: 24.9351762, north: 60.179113, east: 24.9534145)
        let outside = try OSMTestData.helsinki().nodes.filter { !box.contains($0.coordinate) }
        #expect(outside.isEmpty)
    }

    @Test("timestamps span the README's 2007-09-24 … 2019-04-21")
    func helsinkiTimestamps() throws {
        let data = try OSMTestData.helsinki()
        let stamps = data.nodes.compactMap(\.timestamp) + data.ways.compactMap(\.timestamp)
            + data.relations.compactMap(\.timestamp)
        #expect(stamps.count == 24_260 + 5_130 + 620)
        #expect(stamps.min() == 1_190_644_680)  // 2007-09-24 14:38:00 UTC
        #expect(stamps.max() == 1_555_840_214)  // 2019-04-21 09:50:14 UTC
    }

    @Test("a dense node with tags: the Stockmann Roof bar, Aleksanterinkatu 52")
    func helsinkiTaggedNode() throws {
        let node = try #require(try OSMTestData.helsinki().nodes.first { $0.id == 6_049_453_017 })
        #expect(node.tags.only("name", "amenity", "addr:street", "addr:housenumber")
                == ["name": "Stockmann Roof", "amenity": "bar", "addr:street": "Aleksanterinkatu", "addr:housenumber": "52"])
        #expect(abs(node.coordinate.latitude - 60.1679617) < 1e-7)
        #expect(abs(node.coordinate.longitude - 24.9426871) < 1e-7)
    }

    @Test("ways: the Stockmann department store outline and a Mannerheimintie segment")
    func helsinkiWays() throws {
        let data = try OSMTestData.helsinki()
        let stockmann = try #require(data.ways.first { $0.id == 122_595_241 })
        #expect(stockmann.tags.only("name", "shop") == ["name": "Stockmann", "shop": "department_store"])
        #expect(stockmann.nodeIDs.count == 18)
        #expect(stockmann.nodeIDs.first == stockmann.nodeIDs.last)

        let mannerheimintie = try #require(data.ways.first { $0.id == 22_906_934 })
        #expect(mannerheimintie.tags.only("name", "highway") == ["name": "Mannerheimintie", "highway": "primary"])
        #expect(mannerheimintie.nodeIDs == [1_371_713_722, 279_044_844])  // delta-coded refs, the second one descending
        #expect(data.ways.filter { $0.tags["name"] == "Aleksanterinkatu" && $0.tags["highway"] != nil }.count >= 5)
    }

    @Test("relations: members, roles and types of the National Archives multipolygon")
    func helsinkiRelations() throws {
        let data = try OSMTestData.helsinki()
        let archives = try #require(data.relations.first { $0.id == 6066 })
        #expect(archives.tags.only("name", "type") == ["name": "Kansallisarkisto", "type": "multipolygon"])
        #expect(archives.members == [OSMRelationMember(type: .way, id: 17_360_178, role: "outer"),
                                     OSMRelationMember(type: .way, id: 22_114_184, role: "inner")])
        let types = Set(data.relations.flatMap { $0.members.map(\.type) })
        #expect(types == [.node, .way, .relation])
        #expect(data.relations.filter { $0.tags["type"] == "multipolygon" }.count == 110)
    }

    @Test("streaming hands out the same objects block by block")
    func helsinkiStreaming() throws {
        var nodes = 0, ways = 0, relations = 0, blocks = 0
        let header = try OSMPBFReader(bytes: OSMTestData.helsinkiBytes).forEachPrimitiveBlock { block in
            blocks += 1
            nodes += block.nodes.count; ways += block.ways.count; relations += block.relations.count
        }
        #expect(header.requiredFeatures.contains("DenseNodes"))
        #expect(blocks >= 1)
        #expect([nodes, ways, relations] == [24_260, 5_130, 620])
    }

    @Test("a decoding filter keeps the tags and relations asked for and every node and way, with what it keeps unchanged")
    func decodingFilter() throws {
        let all = try OSMTestData.helsinki()
        var nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []
        let filter = OSMDecodingFilter(keepsKey: { $0 == "name" || $0 == "type" }, keepsRelation: { $0["type"] == "multipolygon" })
        try OSMPBFReader(bytes: OSMTestData.helsinkiBytes).forEachPrimitiveBlock(filter: filter) { block in
            nodes += block.nodes; ways += block.ways; relations += block.relations
        }
        #expect(nodes.map(\.id) == all.nodes.map(\.id) && ways.map(\.id) == all.ways.map(\.id))
        #expect(nodes.map(\.coordinate) == all.nodes.map(\.coordinate) && ways.map(\.nodeIDs) == all.ways.map(\.nodeIDs))
        #expect(nodes.map(\.tags) == all.nodes.map { $0.tags.only("name", "type") })
        #expect(ways.map(\.tags) == all.ways.map { $0.tags.only("name", "type") })
        // Only the 110 multipolygons of the 620 relations, each with its members.
        let multipolygons = all.relations.filter { $0.tags["type"] == "multipolygon" }
        #expect(relations.count == 110)
        #expect(relations.map(\.members) == multipolygons.map(\.members))
        #expect(relations.map(\.tags) == multipolygons.map { $0.tags.only("name", "type") })
    }

    @Test("blocks decoded on two threads reach the caller in file order; a broken block fails after all before it",
          arguments: [0, 1, 2, 3, 6])
    func blockOrderAndLateFailure(broken: Int) throws {
        // Helsinki's 4 data blocks repeated, so each decoding thread has several; one of them made unreadable.
        let blocks = OSMTestPBF.blocks(of: OSMTestData.helsinkiBytes)
        let data = blocks.filter { $0.type == "OSMData" }
        let contents = (0..<3).flatMap { _ in data.map(\.content) }
        var file = blocks.filter { $0.type == "OSMHeader" }.flatMap { OSMTestPBF.fileBlock(type: $0.type, blob: OSMTestPBF.rawBlob($0.content)) }
        var offsets: [Int] = []
        for (i, content) in contents.enumerated() {
            offsets.append(file.count)
            var blob = OSMTestPBF.zlibBlob(content)
            if i == broken { blob[blob.count - 1] ^= 0xFF }  // breaks the Adler-32 checksum
            file += OSMTestPBF.fileBlock(type: "OSMData", blob: blob)
        }
        var seen: [Int] = [], firstIDs: [Int64] = []
        let error = #expect(throws: PindropError.self) {
            try OSMPBFReader(bytes: file).forEachPrimitiveBlock { block in
                seen.append(block.offset)
                firstIDs.append(block.nodes.first?.id ?? block.ways.first?.id ?? block.relations.first?.id ?? -1)
            }
        }
        #expect(error?.message.contains("corrupt zlib data") == true)
        #expect(seen == Array(offsets.prefix(broken)))
        // The same content in the same order: the first object of each block repeats with the period of the data.
        for (i, id) in firstIDs.enumerated() where i >= data.count { #expect(id == firstIDs[i - data.count]) }
        #expect(Set(firstIDs.prefix(data.count)).count == min(broken, data.count))
    }

    @Test("the file's zlib blobs, rewritten as raw blobs or as stored zlib streams, decode to the same objects")
    func helsinkiBlobKinds() throws {
        let original = try OSMTestData.helsinki()
        let blocks = OSMTestPBF.blocks(of: OSMTestData.helsinkiBytes)
        #expect(blocks.count == 5)
        let rawFile = blocks.flatMap { OSMTestPBF.fileBlock(type: $0.type, blob: OSMTestPBF.rawBlob($0.content)) }
        let storedFile = blocks.flatMap { OSMTestPBF.fileBlock(type: $0.type, blob: OSMTestPBF.zlibBlob($0.content)) }
        for file in [rawFile, storedFile] {
            let data = try OSMPBFReader(bytes: file).readAll()
            // Compared as Bools: a failing array comparison would print megabytes.
            let sameNodes = data.nodes == original.nodes
            let sameWays = data.ways == original.ways
            let sameRelations = data.relations == original.relations
            #expect(sameNodes && sameWays && sameRelations)
        }
    }

    @Test("a missing file is a clear error")
    func missingFile() {
        #expect(throws: PindropError.unreadableData("cannot read the OSM file at /nonexistent/x.osm.pbf: No such file or directory")) {
            try OSMPBFReader(contentsOfFile: "/nonexistent/x.osm.pbf")
        }
    }

    // MARK: A hand-made file: plain nodes, granularity, offsets, all member types

    /// One block with a plain node, three dense nodes, two ways and a relation, using a coarse
    /// granularity and offsets so that their arithmetic is checked.
    static func handMadeBlock() -> [UInt8] {
        let strings = ["", "name", "Testikahvila", "amenity", "cafe", "highway", "residential", "Testikatu",
                       "addr:housenumber", "7", "addr:street", "building", "yes", "outer", "type", "multipolygon"]
        var table = ProtobufMessage()
        for s in strings { table.string(1, s) }

        var node = ProtobufMessage()  // plain Node 1: name=Testikahvila, amenity=cafe at 60.17, 24.94
        node.signed(1, 1)
        node.packed(2, [1, 3])
        node.packed(3, [2, 4])
        var info = ProtobufMessage()
        info.varint(2, 1_500_000)  // × date_granularity 2000 ms → 3,000,000 s
        node.message(4, info)
        node.signed(8, 170_000)
        node.signed(9, 940_000)

        var dense = ProtobufMessage()  // nodes 2, 3, 4 (4 has addr Testikatu 7) forming a small triangle
        dense.packedSigned(1, [2, 1, 1])
        dense.packedSigned(8, [170_010, 0, 10])
        dense.packedSigned(9, [940_000, 20, -10])
        dense.packed(10, [0, 0, 8, 9, 10, 7, 0])

        var building = ProtobufMessage()  // way 10: closed triangle 2-3-4-2, building with an address
        building.varint(1, 10)
        building.packed(2, [11, 8, 10])
        building.packed(3, [12, 9, 7])
        building.packedSigned(8, [2, 1, 1, -2])

        var street = ProtobufMessage()  // way 11: Testikatu from node 1 to node 3
        street.varint(1, 11)
        street.packed(2, [5, 1])
        street.packed(3, [6, 7])
        street.packedSigned(8, [1, 2])

        var relation = ProtobufMessage()  // relation 20: multipolygon with outer way 10 and node 1
        relation.varint(1, 20)
        relation.packed(2, [14])
        relation.packed(3, [15])
        relation.packed(8, [13, 0])
        relation.packedSigned(9, [10, -9])
        relation.packed(10, [1, 0])

        var group1 = ProtobufMessage(); group1.message(1, node)
        var group2 = ProtobufMessage(); group2.message(2, dense)
        var group3 = ProtobufMessage(); group3.message(3, building); group3.message(3, street)
        var group4 = ProtobufMessage(); group4.message(4, relation)

        var block = ProtobufMessage()
        block.message(1, table)
        for group in [group1, group2, group3, group4] { block.message(2, group) }
        block.varint(17, 1000)  // granularity: 1 µ° per unit
        block.varint(18, 2000)  // date_granularity
        block.varint(19, 60_000_000_000)  // lat_offset: 60°
        block.varint(20, 24_000_000_000)  // lon_offset: 24°
        return block.bytes
    }

    static func handMadeFile(zlib: Bool = false) -> [UInt8] {
        let content = handMadeBlock()
        return OSMTestPBF.headerBlock()
            + OSMTestPBF.fileBlock(type: "OSMData", blob: zlib ? OSMTestPBF.zlibBlob(content) : OSMTestPBF.rawBlob(content))
    }

    @Test("a hand-made file: plain and dense nodes, granularity, offsets, ways, relations", arguments: [false, true])
    func handMade(zlib: Bool) throws {
        let data = try OSMPBFReader(bytes: Self.handMadeFile(zlib: zlib)).readAll()
        #expect(data.header.writingProgram == "pindrop-tests")
        #expect(data.nodes.map(\.id) == [1, 2, 3, 4])
        let cafe = data.nodes[0]
        #expect(cafe.tags == ["name": "Testikahvila", "amenity": "cafe"])
        #expect(abs(cafe.coordinate.latitude - 60.17) < 1e-9 && abs(cafe.coordinate.longitude - 24.94) < 1e-9)
        #expect(cafe.timestamp == 3_000_000)
        #expect(abs(data.nodes[2].coordinate.longitude - 24.94002) < 1e-9)
        #expect(abs(data.nodes[3].coordinate.latitude - 60.17002) < 1e-9)
        #expect(data.nodes[3].tags == ["addr:housenumber": "7", "addr:street": "Testikatu"])
        #expect(data.nodes[1].tags.isEmpty && data.nodes[1].timestamp == nil)
        #expect(data.ways == [
            OSMWay(id: 10, nodeIDs: [2, 3, 4, 2], tags: ["building": "yes", "addr:housenumber": "7", "addr:street": "Testikatu"]),
            OSMWay(id: 11, nodeIDs: [1, 3], tags: ["highway": "residential", "name": "Testikatu"]),
        ])
        #expect(data.relations == [
            OSMRelation(id: 20, members: [OSMRelationMember(type: .way, id: 10, role: "outer"),
                                          OSMRelationMember(type: .node, id: 1, role: "")],
                        tags: ["type": "multipolygon"]),
        ])
    }
}
