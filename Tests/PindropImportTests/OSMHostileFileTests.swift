import Foundation
import PindropCore
import PindropImport
import PindropTesting
import Testing

/// Files made to exhaust an importer: each is refused with one sentence naming what is over which limit, before
/// anything is allocated for what it declares, so the import of a file of a few kilobytes stays small and quick.
@Suite("OSM PBF reader: hostile files")
struct OSMHostileFileTests {
    /// Reads `file` as the import does (the extractor's two passes), and returns its error.
    static func importError(_ file: [UInt8]) -> PindropError? {
        #expect(throws: PindropError.self) { _ = try OSMFeatureExtractor().extract(from: OSMPBFReader(bytes: file)) }
    }

    /// The prefix of a PrimitiveBlock whose string table holds only "" and whose one group is `group`.
    static func block(_ group: OSMRunMessage) -> OSMRunMessage {
        OSMRunMessage([0x0A, 0x02, 0x0A, 0x00]) + group.field(2)
    }

    @Test("a 61 KB file declaring one way of 60 M references to one node is refused before it is inflated")
    func wayBomb() throws {
        // Node 1, then 60 M zero deltas: 60 MB that zlib packs into 61 KB.
        let refs = OSMRunMessage([0x02]) + OSMRunMessage([0x00], times: 60_000_000 - 1)
        let way = OSMRunMessage([0x08, 0x07]) + refs.field(8)
        let block = Self.block(way.field(3)), file = block.deflatedFile()
        #expect(file.count < 70_000)
        let started = Date()
        let error = Self.importError(file)
        #expect(error?.message == "OSM PBF: the zlib blob of block 2 declares a raw_size of \(block.count) bytes,"
                + " over the format's limit of 33554432")
        #expect(Date().timeIntervalSince(started) < 1)
    }

    @Test("a 64 KB block of 21 M dense nodes is refused before it is inflated")
    func denseBomb() throws {
        let count = 21_000_000
        let dense = OSMRunMessage([0x02], times: count).field(1) + OSMRunMessage([0x00], times: count).field(8)
            + OSMRunMessage([0x00], times: count).field(9)
        let block = Self.block(dense.field(2)), file = block.deflatedFile()
        #expect(file.count < 70_000)
        let error = Self.importError(file)
        #expect(error?.message.contains("declares a raw_size of \(block.count) bytes") == true, "\(String(describing: error))")
    }

    @Test("a blob that inflates more than 100 times its size is refused, whatever it holds")
    func inflationRatio() throws {
        // 3 MB of zero deltas: within the format's 32 MiB, but from 3 KB.
        let refs = OSMRunMessage([0x02]) + OSMRunMessage([0x00], times: 3_000_000)
        let file = Self.block((OSMRunMessage([0x08, 0x07]) + refs.field(8)).field(3)).deflatedFile()
        let error = Self.importError(file)
        #expect(error?.message.contains("over 100 times its size") == true, "\(String(describing: error))")
    }

    @Test("a way over 2,000 node references is refused by its id; one of 2,000 is read")
    func longWay() throws {
        let error = Self.importError(OSMTestPBF.file([OSMTestPBF.block(OSMTestPBF.wayGroup(id: 7, nodeIDs: Array(1...2_001)))]))
        #expect(error?.message == "OSM PBF: way 7 has 2001 node references, over the limit of 2000 (the OSM API's)")
        // 3 M references to one node in a raw block: refused from their count, never decoded.
        let refs = OSMRunMessage([0x02]) + OSMRunMessage([0x00], times: 2_999_999)
        let raw = Self.block((OSMRunMessage([0x08, 0x07]) + refs.field(8)).field(3))
        let bytes = Array(raw.parts.map { [UInt8]([[UInt8]](repeating: $0.bytes, count: $0.times).joined()) }.joined())
        let file = OSMTestPBF.headerBlock() + OSMTestPBF.fileBlock(type: "OSMData", blob: OSMTestPBF.rawBlob(bytes))
        #expect(Self.importError(file)?.message.contains("way 7 has 3000000 node references") == true)

        let data = try OSMPBFReader(bytes: OSMTestPBF.file([OSMTestPBF.block(OSMTestPBF.wayGroup(id: 7, nodeIDs: Array(1...2_000)))])).readAll()
        #expect(data.ways.map(\.nodeIDs) == [Array(1...2_000)])
    }

    @Test("a relation over 32,000 members is refused by its id, kept by the filter or not; one of 32,000 is read")
    func bigRelation() throws {
        for type in ["multipolygon", "route"] {
            let group = OSMTestPBF.relationGroup(id: 9, members: 32_001, outer: 1, keys: [2], values: [3])
            let error = Self.importError(OSMTestPBF.file([OSMTestPBF.block(group, strings: ["outer", "type", type])]))
            #expect(error?.message == "OSM PBF: relation 9 has 32001 members, over the limit of 32000 (the OSM API's)")
        }
        let group = OSMTestPBF.relationGroup(id: 9, members: 32_000, outer: 1)
        let data = try OSMPBFReader(bytes: OSMTestPBF.file([OSMTestPBF.block(group, strings: ["outer"])])).readAll()
        #expect(data.relations.first?.members.count == 32_000)
        #expect(data.relations.first?.members.last == OSMRelationMember(type: .way, id: 32_000, role: "outer"))
    }

    @Test("a block over 64,000 elements is refused in every reading, decoded or skipped; one of 64,000 is read")
    func crowdedBlock() throws {
        let dense = OSMTestPBF.block(OSMTestPBF.denseGroup(ids: Array(1...64_001)))
        let error = Self.importError(OSMTestPBF.file([dense]))
        #expect(error?.message == "OSM PBF: block 2 holds 64001 elements or more, over the limit of 64000 a block (writers put 8000 in one)")
        // Ways are skipped by the import's first reading: counted all the same.
        var ways = ProtobufMessage()
        for id in 1...64_001 { var way = ProtobufMessage(); way.varint(1, UInt64(id)); ways.message(3, way) }
        let wayError = Self.importError(OSMTestPBF.file([OSMTestPBF.block(ways)]))
        #expect(wayError?.message.contains("block 2 holds 64001 elements or more") == true)

        let full = try OSMPBFReader(bytes: OSMTestPBF.file([OSMTestPBF.block(OSMTestPBF.denseGroup(ids: Array(1...64_000)))])).readAll()
        #expect(full.nodes.count == 64_000 && full.nodes.last?.id == 64_000)
    }

    @Test("a block header over the format's 64 KiB is refused before it is read")
    func bigBlockHeader() {
        var header = ProtobufMessage()
        header.string(1, "OSMHeader")
        header.data(2, [UInt8](repeating: 0, count: 64 * 1024))  // indexdata, which a reader skips
        header.varint(3, 0)
        let length = UInt32(header.bytes.count)
        let file = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + header.bytes
        let error = #expect(throws: PindropError.self) { try OSMPBFReader(bytes: file).readAll() }
        #expect(error?.message.contains("declares a header of \(length) bytes") == true)
    }

    @Test("a file of a header and no data holds no OpenStreetMap data, and is refused; so is one of empty blocks")
    func headerOnly() throws {
        let error = Self.importError(OSMTestPBF.headerBlock())
        #expect(error?.message == "OSM PBF: the file holds no OpenStreetMap data (no node, way or relation)")
        let emptyBlocks = Self.importError(OSMTestPBF.file([OSMTestPBF.block(ProtobufMessage()), OSMTestPBF.block(ProtobufMessage())]))
        #expect(emptyBlocks?.message == "OSM PBF: the file holds no OpenStreetMap data (no node, way or relation)")
    }

    @Test("extracts giving no street-level feature are refused unless allowed: they would empty the street level")
    func featurelessExtract() throws {
        let path = TestScratch.folder("featureless") + "/nodes.osm.pbf"
        try Data(OSMTestPBF.file([OSMTestPBF.block(OSMTestPBF.denseGroup(ids: [1, 2, 3], latitude: 601_700_000, longitude: 249_400_000))]))
            .write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: PindropError.self) { try OSMExtracts(files: [path]).readFeatures() }
        #expect(error?.message == "nodes.osm.pbf holds no address, street, venue, building or area: importing would leave no"
                + " street-level data (--allow-empty does that)")
        let allowed = try OSMExtracts(files: [path], allowsEmpty: true).readFeatures()
        #expect(allowed.streets.isEmpty && allowed.venues.isEmpty && allowed.addressPoints.isEmpty)
    }

    @Test("names and addresses lose their control characters: a venue named with terminal escapes is imported without them")
    func controlCharacters() throws {
        let strings = ["name", "Caf\u{1B}]0;pwned\u{07}e\u{1B}[2J", "amenity", "cafe", "addr:street", "Evil\u{9B}31mkatu",
                       "addr:housenumber", "7\u{7F}"]
        let node = OSMTestPBF.nodeGroup(id: 5, latitude: 601_700_000, longitude: 249_400_000, keys: [1, 3, 5, 7], values: [2, 4, 6, 8])
        let path = TestScratch.folder("control-osm") + "/evil.osm.pbf"
        try Data(OSMTestPBF.file([OSMTestPBF.block(node, strings: strings)])).write(to: URL(fileURLWithPath: path))
        let features = try OSMExtracts(files: [path]).readFeatures()
        #expect(features.venues.map(\.name) == ["Caf]0;pwnede[2J"])
        #expect(features.venues.first?.address?.street == "Evil31mkatu" && features.venues.first?.address?.houseNumber == "7")
        #expect(features.addressPoints.map(\.address.street) == ["Evil31mkatu"])
    }
}
