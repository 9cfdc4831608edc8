import PindropCore

/// PBF files written by hand (`ProtobufMessage`): small test files, broken ones and hostile ones (a way of too
/// many references, a block of too many elements), made by the tests rather than committed.
public enum OSMTestPBF {
    /// One file block: 4-byte big-endian BlobHeader length, BlobHeader, Blob.
    public static func fileBlock(type: String, blob: [UInt8], declaredSize: Int? = nil) -> [UInt8] {
        var header = ProtobufMessage()
        header.string(1, type)
        header.varint(3, UInt64(declaredSize ?? blob.count))
        let length = UInt32(header.bytes.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
            + header.bytes + blob
    }

    /// A blob holding `content` as it is.
    public static func rawBlob(_ content: [UInt8]) -> [UInt8] {
        var blob = ProtobufMessage()
        blob.data(1, content)
        return blob.bytes
    }

    /// A blob holding `content` as a stored zlib stream, declaring `declaredRawSize` (default: the true size).
    public static func zlibBlob(_ content: [UInt8], declaredRawSize: Int? = nil) -> [UInt8] {
        var blob = ProtobufMessage()
        blob.varint(2, UInt64(declaredRawSize ?? content.count))
        blob.data(3, storedZlib(content))
        return blob.bytes
    }

    /// A header block requiring `required`.
    public static func headerBlock(required: [String] = ["OsmSchema-V0.6", "DenseNodes"]) -> [UInt8] {
        var header = ProtobufMessage()
        for feature in required { header.string(4, feature) }
        header.string(16, "pindrop-tests")
        return fileBlock(type: "OSMHeader", blob: rawBlob(header.bytes))
    }

    /// A zlib stream made of uncompressed ("stored") deflate blocks, so tests need no compressor.
    public static func storedZlib(_ content: [UInt8]) -> [UInt8] {
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

    /// A PrimitiveBlock of one group, with `strings` as its string table (index 0 is the empty string).
    public static func block(_ group: ProtobufMessage, strings: [String] = []) -> ProtobufMessage {
        var table = ProtobufMessage()
        for string in [""] + strings { table.string(1, string) }
        var block = ProtobufMessage()
        block.message(1, table)
        block.message(2, group)
        return block
    }

    /// A whole file: the header block, then `blocks` as raw data blocks.
    public static func file(_ blocks: [ProtobufMessage]) -> [UInt8] {
        headerBlock() + blocks.flatMap { fileBlock(type: "OSMData", blob: rawBlob($0.bytes)) }
    }

    /// A group of one way `id` through `nodeIDs`, tagged with string indices (`keys[i]` = `values[i]`).
    public static func wayGroup(id: Int64, nodeIDs: [Int64], keys: [UInt64] = [], values: [UInt64] = []) -> ProtobufMessage {
        var way = ProtobufMessage()
        way.varint(1, UInt64(id))
        if !keys.isEmpty { way.packed(2, keys); way.packed(3, values) }
        way.packedDeltas(8, nodeIDs)
        var group = ProtobufMessage()
        group.message(3, way)
        return group
    }

    /// A group of dense nodes with these ids, all at `latitude`, `longitude` (in 100-nanodegree units), untagged.
    public static func denseGroup(ids: [Int64], latitude: Int64 = 0, longitude: Int64 = 0) -> ProtobufMessage {
        var dense = ProtobufMessage()
        dense.packedDeltas(1, ids)
        dense.packedSigned(8, [latitude] + Array(repeating: 0, count: max(ids.count - 1, 0)))
        dense.packedSigned(9, [longitude] + Array(repeating: 0, count: max(ids.count - 1, 0)))
        var group = ProtobufMessage()
        group.message(2, dense)
        return group
    }

    /// A group of one plain node tagged with string indices (`keys[i]` = `values[i]`), at `latitude`,
    /// `longitude` (in 100-nanodegree units).
    public static func nodeGroup(id: Int64, latitude: Int64, longitude: Int64, keys: [UInt64], values: [UInt64]) -> ProtobufMessage {
        var node = ProtobufMessage()
        node.signed(1, id)
        node.packed(2, keys)
        node.packed(3, values)
        node.signed(8, latitude)
        node.signed(9, longitude)
        var group = ProtobufMessage()
        group.message(1, node)
        return group
    }

    /// A group of one relation `id` with `members` way members (ids 1, 2, 3, …, role "outer"), tagged with string
    /// indices; `outer` is the string index of "outer".
    public static func relationGroup(id: Int64, members: Int, outer: UInt64, keys: [UInt64] = [], values: [UInt64] = []) -> ProtobufMessage {
        var relation = ProtobufMessage()
        relation.varint(1, UInt64(id))
        if !keys.isEmpty { relation.packed(2, keys); relation.packed(3, values) }
        relation.packed(8, Array(repeating: outer, count: members))
        relation.packedSigned(9, Array(repeating: 1, count: members))
        relation.packed(10, Array(repeating: 1, count: members))
        var group = ProtobufMessage()
        group.message(4, relation)
        return group
    }
}
