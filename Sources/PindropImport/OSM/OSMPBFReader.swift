import Foundation
import PindropCore

/// Reads OpenStreetMap PBF files (https://wiki.openstreetmap.org/wiki/PBF_Format) with a small
/// hand-written protocol buffer decoder: file blocks, `raw` and `zlib_data` blobs, the header block,
/// string tables, granularity and offsets, plain and dense nodes, ways and relations.
///
/// Broken input (truncated, garbage, absurd sizes, unsupported compression or required features)
/// throws `PindropError.unreadableData` with a message saying what is wrong; it never traps or hangs.
public struct OSMPBFReader: Sendable {
    /// The largest block header the reader accepts; the format allows 64 KiB, real files use far less.
    public static let maximumHeaderSize = 64 * 1024 * 1024
    /// The largest blob, compressed or not, the reader accepts; the format allows 32 MiB.
    public static let maximumBlobSize = 64 * 1024 * 1024
    /// The `required_features` this reader understands; a file needing anything else is refused.
    public static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    private let bytes: [UInt8]

    /// A reader over a whole file's bytes.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// A reader over the file at `path`, read into memory at once.
    public init(contentsOfFile path: String) throws(PindropError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadableData("cannot read the OSM file at \(path)")
        }
        self.init(bytes: [UInt8](data))
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

    /// Streams the file block by block, so memory stays at one block plus what `body` keeps.
    /// Returns the file's header, which has been checked before the first call of `body`.
    @discardableResult
    public func forEachPrimitiveBlock(
        _ body: (OSMPrimitiveBlock) throws(PindropError) -> Void
    ) throws(PindropError) -> OSMHeader {
        guard !bytes.isEmpty else { throw .unreadableData("OSM PBF: the file is empty") }
        return try bytes.osmWithUnsafeBytes { (file: UnsafeRawBufferPointer) throws(PindropError) -> OSMHeader in
            var header: OSMHeader?
            var offset = 0
            var blockNumber = 0
            while offset < file.count {
                blockNumber += 1
                let (type, blob, next) = try Self.fileBlock(in: file, at: offset, number: blockNumber)
                offset = next
                switch type {
                case "OSMHeader":
                    let decoded = try Self.withBlobContent(blob, number: blockNumber) { content throws(PindropError) in
                        try Self.decodeHeader(content)
                    }
                    try Self.checkFeatures(decoded)
                    header = decoded
                case "OSMData":
                    guard header != nil else {
                        throw .unreadableData("OSM PBF: block \(blockNumber) holds data before any OSMHeader block")
                    }
                    let block = try Self.withBlobContent(blob, number: blockNumber) { content throws(PindropError) in
                        var decoder = OSMPrimitiveBlockDecoder()
                        return try decoder.decode(content)
                    }
                    try body(block)
                default:
                    continue  // The format says unknown block types are skipped.
                }
            }
            guard let header else { throw .unreadableData("OSM PBF: the file has no OSMHeader block") }
            return header
        }
    }

    /// Convenience: decodes the file at `path` into arrays.
    public static func read(contentsOfFile path: String) throws(PindropError) -> OSMData {
        try OSMPBFReader(contentsOfFile: path).readAll()
    }

    // MARK: File blocks and blobs

    /// Splits off the file block at `offset`: its type, its blob message, and where the next block starts.
    private static func fileBlock(
        in file: UnsafeRawBufferPointer, at offset: Int, number: Int
    ) throws(PindropError) -> (type: String, blob: UnsafeRawBufferPointer, next: Int) {
        let remaining = file.count - offset
        guard remaining >= 4 else {
            throw .unreadableData("OSM PBF: the file is truncated (\(remaining) stray bytes after block \(number - 1))")
        }
        let headerLength = Int(file[offset]) << 24 | Int(file[offset + 1]) << 16 | Int(file[offset + 2]) << 8 | Int(file[offset + 3])
        guard headerLength > 0, headerLength <= maximumHeaderSize else {
            throw .unreadableData("OSM PBF: block \(number) declares a header of \(headerLength) bytes; this is not an OSM PBF file or it is corrupt")
        }
        guard headerLength <= remaining - 4 else {
            throw .unreadableData("OSM PBF: the file is truncated inside the header of block \(number)")
        }
        let headerStart = offset + 4
        var reader = OSMProtobufReader(UnsafeRawBufferPointer(rebasing: file[headerStart..<headerStart + headerLength]),
                                       context: "BlobHeader of block \(number)")
        var type: String?, dataSize: Int64?
        while let field = try reader.nextField() {
            switch (field.number, field.wireType) {
            case (1, .lengthDelimited): type = try reader.readString()
            case (3, .varint): dataSize = try reader.readInt64()
            default: try reader.skip(field.wireType)
            }
        }
        guard let type, let dataSize else {
            throw .unreadableData("OSM PBF: block \(number) has no type or no data size; this is not an OSM PBF file or it is corrupt")
        }
        guard dataSize >= 0, dataSize <= Int64(maximumBlobSize) else {
            throw .unreadableData("OSM PBF: block \(number) declares a blob of \(dataSize) bytes, over the \(maximumBlobSize)-byte limit")
        }
        let blobStart = headerStart + headerLength
        guard Int(dataSize) <= file.count - blobStart else {
            throw .unreadableData("OSM PBF: the file is truncated inside the blob of block \(number) (\(dataSize) bytes declared, \(file.count - blobStart) left)")
        }
        let blobEnd = blobStart + Int(dataSize)
        return (type, UnsafeRawBufferPointer(rebasing: file[blobStart..<blobEnd]), blobEnd)
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
            guard let rawSize, rawSize >= 0, rawSize <= Int64(maximumBlobSize) else {
                throw .unreadableData("OSM PBF: the zlib blob of block \(number) has a missing or absurd raw_size (\(rawSize.map(String.init) ?? "none"))")
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
