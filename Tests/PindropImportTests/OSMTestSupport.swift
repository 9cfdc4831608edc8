import CZlib
import Foundation
import PindropCore
import PindropImport
import PindropTesting

/// The shipped Helsinki extract, decoded once for all OSM tests.
enum OSMTestData {
    /// data/osm/helsinki-center.osm.pbf at the repository root (three levels above this file).
    static let helsinkiPath: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/osm/helsinki-center.osm.pbf").path

    static let helsinkiBytes: [UInt8] = FileManager.default.contents(atPath: helsinkiPath).map { [UInt8]($0) } ?? []

    private static let decoded = Result { () throws(PindropError) -> OSMData in
        try OSMPBFReader(bytes: helsinkiBytes).readAll()
    }

    private static let extracted = decoded.map { OSMFeatureExtractor().extract(from: $0) }

    /// The decoded Helsinki extract.
    static func helsinki() throws -> OSMData { try decoded.get() }

    /// The features of the Helsinki extract.
    static func helsinkiFeatures() throws -> OSMFeatures { try extracted.get() }
}

/// The Liechtenstein extract's features, read once for all OSM tests.
enum OSMLiechtenstein {
    private static let extracted = Result { () throws(PindropError) -> OSMFeatures in
        try OSMFeatureExtractor.extract(fromFileAt: ConformanceData.liechtensteinExtract)
    }

    /// The features of data/osm/liechtenstein.osm.pbf, read from disk.
    static func features() throws -> OSMFeatures { try extracted.get() }
}

/// Tests/Fixtures/features/<extract>/<file>: expectations made from the OSM data by scripts/feature-expectations.py
/// (pyosmium and a transcription of Nominatim's import style), independently of Pindrop. Rows without the header,
/// split at tabs.
enum FeatureFixture {
    static func rows(_ extract: String, _ file: String) throws -> [[String]] {
        let path = ConformanceData.repository.appendingPathComponent("Tests/Fixtures/features/\(extract)/\(file)").path
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// "osm:node/1" for ("n", "1").
    static func id(_ type: String, _ number: String) -> String {
        "osm:\(["n": "node", "w": "way", "r": "relation"][type] ?? type)/\(number)"
    }

    /// A JSON column's value.
    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }
}

extension OSMTags {
    /// Just these keys' entries: a test compares a few tags in one expectation, and a failure shows them all.
    func only(_ keys: String...) -> OSMTags { filter { keys.contains($0.key) } }
}

/// Writes protocol buffer messages and PBF files by hand, to build small test files and broken ones.
struct OSMTestMessage {
    var bytes: [UInt8] = []

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value, out: [UInt8] = []
        while value >= 0x80 { out.append(UInt8(value & 0x7F) | 0x80); value >>= 7 }
        out.append(UInt8(value))
        return out
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    mutating func varint(_ field: Int, _ value: UInt64) {
        bytes += Self.varint(UInt64(field << 3)) + Self.varint(value)
    }

    mutating func signed(_ field: Int, _ value: Int64) { varint(field, Self.zigzag(value)) }

    mutating func data(_ field: Int, _ data: [UInt8]) {
        bytes += Self.varint(UInt64(field << 3 | 2)) + Self.varint(UInt64(data.count)) + data
    }

    mutating func string(_ field: Int, _ text: String) { data(field, Array(text.utf8)) }

    mutating func message(_ field: Int, _ message: OSMTestMessage) { data(field, message.bytes) }

    mutating func packed(_ field: Int, _ values: [UInt64]) { data(field, values.flatMap { Self.varint($0) }) }

    mutating func packedSigned(_ field: Int, _ values: [Int64]) { packed(field, values.map(Self.zigzag)) }
}

enum OSMTestPBF {
    /// One file block: 4-byte big-endian BlobHeader length, BlobHeader, Blob.
    static func fileBlock(type: String, blob: [UInt8], declaredSize: Int? = nil) -> [UInt8] {
        var header = OSMTestMessage()
        header.string(1, type)
        header.varint(3, UInt64(declaredSize ?? blob.count))
        let length = UInt32(header.bytes.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + header.bytes + blob
    }

    static func rawBlob(_ content: [UInt8]) -> [UInt8] {
        var blob = OSMTestMessage()
        blob.data(1, content)
        return blob.bytes
    }

    static func zlibBlob(_ content: [UInt8], declaredRawSize: Int? = nil) -> [UInt8] {
        var blob = OSMTestMessage()
        blob.varint(2, UInt64(declaredRawSize ?? content.count))
        blob.data(3, storedZlib(content))
        return blob.bytes
    }

    static func headerBlock(required: [String] = ["OsmSchema-V0.6", "DenseNodes"]) -> [UInt8] {
        var header = OSMTestMessage()
        for feature in required { header.string(4, feature) }
        header.string(16, "pindrop-tests")
        return fileBlock(type: "OSMHeader", blob: rawBlob(header.bytes))
    }

    /// A zlib stream made of uncompressed ("stored") deflate blocks, so tests need no compressor.
    static func storedZlib(_ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, content.count)
            let length = UInt16(end - start)
            out.append(end == content.count ? 1 : 0)  // BFINAL, BTYPE=00 (stored)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += content[start..<end]
            start = end
        } while start < content.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in content { a = (a + UInt32(byte)) % 65_521; b = (b + a) % 65_521 }
        let adler = b << 16 | a
        out += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// Splits a PBF file into its blocks: type, uncompressed blob content (raw or inflated with the
    /// system zlib, independently of the reader), and the offset where the block starts.
    static func blocks(of file: [UInt8]) -> [(type: String, content: [UInt8], offset: Int)] {
        var blocks: [(String, [UInt8], Int)] = []
        var offset = 0
        while offset + 4 <= file.count {
            let headerLength = Int(file[offset]) << 24 | Int(file[offset + 1]) << 16 | Int(file[offset + 2]) << 8 | Int(file[offset + 3])
            let header = fields(Array(file[offset + 4..<offset + 4 + headerLength]))
            let type = String(decoding: header.first { $0.number == 1 }?.data ?? [], as: UTF8.self)
            let size = Int(header.first { $0.number == 3 }?.value ?? 0)
            let blobStart = offset + 4 + headerLength
            let blob = fields(Array(file[blobStart..<blobStart + size]))
            if let raw = blob.first(where: { $0.number == 1 }) {
                blocks.append((type, raw.data, offset))
            } else {
                let rawSize = Int(blob.first { $0.number == 2 }?.value ?? 0)
                let compressed = blob.first { $0.number == 3 }?.data ?? []
                var content = [UInt8](repeating: 0, count: rawSize)
                var length = uLongf(rawSize)
                let status = uncompress(&content, &length, compressed, uLong(compressed.count))
                precondition(status == Z_OK && Int(length) == rawSize, "test helper could not inflate block at \(offset)")
                blocks.append((type, content, offset))
            }
            offset = blobStart + size
        }
        return blocks
    }

    /// The top-level fields of a message (varint and length-delimited only, as in the PBF framing).
    static func fields(_ bytes: [UInt8]) -> [(number: Int, value: UInt64, data: [UInt8])] {
        var result: [(Int, UInt64, [UInt8])] = []
        var position = 0
        func readVarint() -> UInt64 {
            var value: UInt64 = 0, shift: UInt64 = 0
            while position < bytes.count {
                let byte = bytes[position]; position += 1
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { break }
                shift += 7
            }
            return value
        }
        while position < bytes.count {
            let key = readVarint()
            if key & 7 == 2 {
                let length = Int(readVarint())
                result.append((Int(key >> 3), 0, Array(bytes[position..<position + length])))
                position += length
            } else {
                result.append((Int(key >> 3), readVarint(), []))
            }
        }
        return result
    }
}

/// A small deterministic random generator, so "garbage" tests are the same on every run.
struct OSMTestRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8(truncatingIfNeeded: next()) } }
}
