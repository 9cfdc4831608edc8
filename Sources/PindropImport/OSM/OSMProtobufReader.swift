import PindropCore

/// The wire types of the protocol buffer encoding that OSM PBF uses.
enum OSMWireType: UInt8 {
    case varint = 0
    case fixed64 = 1
    case lengthDelimited = 2
    case fixed32 = 5
}

/// A minimal protocol buffer reader over borrowed bytes: just what the two OSM schemas
/// (`fileformat.proto`, `osmformat.proto`) need. Every read is bounds-checked and throws
/// `PindropError.unreadableData` instead of trapping, so a broken file cannot crash the import.
struct OSMProtobufReader {
    let bytes: UnsafeRawBufferPointer
    private var position = 0
    /// Names the message being read, for error messages ("PrimitiveBlock", "DenseNodes").
    let context: String

    init(_ bytes: UnsafeRawBufferPointer, context: String) {
        self.bytes = bytes
        self.context = context
    }

    var isAtEnd: Bool { position >= bytes.count }

    func error(_ what: String) -> PindropError {
        .unreadableData("OSM PBF: \(what) in \(context)")
    }

    /// The next field's number and wire type, or nil at the end of the message.
    mutating func nextField() throws(PindropError) -> (number: Int, wireType: OSMWireType)? {
        guard !isAtEnd else { return nil }
        let key = try readVarint()
        guard let wireType = OSMWireType(rawValue: UInt8(key & 7)) else {
            throw error("unsupported wire type \(key & 7)")
        }
        let number = key >> 3
        guard number > 0, number < 1 << 29 else { throw error("invalid field number \(number)") }
        return (Int(number), wireType)
    }

    @inline(__always)
    mutating func readVarint() throws(PindropError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return result }
            shift += 7
            if shift >= 64 { throw error("varint longer than 10 bytes") }
        }
        throw error("truncated varint")
    }

    @inline(__always)
    mutating func readSignedVarint() throws(PindropError) -> Int64 {
        let raw = try readVarint()
        return Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1)))  // zigzag
    }

    mutating func readInt64() throws(PindropError) -> Int64 { Int64(bitPattern: try readVarint()) }

    /// The bytes of a length-delimited field, borrowed from the same buffer.
    mutating func readLengthDelimited() throws(PindropError) -> UnsafeRawBufferPointer {
        let length = try readVarint()
        guard length <= UInt64(bytes.count - position) else {
            throw error("field length \(length) runs past the end (\(bytes.count - position) bytes left)")
        }
        let start = position
        position += Int(length)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<position])
    }

    mutating func readString() throws(PindropError) -> String {
        String(decoding: try readLengthDelimited(), as: UTF8.self)
    }

    /// A nested message's reader.
    mutating func readMessage(_ name: String) throws(PindropError) -> OSMProtobufReader {
        OSMProtobufReader(try readLengthDelimited(), context: name)
    }

    mutating func skip(_ wireType: OSMWireType) throws(PindropError) {
        switch wireType {
        case .varint: _ = try readVarint()
        case .lengthDelimited: _ = try readLengthDelimited()
        case .fixed64: try advance(8)
        case .fixed32: try advance(4)
        }
    }

    private mutating func advance(_ count: Int) throws(PindropError) {
        guard count <= bytes.count - position else { throw error("truncated fixed-size field") }
        position += count
    }

    /// Calls `body` for each value of a repeated varint field, packed or not.
    @inline(__always)
    mutating func forEachVarint(_ wireType: OSMWireType, _ body: (UInt64) throws(PindropError) -> Void) throws(PindropError) {
        switch wireType {
        case .varint:
            try body(try readVarint())
        case .lengthDelimited:
            var packed = OSMProtobufReader(try readLengthDelimited(), context: context)
            while !packed.isAtEnd { try body(try packed.readVarint()) }
        default:
            throw error("wire type \(wireType.rawValue) for a repeated integer field")
        }
    }

    /// Appends the values of a repeated unsigned or plain int field (uint32, int32, int64, enum), unless there are
    /// more than `room`; returns how many the field holds (`append`).
    @discardableResult
    mutating func appendVarints(_ wireType: OSMWireType, to array: inout [Int64], room: Int = .max) throws(PindropError) -> Int {
        try append(wireType, to: &array, room: room) { raw, _ in Int64(bitPattern: raw) }
    }

    /// Appends the running sums of a delta-coded repeated sint64 field, unless there are more than `room`; returns
    /// how many the field holds (`append`).
    @discardableResult
    mutating func appendDeltaDecoded(_ wireType: OSMWireType, to array: inout [Int64], room: Int = .max) throws(PindropError) -> Int {
        try append(wireType, to: &array, room: room) { raw, before in before &+ Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))) }
    }

    /// Appends a repeated varint field's values, each made from its raw value and the value before it (the array's
    /// last, or 0), and returns how many the field holds. A packed field's values are counted first (one byte under
    /// 0x80 ends each) and written in place: a dense block's ids, coordinates and tags are a few thousand values
    /// each, and appending them one by one checked the array's room and ownership at every value. When the field
    /// holds more than `room` values none is appended (the field is skipped), so a hostile count allocates nothing:
    /// the caller says what is over its limit.
    @inline(__always)
    private mutating func append(_ wireType: OSMWireType, to array: inout [Int64], room: Int,
                                 _ value: (_ raw: UInt64, _ before: Int64) -> Int64) throws(PindropError) -> Int {
        guard wireType == .lengthDelimited else {
            try forEachVarint(wireType) { raw in if room > 0 { array.append(value(raw, array.last ?? 0)) } }
            return 1
        }
        var packed = OSMProtobufReader(try readLengthDelimited(), context: context)
        var count = 0
        for byte in packed.bytes where byte < 0x80 { count += 1 }
        guard count <= room else { return count }
        let first = array.count
        var before = array.last ?? 0
        array.append(contentsOf: repeatElement(0, count: count))
        var failure: PindropError?
        array.withUnsafeMutableBufferPointer { out in
            do throws(PindropError) {
                for i in first..<(first + count) {
                    before = value(try packed.readVarint(), before)
                    out[i] = before
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        // Bytes left after the last complete value: a varint cut short.
        if !packed.isAtEnd { throw error("truncated varint") }
        return count
    }

    /// How many values a repeated varint field holds, packed or not, without decoding them.
    mutating func countVarints(_ wireType: OSMWireType) throws(PindropError) -> Int {
        guard wireType == .lengthDelimited else {
            try forEachVarint(wireType) { _ in }
            return 1
        }
        var count = 0
        for byte in try readLengthDelimited() where byte < 0x80 { count += 1 }
        return count
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` keeping the typed error (the standard one is only `rethrows`).
    func osmWithUnsafeBytes<Result>(
        _ body: (UnsafeRawBufferPointer) throws(PindropError) -> Result
    ) throws(PindropError) -> Result {
        let outcome: Swift.Result<Result, PindropError> = withUnsafeBytes { buffer in
            do throws(PindropError) { return .success(try body(buffer)) } catch { return .failure(error) }
        }
        return try outcome.get()
    }
}
