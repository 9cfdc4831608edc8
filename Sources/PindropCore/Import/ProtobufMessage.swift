/// Writes a protocol buffer message field by field: what the PBF writer (`OSMPBFWriter`) makes its blocks of, and
/// what tests make small, broken and hostile files with.
public struct ProtobufMessage: Sendable {
    /// The message's bytes so far.
    public var bytes: [UInt8] = []

    /// An empty message.
    public init() {}

    /// A varint's bytes.
    public static func varint(_ value: UInt64) -> [UInt8] {
        var message = ProtobufMessage()
        message.appendVarint(value)
        return message.bytes
    }

    /// The zigzag coding of a signed value (`sint64`).
    public static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    private mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 { bytes.append(UInt8(value & 0x7F) | 0x80); value >>= 7 }
        bytes.append(UInt8(value))
    }

    /// Appends a varint field.
    public mutating func varint(_ field: Int, _ value: UInt64) {
        appendVarint(UInt64(field << 3)); appendVarint(value)
    }

    /// Appends a `sint64` field.
    public mutating func signed(_ field: Int, _ value: Int64) { varint(field, Self.zigzag(value)) }

    /// Appends a length-delimited field.
    public mutating func data(_ field: Int, _ data: [UInt8]) {
        appendVarint(UInt64(field << 3 | 2)); appendVarint(UInt64(data.count))
        bytes += data
    }

    /// Appends a string field.
    public mutating func string(_ field: Int, _ text: String) { data(field, Array(text.utf8)) }

    /// Appends a nested message.
    public mutating func message(_ field: Int, _ message: ProtobufMessage) { data(field, message.bytes) }

    /// Appends a packed repeated varint field.
    public mutating func packed(_ field: Int, _ values: [UInt64]) {
        var packed = ProtobufMessage()
        for value in values { packed.appendVarint(value) }
        data(field, packed.bytes)
    }

    /// Appends a packed repeated `sint64` field.
    public mutating func packedSigned(_ field: Int, _ values: [Int64]) { packed(field, values.map(Self.zigzag)) }

    /// Appends a packed repeated `sint64` field of the differences between successive values (the PBF format's
    /// delta coding of ids, coordinates and times).
    public mutating func packedDeltas(_ field: Int, _ values: [Int64]) {
        packedSigned(field, zip(values, [0] + values).map { $0 &- $1 })
    }
}
