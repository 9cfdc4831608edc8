import Foundation
import PindropCore

/// Reads OpenStreetMap PBF files (https://wiki.openstreetmap.org/wiki/PBF_Format) with a small
/// hand-written protocol buffer decoder: file blocks, `raw` and `zlib_data` blobs, the header block,
/// string tables, granularity and offsets, plain and dense nodes, ways and relations.
///
/// Broken input (truncated, garbage, absurd sizes, unsupported compression or required features)
/// throws `PindropError.unreadableData` with a message saying what is wrong; it never traps or hangs.
/// Hostile input is refused before anything is allocated for it: every size and count is checked against the
/// limits below first, so memory stays bounded by what the file really holds, whatever it declares.
public struct OSMPBFReader: Sendable {
    /// The largest block header the reader accepts: the format's 64 KiB (real files use a few bytes).
    public static let maximumHeaderSize = 64 * 1024
    /// The largest blob, compressed or not, the reader accepts: the format's 32 MiB (real blocks are under 1 MiB).
    public static let maximumBlobSize = 32 * 1024 * 1024
    /// How many times its compressed size a zlib blob may inflate to. Deflate reaches 1,032 on runs of one byte,
    /// which is how a 61 KB file once declared a way of 60 M references; real blocks inflate 1 to 4 times (3.2 at
    /// most in the shipped extracts), and the common guard against compression bombs is 100.
    public static let maximumInflationRatio = 100
    /// The most node references a way may have: the OSM API's limit (its capabilities' `waynodes`).
    public static let maximumWayNodes = 2_000
    /// The most members a relation may have: the OSM API's limit (its capabilities' `relationmembers`).
    public static let maximumRelationMembers = 32_000
    /// The most elements (nodes, ways, relations) a data block may hold: eight times the 8,000 writers put in one.
    public static let maximumBlockElements = 64_000
    /// The `required_features` this reader understands; a file needing anything else is refused.
    public static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    private let source: OSMByteSource

    /// A reader over a whole file's bytes.
    public init(bytes: [UInt8]) {
        source = .memory(bytes)
    }

    /// A reader over the file at `path`, read a block at a time: memory holds one block, never the file.
    public init(contentsOfFile path: String) throws(PindropError) {
        source = .file(try OSMOpenFile(path: path))
    }

    /// Decodes the whole file into arrays of nodes, ways and relations.
    public func readAll() throws(PindropError) -> OSMData {
        var data = OSMData()
        data.header = try forEachPrimitiveBlock { block in
            data.nodes.append(contentsOf: block.nodes)
            data.ways.append(contentsOf: block.ways)
            data.relations.append(contentsOf: block.relations)
        }
        return data
    }

    /// The file's header block, checked, read alone: what comes before its data.
    public func header() throws(PindropError) -> OSMHeader {
        var scratch = OSMReadBuffer()
        var offset = 0, number = 0
        while offset < source.count {
            number += 1
            let block = try fileBlock(at: offset, number: number, &scratch)
            if block.type == "OSMHeader" { return try checkedHeader(block, number: number, &scratch) }
            guard block.type != "OSMData" else { break }
            offset = block.next
        }
        throw .unreadableData("OSM PBF: the file has no OSMHeader block")
    }

    /// The newest edit of any object in the file (seconds since 1970), or nil when the file carries no timestamps: the
    /// time the extract stands at.
    public func newestTimestamp() throws(PindropError) -> Int64? {
        var newest: Int64?
        try forEachPrimitiveBlock(filter: .idsOnly) { block in
            let times = block.nodes.lazy.compactMap(\.timestamp) + block.ways.lazy.compactMap(\.timestamp)
                + block.relations.lazy.compactMap(\.timestamp)
            for time in times where time > newest ?? .min { newest = time }
        }
        return newest
    }

    /// Streams the file block by block, so memory stays at one block plus what `body` keeps. Only the
    /// elements in `kinds` are decoded, with what `filter` keeps of them; the block says which others it held
    /// (`skipped`) and where it starts (`offset`), so a second pass can read just those blocks again
    /// (`forEachPrimitiveBlock(at:decoding:filter:_:)`).
    /// Returns the file's header, which has been checked before the first call of `body`.
    @discardableResult
    public func forEachPrimitiveBlock(
        decoding kinds: OSMElementKinds = .all, filter: OSMDecodingFilter? = nil,
        _ body: (OSMPrimitiveBlock) throws(PindropError) -> Void
    ) throws(PindropError) -> OSMHeader {
        guard source.count > 0 else { throw .unreadableData("OSM PBF: the file is empty") }
        return try decodingAhead({ part, parts, emit throws(PindropError) -> OSMHeader in
            var scratch = OSMReadBuffer()
            var header: OSMHeader?
            var offset = 0
            var blockNumber = 0, dataBlocks = 0
            while offset < source.count {
                blockNumber += 1
                let block = try fileBlock(at: offset, number: blockNumber, &scratch)
                switch block.type {
                case "OSMHeader":
                    header = try checkedHeader(block, number: blockNumber, &scratch)
                case "OSMData":
                    guard header != nil else {
                        throw .unreadableData("OSM PBF: block \(blockNumber) holds data before any OSMHeader block")
                    }
                    dataBlocks += 1
                    guard (dataBlocks - 1) % parts == part else { break }
                    guard emit(try primitiveBlock(block, number: blockNumber, kinds: kinds, filter: filter, &scratch)) else { return header! }
                default:
                    break  // The format says unknown block types are skipped.
                }
                offset = block.next
            }
            guard let header else { throw .unreadableData("OSM PBF: the file has no OSMHeader block") }
            return header
        }, body)
    }

    /// Reads again the data blocks that start at `offsets` (as an earlier pass gave them), decoding `kinds` with
    /// what `filter` keeps of them.
    public func forEachPrimitiveBlock(
        at offsets: [Int], decoding kinds: OSMElementKinds, filter: OSMDecodingFilter? = nil,
        _ body: (OSMPrimitiveBlock) throws(PindropError) -> Void
    ) throws(PindropError) {
        try decodingAhead({ part, parts, emit throws(PindropError) in
            var scratch = OSMReadBuffer()
            for (index, offset) in offsets.enumerated() where index % parts == part {
                let block = try fileBlock(at: offset, number: index + 1, &scratch)
                guard block.type == "OSMData" else {
                    throw .unreadableData("OSM PBF: no data block at offset \(offset); did the file change during the import?")
                }
                guard emit(try primitiveBlock(block, number: index + 1, kinds: kinds, filter: filter, &scratch)) else { return }
            }
        }, body)
    }

    /// Runs `decode` on `parts` threads of their own, part p reading the whole file but decoding only the data
    /// blocks p, p + parts, p + 2·parts, … (inflating and decoding is most of reading, and the blocks are
    /// independent), each handing its blocks over (`emit`, false once `body` has failed). `body` takes the blocks
    /// here, in file order, from the parts in turn, while the next ones are read, inflated and decoded on the
    /// other cores. A failure of any ends all; blocks before a bad one reach `body` first, and a failure every part
    /// meets (a cut file) reaches it at the block where the file breaks. Returns part 0's result.
    private func decodingAhead<Result>(
        parts: Int = 2,
        _ decode: @escaping (_ part: Int, _ parts: Int, _ emit: (OSMPrimitiveBlock) -> Bool) throws(PindropError) -> Result,
        _ body: (OSMPrimitiveBlock) throws(PindropError) -> Void
    ) throws(PindropError) -> Result {
        // Two blocks waiting per part: the import's peak memory holds them beside everything else.
        let handoffs = (0..<parts).map { _ in Handoff<OSMPrimitiveBlock, PindropError>(capacity: 2) }
        let decoders = (0..<parts).map { part in
            Background { () -> Result? in
                do throws(PindropError) {
                    let result = try decode(part, parts) { handoffs[part].put($0) }
                    handoffs[part].finish()
                    return result
                } catch {
                    handoffs[part].finish(failing: error)
                    return nil
                }
            }
        }
        do throws(PindropError) {
            var next = 0
            while let block = try handoffs[next % parts].take() {
                try body(block)
                next += 1
            }
            // The part that had no block `next` read to the end of the file, so the others are done too; a
            // failure one of them met after its last block still counts.
            for handoff in handoffs { while try handoff.take() != nil {} }
        } catch {
            for handoff in handoffs { handoff.cancel() }
            for decoder in decoders { _ = decoder.wait() }
            throw error
        }
        let results = decoders.map { $0.wait() }
        // Every block was taken and no part failed, so each returned its result.
        return results[0]!
    }

    /// Convenience: decodes the file at `path` into arrays.
    public static func read(contentsOfFile path: String) throws(PindropError) -> OSMData {
        try OSMPBFReader(contentsOfFile: path).readAll()
    }

    // MARK: File blocks and blobs

    /// A file block: its type, where its blob lies, and where the next block starts.
    private struct FileBlock {
        var type: String, offset: Int, blobOffset: Int, blobSize: Int, next: Int
    }

    /// Reads the file block header at `offset`.
    private func fileBlock(at offset: Int, number: Int, _ scratch: inout OSMReadBuffer) throws(PindropError) -> FileBlock {
        let remaining = source.count - offset
        guard remaining >= 4 else {
            throw .unreadableData("OSM PBF: the file is truncated (\(remaining) stray bytes after block \(number - 1))")
        }
        let headerLength = try source.withBytes(at: offset, count: 4, &scratch) { (length: UnsafeRawBufferPointer) throws(PindropError) in
            Int(length[0]) << 24 | Int(length[1]) << 16 | Int(length[2]) << 8 | Int(length[3])
        }
        guard headerLength > 0, headerLength <= Self.maximumHeaderSize else {
            throw .unreadableData("OSM PBF: block \(number) declares a header of \(headerLength) bytes; this is not an OSM PBF file or it is corrupt")
        }
        guard headerLength <= remaining - 4 else {
            throw .unreadableData("OSM PBF: the file is truncated inside the header of block \(number)")
        }
        let headerStart = offset + 4
        let (type, dataSize) = try source.withBytes(at: headerStart, count: headerLength, &scratch) {
            (bytes: UnsafeRawBufferPointer) throws(PindropError) -> (String?, Int64?) in
            var reader = OSMProtobufReader(bytes, context: "BlobHeader of block \(number)")
            var type: String?, dataSize: Int64?
            while let field = try reader.nextField() {
                switch (field.number, field.wireType) {
                case (1, .lengthDelimited): type = try reader.readString()
                case (3, .varint): dataSize = try reader.readInt64()
                default: try reader.skip(field.wireType)
                }
            }
            return (type, dataSize)
        }
        guard let type, let dataSize else {
            throw .unreadableData("OSM PBF: block \(number) has no type or no data size; this is not an OSM PBF file or it is corrupt")
        }
        guard dataSize >= 0, dataSize <= Int64(Self.maximumBlobSize) else {
            throw .unreadableData("OSM PBF: block \(number) declares a blob of \(dataSize) bytes, over the format's limit of \(Self.maximumBlobSize)")
        }
        let blobStart = headerStart + headerLength
        guard Int(dataSize) <= source.count - blobStart else {
            throw .unreadableData("OSM PBF: the file is truncated inside the blob of block \(number) (\(dataSize) bytes declared, \(source.count - blobStart) left)")
        }
        return FileBlock(type: type, offset: offset, blobOffset: blobStart, blobSize: Int(dataSize), next: blobStart + Int(dataSize))
    }

    private func primitiveBlock(_ block: FileBlock, number: Int, kinds: OSMElementKinds, filter: OSMDecodingFilter?,
                                _ scratch: inout OSMReadBuffer) throws(PindropError) -> OSMPrimitiveBlock {
        var decoded = try withBlobContent(block, number: number, &scratch) { content throws(PindropError) in
            var decoder = OSMPrimitiveBlockDecoder(filter: filter, blockNumber: number)
            return try decoder.decode(content, kinds: kinds)
        }
        decoded.offset = block.offset
        return decoded
    }

    /// Calls `body` with the uncompressed content of a file block's blob.
    private func withBlobContent<Result>(
        _ block: FileBlock, number: Int, _ scratch: inout OSMReadBuffer,
        _ body: (UnsafeRawBufferPointer) throws(PindropError) -> Result
    ) throws(PindropError) -> Result {
        try source.withBytes(at: block.blobOffset, count: block.blobSize, &scratch) { blob throws(PindropError) in
            try Self.withBlobContent(blob, number: number, body)
        }
    }

    /// Calls `body` with the uncompressed content of a blob: borrowed for `raw`, inflated for `zlib_data`.
    private static func withBlobContent<Result>(
        _ blob: UnsafeRawBufferPointer, number: Int,
        _ body: (UnsafeRawBufferPointer) throws(PindropError) -> Result
    ) throws(PindropError) -> Result {
        var reader = OSMProtobufReader(blob, context: "Blob of block \(number)")
        var raw, zlibData: UnsafeRawBufferPointer?  // the content, stored as is or compressed
        var rawSize: Int64?
        var otherCompression: String?
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited): raw = try reader.readLengthDelimited()
            case (2, .varint): rawSize = try reader.readInt64()
            case (3, .lengthDelimited): zlibData = try reader.readLengthDelimited()
            case (4, _): otherCompression = "lzma"; try reader.skip(field.wireType)
            case (5, _): otherCompression = "bzip2"; try reader.skip(field.wireType)
            case (6, _): otherCompression = "lz4"; try reader.skip(field.wireType)
            case (7, _): otherCompression = "zstd"; try reader.skip(field.wireType)
            default: try reader.skip(field.wireType)
            }
        }
        if let raw { return try body(raw) }
        if let zlibData {
            guard let rawSize, rawSize >= 0 else {
                throw .unreadableData("OSM PBF: the zlib blob of block \(number) has a missing or absurd raw_size (\(rawSize.map(String.init) ?? "none"))")
            }
            guard rawSize <= Int64(maximumBlobSize) else {
                throw .unreadableData("OSM PBF: the zlib blob of block \(number) declares a raw_size of \(rawSize) bytes,"
                                      + " over the format's limit of \(maximumBlobSize)")
            }
            guard rawSize <= Int64(zlibData.count) * Int64(maximumInflationRatio) else {
                throw .unreadableData("OSM PBF: the zlib blob of block \(number) declares \(rawSize) bytes from \(zlibData.count),"
                                      + " over \(maximumInflationRatio) times its size; this is not a real extract")
            }
            let inflated = try OSMZlib.inflate(zlibData, expectedSize: Int(rawSize))
            return try inflated.osmWithUnsafeBytes { (content: UnsafeRawBufferPointer) throws(PindropError) -> Result in
                try body(content)
            }
        }
        if let otherCompression {
            throw .unreadableData("OSM PBF: block \(number) is \(otherCompression)-compressed; only raw and zlib blobs are supported")
        }
        throw .unreadableData("OSM PBF: block \(number) has a blob without data")
    }

    // MARK: Header block

    /// The header an OSMHeader block holds, refused when it requires features this reader lacks.
    private func checkedHeader(_ block: FileBlock, number: Int, _ scratch: inout OSMReadBuffer) throws(PindropError) -> OSMHeader {
        let header = try withBlobContent(block, number: number, &scratch) { content throws(PindropError) in
            try Self.decodeHeader(content)
        }
        try Self.checkFeatures(header)
        return header
    }

    private static func decodeHeader(_ content: UnsafeRawBufferPointer) throws(PindropError) -> OSMHeader {
        var reader = OSMProtobufReader(content, context: "HeaderBlock")
        var header = OSMHeader()
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited): header.boundingBox = try decodeBoundingBox(reader.readMessage("HeaderBBox"))
            case (4, .lengthDelimited): header.requiredFeatures.append(try reader.readString())
            case (5, .lengthDelimited): header.optionalFeatures.append(try reader.readString())
            case (16, .lengthDelimited): header.writingProgram = try reader.readString()
            case (17, .lengthDelimited): header.source = try reader.readString()
            default: try reader.skip(field.wireType)
            }
        }
        return header
    }

    private static func decodeBoundingBox(_ message: OSMProtobufReader) throws(PindropError) -> BoundingBox {
        var reader = message
        var left: Int64 = 0, right: Int64 = 0, top: Int64 = 0, bottom: Int64 = 0
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .varint): left = try reader.readSignedVarint()
            case (2, .varint): right = try reader.readSignedVarint()
            case (3, .varint): top = try reader.readSignedVarint()
            case (4, .varint): bottom = try reader.readSignedVarint()
            default: try reader.skip(field.wireType)
            }
        }
        // HeaderBBox is in nanodegrees.
        return BoundingBox(south: Double(bottom) * 1e-9, west: Double(left) * 1e-9,
                           north: Double(top) * 1e-9, east: Double(right) * 1e-9)
    }

    private static func checkFeatures(_ header: OSMHeader) throws(PindropError) {
        let unknown = header.requiredFeatures.filter { !supportedFeatures.contains($0) }
        guard unknown.isEmpty else {
            throw .unreadableData("OSM PBF: the file requires features this reader does not support: \(unknown.joined(separator: ", "))")
        }
    }
}
