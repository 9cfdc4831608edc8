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

    /// Edits of the Helsinki extract: a named venue deleted, another moved and renamed ("Uusi Nimi"), a café created
    /// ("Pindrop Kahvila"); and the extract's nodes with them made.
    static func helsinkiEdits() throws -> (change: OSMChange, edited: [OSMNode]) {
        let data = try helsinki()
        let named = data.nodes.filter { $0.tags["name"] != nil && $0.tags["amenity"] != nil }
        let deleted = named[0], renamed = named[1]
        var moved = renamed
        moved.tags["name"] = "Uusi Nimi"
        moved.coordinate = Coordinate(latitude: renamed.coordinate.latitude + 0.001, longitude: renamed.coordinate.longitude)
        let created = OSMNode(id: 90_000_000_001, coordinate: Coordinate(latitude: 60.17, longitude: 24.94),
                              tags: ["amenity": "cafe", "name": "Pindrop Kahvila"], timestamp: 1_609_948_602)
        let change = OSMChange(edits: [
            .init(action: .delete, key: .init(type: .node, id: deleted.id), version: 99, element: nil),
            .init(action: .modify, key: .init(type: .node, id: renamed.id), version: 99, element: .node(moved)),
            .init(action: .create, key: .init(type: .node, id: created.id), version: 1, element: .node(created)),
        ])
        return (change, data.nodes.compactMap { $0.id == deleted.id ? nil : $0.id == renamed.id ? moved : $0 } + [created])
    }
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

extension OSMTestPBF {
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

/// Message bytes given as runs (each part's bytes repeated so many times), so that a test describes a block of
/// many megabytes without holding it: what compression bombs are made of.
struct OSMRunMessage {
    var parts: [(bytes: [UInt8], times: Int)] = []

    /// The message's length in bytes.
    var count: Int { parts.reduce(0) { $0 + $1.bytes.count * $1.times } }

    init(_ bytes: [UInt8] = [], times: Int = 1) { if times > 0, !bytes.isEmpty { parts = [(bytes, times)] } }

    static func + (first: OSMRunMessage, second: OSMRunMessage) -> OSMRunMessage {
        var sum = first
        sum.parts += second.parts
        return sum
    }

    /// This message as length-delimited field `field` of an enclosing one.
    func field(_ field: Int) -> OSMRunMessage {
        OSMRunMessage(ProtobufMessage.varint(UInt64(field << 3 | 2)) + ProtobufMessage.varint(UInt64(count))) + self
    }

    /// A zlib blob of this content, deflated by the system zlib at its best compression, a megabyte at a time.
    func deflatedBlob() -> [UInt8] {
        var stream = z_stream()
        precondition(deflateInit_(&stream, 9, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { deflateEnd(&stream) }
        var compressed: [UInt8] = [], output = [UInt8](repeating: 0, count: 1 << 16)
        func pump(_ input: [UInt8], _ flush: Int32) {
            var input = input
            input.withUnsafeMutableBufferPointer { inBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                repeat {
                    output.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = uInt(out.count)
                        _ = deflate(&stream, flush)
                        compressed += out[0..<(out.count - Int(stream.avail_out))]
                    }
                } while stream.avail_out == 0
            }
        }
        for (bytes, times) in parts {
            let chunk = max(1, (1 << 20) / bytes.count)
            var left = times
            while left > 0 {
                let now = min(chunk, left)
                pump(Array([[UInt8]](repeating: bytes, count: now).joined()), Z_NO_FLUSH)
                left -= now
            }
        }
        pump([], Z_FINISH)
        var blob = ProtobufMessage()
        blob.varint(2, UInt64(count))
        blob.data(3, compressed)
        return blob.bytes
    }

    /// A whole file: the header block, then this block deflated.
    func deflatedFile() -> [UInt8] {
        OSMTestPBF.headerBlock() + OSMTestPBF.fileBlock(type: "OSMData", blob: deflatedBlob())
    }
}
