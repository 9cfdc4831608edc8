import Foundation
import PindropCore

/// Writes an OpenStreetMap PBF file (the format `OSMPBFReader` reads, and osmium, Nominatim and every other tool):
/// a header block, then blocks of at most `blockSize` objects of one kind, zlib-compressed. It keeps what Pindrop
/// reads of a file: ids, coordinates, tags, way nodes, relation members and each object's timestamp (not versions,
/// changesets or users), with texts as the reader gives them (without control characters). Written to `path.new`
/// and renamed to `path` by `finish()`, so a reader never sees half a file.
struct OSMPBFWriter {
    /// Objects a block: what osmium writes.
    static let blockSize = 8_000

    private let path: String
    private let handle: FileHandle
    /// About the most a block holds before it is compressed: a block of long ways or relations is cut sooner, so that
    /// none nears the 32 MiB `OSMPBFReader` takes (and the format's 16 MiB recommendation).
    private let blockBytes: Int

    /// Starts the file at `path` with `header` (its box and features) and, when given, the replication state the data
    /// stands at (the header's osmosis fields, which osmium and pyosmium read).
    init(path: String, header: OSMHeader, replication: ReplicationState? = nil, blockBytes: Int = 8 << 20) throws(PindropError) {
        self.path = path; self.blockBytes = blockBytes
        let temporary = path + ".new"
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporary) else {
            throw .indexUnavailable("cannot write \(temporary)")
        }
        self.handle = handle
        var message = ProtobufMessage()
        if let box = header.boundingBox {
            var bbox = ProtobufMessage()
            for (field, degrees) in [(1, box.west), (2, box.east), (3, box.north), (4, box.south)] {
                bbox.signed(field, Int64((degrees * 1e9).rounded()))
            }
            message.message(1, bbox)
        }
        for feature in ["OsmSchema-V0.6", "DenseNodes"] { message.string(4, feature) }
        // Sorted when the file it is made from was: the changes laid over it keep the order (`OSMChangeOverlay`).
        if header.optionalFeatures.contains("Sort.Type_then_ID") { message.string(5, "Sort.Type_then_ID") }
        message.string(16, "pindrop")
        if let source = header.source { message.string(17, source) }
        if let replication {
            message.varint(32, UInt64(max(0, Int64(replication.timestamp.timeIntervalSince1970))))
            if let sequence = replication.sequence { message.varint(33, UInt64(max(0, sequence))) }
        }
        try writeBlock(type: "OSMHeader", message.bytes)
    }

    /// Appends nodes, as dense nodes.
    func write(nodes: [OSMNode]) throws(PindropError) {
        for part in blocks(of: nodes, bytes: { 24 + Self.textBytes($0.tags) }) {
            let part = nodes[part]
            var strings = StringTable(), dense = ProtobufMessage()
            dense.packedDeltas(1, part.map(\.id))
            if part.contains(where: { $0.timestamp != nil }) {
                var info = ProtobufMessage()
                info.packedDeltas(2, part.map { $0.timestamp ?? 0 })
                dense.message(5, info)
            }
            dense.packedDeltas(8, part.map { Self.units($0.coordinate.latitude) })
            dense.packedDeltas(9, part.map { Self.units($0.coordinate.longitude) })
            if part.contains(where: { !$0.tags.isEmpty }) {
                dense.packed(10, part.flatMap { node in node.tags.flatMap { [strings[$0.key], strings[$0.value]] } + [0] })
            }
            var group = ProtobufMessage()
            group.message(2, dense)
            try writeBlock(group, strings)
        }
    }

    /// Appends ways.
    func write(ways: [OSMWay]) throws(PindropError) {
        for part in blocks(of: ways, bytes: { 16 + Self.textBytes($0.tags) + 10 * $0.nodeIDs.count }) {
            var strings = StringTable(), group = ProtobufMessage()
            for way in ways[part] {
                var message = Self.object(id: way.id, tags: way.tags, timestamp: way.timestamp, &strings)
                message.packedDeltas(8, way.nodeIDs)
                group.message(3, message)
            }
            try writeBlock(group, strings)
        }
    }

    /// Appends relations.
    func write(relations: [OSMRelation]) throws(PindropError) {
        let bytes = { (relation: OSMRelation) in
            16 + Self.textBytes(relation.tags) + relation.members.reduce(0) { $0 + 16 + $1.role.utf8.count }
        }
        for part in blocks(of: relations, bytes: bytes) {
            var strings = StringTable(), group = ProtobufMessage()
            for relation in relations[part] {
                var message = Self.object(id: relation.id, tags: relation.tags, timestamp: relation.timestamp, &strings)
                message.packed(8, relation.members.map { strings[$0.role] })
                message.packedDeltas(9, relation.members.map(\.id))
                message.packed(10, relation.members.map { UInt64($0.type.order) })
                group.message(4, message)
            }
            try writeBlock(group, strings)
        }
    }

    /// `objects` cut into blocks of at most `blockSize` objects and about `blockBytes` bytes (`bytes` tells an
    /// object's most; one object alone may pass it).
    private func blocks<Object>(of objects: [Object], bytes: (Object) -> Int) -> [Range<Int>] {
        var blocks: [Range<Int>] = [], start = 0, size = 0
        for (i, object) in objects.enumerated() {
            let cost = bytes(object)
            if i > start, i - start == Self.blockSize || size + cost > blockBytes {
                blocks.append(start..<i)
                start = i; size = 0
            }
            size += cost
        }
        if start < objects.count { blocks.append(start..<objects.count) }
        return blocks
    }

    /// The most tags take in a block: their texts and two indices each.
    private static func textBytes(_ tags: OSMTags) -> Int {
        tags.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 10 }
    }

    /// Ends the file and puts it at its path.
    func finish() throws(PindropError) {
        do {
            try handle.synchronize()
            try handle.close()
        } catch {
            throw .indexUnavailable("cannot write \(path): \(error)")
        }
        guard rename(path + ".new", path) == 0 else {
            throw .indexUnavailable("cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Gives the file up: nothing is left of it.
    func abandon() {
        try? handle.close()
        try? FileManager.default.removeItem(atPath: path + ".new")
    }

    /// A way's or relation's id, tags and timestamp (fields 1 to 4 of both).
    private static func object(id: Int64, tags: OSMTags, timestamp: Int64?, _ strings: inout StringTable) -> ProtobufMessage {
        var message = ProtobufMessage()
        message.varint(1, UInt64(bitPattern: id))
        if !tags.isEmpty {
            message.packed(2, tags.map { strings[$0.key] })
            message.packed(3, tags.map { strings[$0.value] })
        }
        if let timestamp {
            var info = ProtobufMessage()
            info.varint(2, UInt64(bitPattern: timestamp))
            message.message(4, info)
        }
        return message
    }

    /// Degrees in the file's units: 100 nanodegrees, the block's default granularity.
    private static func units(_ degrees: Double) -> Int64 { Int64((degrees * 1e7).rounded()) }

    /// A PrimitiveBlock of one group, with its string table.
    private func writeBlock(_ group: ProtobufMessage, _ strings: StringTable) throws(PindropError) {
        var table = ProtobufMessage()
        for string in strings.strings { table.string(1, string) }
        var block = ProtobufMessage()
        block.message(1, table)
        block.message(2, group)
        try writeBlock(type: "OSMData", block.bytes)
    }

    /// One file block: the BlobHeader's length (4 bytes, big-endian), the BlobHeader, the Blob (zlib-compressed).
    private func writeBlock(type: String, _ content: [UInt8]) throws(PindropError) {
        var blob = ProtobufMessage()
        blob.varint(2, UInt64(content.count))
        blob.data(3, try OSMZlib.deflate(content))
        var header = ProtobufMessage()
        header.string(1, type)
        header.varint(3, UInt64(blob.bytes.count))
        let length = UInt32(header.bytes.count)
        let bytes = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + header.bytes + blob.bytes
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw .indexUnavailable("cannot write \(path): \(error)")
        }
    }

    /// A block's strings, each once; index 0 is the empty string the format reserves.
    private struct StringTable {
        private(set) var strings = [""]
        private var indices: [String: UInt64] = ["": 0]

        subscript(string: String) -> UInt64 {
            mutating get {
                if let index = indices[string] { return index }
                strings.append(string)
                indices[string] = UInt64(strings.count - 1)
                return UInt64(strings.count - 1)
            }
        }
    }
}
