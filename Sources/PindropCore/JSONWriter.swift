import Foundation

/// A small, fast JSON byte writer: the one serialiser behind the CLI, batch output and the server,
/// so every front end writes the same fields the same way. Commas are placed automatically.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []
    private var needsComma = false

    /// Starts an empty document.
    public init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    /// Writes `{`.
    public mutating func beginObject() { separate(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    /// Writes `}`.
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    /// Writes `[`.
    public mutating func beginArray() { separate(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    /// Writes `]`.
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    /// Writes an object key; the value written next belongs to it.
    public mutating func key(_ name: String) {
        separate()
        writeString(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a string value, escaped.
    public mutating func string(_ value: String) { separate(); writeString(value); needsComma = true }
    /// Writes an integer value.
    public mutating func number(_ value: Int) { separate(); Self.appendInteger(value, to: &bytes); needsComma = true }

    /// Appends an integer's decimal digits (through a buffer on the stack: `String(value)` went through the generic
    /// formatting, and every result has a few).
    static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var rest = value.magnitude, n = 20
            repeat { n -= 1; digits[n] = 0x30 + UInt8(rest % 10); rest /= 10 } while rest > 0
            if value < 0 { bytes.append(0x2D) }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[n...]))
        }
    }
    /// Writes a number value (non-finite numbers become null, which JSON has no other way to say).
    public mutating func number(_ value: Double) {
        separate()
        Self.appendNumber(value, to: &bytes)
        needsComma = true
    }

    /// Appends a number as JSON writes it (integers without ".0", non-finite as null).
    public static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        if value.isFinite {
            if value == value.rounded(), abs(value) < 1e15 { appendInteger(Int(value), to: &bytes) }
            else { bytes.append(contentsOf: value.description.utf8) }
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
    }
    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) { separate(); bytes.append(contentsOf: (value ? "true" : "false").utf8); needsComma = true }
    /// Writes `null`.
    public mutating func null() { separate(); bytes.append(contentsOf: "null".utf8); needsComma = true }
    /// Writes an array of strings.
    public mutating func strings(_ values: some Sequence<String>) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }
    /// Writes pre-encoded JSON as the next value.
    public mutating func raw(_ json: [UInt8]) { separate(); bytes.append(contentsOf: json); needsComma = true }

    /// Writes `"key": value` for each non-nil optional.
    public mutating func field(_ name: String, _ value: String?) { if let value { key(name); string(value) } }
    public mutating func field(_ name: String, _ value: Double?) { if let value { key(name); number(value) } }
    public mutating func field(_ name: String, _ value: Int?) { if let value { key(name); number(value) } }
    public mutating func field(_ name: String, _ value: Bool?) { if let value { key(name); bool(value) } }

    /// The document as a String.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func writeString(_ value: String) {
        // Most strings need no escaping: checked in one pass over their bytes, then copied whole with their quotes.
        let plain = value.utf8.withContiguousStorageIfAvailable { utf8 in
            guard Self.isPlain(utf8) else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if plain != true { writeEscaped(value) }
    }

    /// Whether the bytes can stand between quotes as they are (no quote, backslash or control character).
    private static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
        return true
    }

    private mutating func writeEscaped(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
