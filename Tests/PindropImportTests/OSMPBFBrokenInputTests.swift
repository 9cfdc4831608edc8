import PindropCore
import PindropImport
import PindropTesting
import Testing

/// Input the OSM PBF reader must refuse with a clear error, never a crash: empty, cut, garbage, text, absurd sizes,
/// broken compression, unknown features, a misplaced header, bad indexes and lengths, and random byte flips.
@Suite("OSM PBF reader: broken input")
struct OSMPBFBrokenInputTests {
    @Test("an empty file is a clear error")
    func emptyFile() {
        #expect(throws: PindropError.unreadableData("OSM PBF: the file is empty")) {
            try OSMPBFReader(bytes: []).readAll()
        }
    }

    @Test("a truncated file throws, wherever it is cut inside a block")
    func truncated() throws {
        let file = OSMTestData.helsinkiBytes
        let blockStarts = Set(OSMTestPBF.blocks(of: file).map(\.offset))
        var random = OSMTestRandom(seed: 42)
        let cuts = [1, 3, 4, 7, 20, 200, file.count / 2, file.count - 1]
            + (0..<12).map { _ in Int(random.next() % UInt64(file.count - 1)) + 1 }
        for cut in cuts where !blockStarts.contains(cut) {
            let error = #expect(throws: PindropError.self) { try OSMPBFReader(bytes: Array(file[..<cut])).readAll() }
            #expect(error?.message.contains("OSM PBF") == true, "cut at \(cut): \(String(describing: error))")
        }
    }

    @Test("garbage throws a clear error", arguments: [1, 2, 3, 4, 5])
    func garbage(seed: UInt64) {
        var random = OSMTestRandom(seed: seed)
        let bytes = random.bytes(5_000)
        #expect(throws: PindropError.self) { try OSMPBFReader(bytes: bytes).readAll() }
    }

    @Test("a text file is refused at its first bytes")
    func textFile() {
        let error = #expect(throws: PindropError.self) {
            try OSMPBFReader(bytes: Array("<?xml version='1.0'?><osm></osm>".utf8)).readAll()
        }
        #expect(error?.message.contains("not an OSM PBF file") == true)
    }

    @Test("absurd header and blob sizes are refused before reading")
    func absurdSizes() {
        let hugeHeader: [UInt8] = [0x7F, 0xFF, 0xFF, 0xFF] + [UInt8](repeating: 0, count: 64)
        let headerError = #expect(throws: PindropError.self) { try OSMPBFReader(bytes: hugeHeader).readAll() }
        #expect(headerError?.message.contains("declares a header of 2147483647 bytes") == true)

        let hugeBlob = OSMTestPBF.fileBlock(type: "OSMHeader", blob: [], declaredSize: 100 << 20)
        let blobError = #expect(throws: PindropError.self) { try OSMPBFReader(bytes: hugeBlob).readAll() }
        #expect(blobError?.message.contains("over the format's limit of 33554432") == true)

        var lyingBlob = ProtobufMessage()
        lyingBlob.varint(2, 1 << 40)
        lyingBlob.data(3, [0x78, 0x01])
        let rawSizeError = #expect(throws: PindropError.self) {
            try OSMPBFReader(bytes: OSMTestPBF.fileBlock(type: "OSMHeader", blob: lyingBlob.bytes)).readAll()
        }
        #expect(rawSizeError?.message.contains("declares a raw_size of 1099511627776 bytes") == true)
    }

    @Test("corrupt zlib data and a wrong raw_size are clear errors")
    func corruptZlib() {
        let content = OSMPBFReaderTests.handMadeBlock()
        var blob = OSMTestPBF.zlibBlob(content)
        blob[blob.count - 1] ^= 0xFF  // breaks the Adler-32 checksum
        let file = OSMTestPBF.headerBlock() + OSMTestPBF.fileBlock(type: "OSMData", blob: blob)
        let error = #expect(throws: PindropError.self) { try OSMPBFReader(bytes: file).readAll() }
        #expect(error?.message.contains("corrupt zlib data") == true)

        let wrongSize = OSMTestPBF.headerBlock()
            + OSMTestPBF.fileBlock(type: "OSMData", blob: OSMTestPBF.zlibBlob(content, declaredRawSize: content.count + 10))
        let sizeError = #expect(throws: PindropError.self) { try OSMPBFReader(bytes: wrongSize).readAll() }
        #expect(sizeError?.message.contains("raw_size") == true)
    }

    @Test("other compressions are refused by name")
    func otherCompression() {
        var blob = ProtobufMessage()
        blob.varint(2, 10)
        blob.data(7, [1, 2, 3])  // zstd_data
        let file = OSMTestPBF.headerBlock() + OSMTestPBF.fileBlock(type: "OSMData", blob: blob.bytes)
        #expect(throws: PindropError.unreadableData("OSM PBF: block 2 is zstd-compressed; only raw and zlib blobs are supported")) {
            try OSMPBFReader(bytes: file).readAll()
        }
    }

    @Test("unknown required features are refused by name")
    func unknownFeature() {
        let file = OSMTestPBF.headerBlock(required: ["OsmSchema-V0.6", "HistoricalInformation"])
        #expect(throws: PindropError.unreadableData("OSM PBF: the file requires features this reader does not support: HistoricalInformation")) {
            try OSMPBFReader(bytes: file).readAll()
        }
    }

    @Test("data before the header, or no header at all, is refused")
    func missingHeader() {
        let dataFirst = OSMTestPBF.fileBlock(type: "OSMData", blob: OSMTestPBF.rawBlob(OSMPBFReaderTests.handMadeBlock()))
        #expect(throws: PindropError.unreadableData("OSM PBF: block 1 holds data before any OSMHeader block")) {
            try OSMPBFReader(bytes: dataFirst).readAll()
        }
        let unknownOnly = OSMTestPBF.fileBlock(type: "Other", blob: OSMTestPBF.rawBlob([]))
        #expect(throws: PindropError.unreadableData("OSM PBF: the file has no OSMHeader block")) {
            try OSMPBFReader(bytes: unknownOnly).readAll()
        }
    }

    @Test("a string index outside the string table is an error, not a crash")
    func badStringIndex() {
        var table = ProtobufMessage(); table.string(1, ""); table.string(1, "name")
        var way = ProtobufMessage(); way.varint(1, 1); way.packed(2, [1]); way.packed(3, [99])
        var group = ProtobufMessage(); group.message(3, way)
        var block = ProtobufMessage(); block.message(1, table); block.message(2, group)
        let file = OSMTestPBF.headerBlock() + OSMTestPBF.fileBlock(type: "OSMData", blob: OSMTestPBF.rawBlob(block.bytes))
        let error = #expect(throws: PindropError.self) { try OSMPBFReader(bytes: file).readAll() }
        #expect(error?.message.contains("string index 99 outside") == true)
    }

    @Test("dense nodes with mismatched columns are an error")
    func mismatchedDenseNodes() {
        var dense = ProtobufMessage()
        dense.packedSigned(1, [1, 1, 1])
        dense.packedSigned(8, [0, 0])
        dense.packedSigned(9, [0, 0, 0])
        var group = ProtobufMessage(); group.message(2, dense)
        var block = ProtobufMessage(); block.message(2, group)
        let file = OSMTestPBF.headerBlock() + OSMTestPBF.fileBlock(type: "OSMData", blob: OSMTestPBF.rawBlob(block.bytes))
        let error = #expect(throws: PindropError.self) { try OSMPBFReader(bytes: file).readAll() }
        #expect(error?.message.contains("3 ids but 2 latitudes") == true)
    }

    @Test("a packed field cut inside its last value is an error, not a short list")
    func truncatedPackedField() {
        var dense = ProtobufMessage()
        dense.data(1, ProtobufMessage.varint(2) + ProtobufMessage.varint(2) + [0x81])  // ids 1, 2 and the start of a third
        dense.packedSigned(8, [0, 0])
        dense.packedSigned(9, [0, 0])
        var group = ProtobufMessage(); group.message(2, dense)
        var block = ProtobufMessage(); block.message(2, group)
        let file = OSMTestPBF.headerBlock() + OSMTestPBF.fileBlock(type: "OSMData", blob: OSMTestPBF.rawBlob(block.bytes))
        let error = #expect(throws: PindropError.self) { try OSMPBFReader(bytes: file).readAll() }
        #expect(error?.message.contains("truncated varint") == true)
    }

    @Test("random byte flips in the real file never crash the reader")
    func flippedBytes() {
        var random = OSMTestRandom(seed: 7)
        let original = OSMTestData.helsinkiBytes
        for _ in 0..<12 {
            var file = original
            for _ in 0..<4 {
                file[Int(random.next() % UInt64(file.count))] = UInt8(truncatingIfNeeded: random.next())
            }
            // Either outcome is fine (a flipped coordinate byte is still a valid file); trapping is not.
            do { _ = try OSMPBFReader(bytes: file).readAll() } catch { #expect(!error.message.isEmpty) }
        }
    }
}
