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
    public mutating func number(_ value: Int) { separate(); bytes.append(contentsOf: String(value).utf8); needsComma = true }
    /// Writes a number value (non-finite numbers become null, which JSON has no other way to say).
    public mutating func number(_ value: Double) {
        separate()
        Self.appendNumber(value, to: &bytes)
        needsComma = true
    }

    /// Appends a number as JSON writes it (integers without ".0", non-finite as null).
    public static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        if value.isFinite {
            if value == value.rounded(), abs(value) < 1e15 { bytes.append(contentsOf: String(Int(value)).utf8) }
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
        bytes.append(UInt8(ascii: "\""))
        func plain(_ byte: UInt8) -> Bool { byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") }
        // Most strings need no escaping: copy them whole, straight from their storage when they have it.
        let copied = value.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.allSatisfy(plain) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied == nil, value.utf8.allSatisfy(plain) { bytes.append(contentsOf: value.utf8) }
        else if copied != true { return writeEscaped(value) }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func writeEscaped(_ value: String) {
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
