import Foundation

/// A small, fast JSON byte writer: the one serialiser behind the CLI, batch output and the server,
/// so every front end writes the same fields the same way. Commas are placed automatically.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public var bytes: [UInt8] { Array(buffer[..<count]) }
    /// What is written, in its first `count` bytes; the bytes after them are room to write on. A value is written
    /// through one pointer into it (an `append` a byte checked the array's uniqueness and capacity each time: the
    /// JSON of a suggestion cost more than finding it).
    private var buffer: [UInt8]
    private var count = 0
    private var needsComma = false

    /// Starts an empty document.
    public init(capacity: Int = 256) { buffer = Self.room(max(capacity, 64)) }

    /// `count` bytes to write on, not zeroed first (nothing past `count` is ever read).
    private static func room(_ count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
    }

    /// Hands the document's bytes to `body` without copying them.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }

    /// Writes `{`.
    public mutating func beginObject() { punctuation(UInt8(ascii: "{"), separated: true); needsComma = false }
    /// Writes `}`.
    public mutating func endObject() { punctuation(UInt8(ascii: "}"), separated: false); needsComma = true }
    /// Writes `[`.
    public mutating func beginArray() { punctuation(UInt8(ascii: "["), separated: true); needsComma = false }
    /// Writes `]`.
    public mutating func endArray() { punctuation(UInt8(ascii: "]"), separated: false); needsComma = true }

    /// Writes an object key written in the code; the value written next belongs to it. (A key from a `String` went
    /// through the string's storage checks: three quarters of a document's strings are keys.)
    public mutating func key(_ name: StaticString) {
        let comma = needsComma
        name.withUTF8Buffer { utf8 in
            assert(Self.isPlain(utf8), "a key written in the code needs no escaping")
            writePlainQuoted(utf8, comma: comma, colon: true)
        }
        needsComma = false
    }

    /// Writes an object key made at run time (a tag's name, a parameter echoed back).
    public mutating func key(named name: String) {
        writeString(name, colon: true)
        needsComma = false
    }

    /// Writes a string value, escaped.
    public mutating func string(_ value: String) { writeString(value, colon: false); needsComma = true }
    /// Writes a place's id or list line; one kept as its parts goes straight into the document, not made a `String`
    /// first (an allocation a result).
    public mutating func string(_ text: PlaceText) {
        switch text {
        case .written(let value): string(value)
        case .geonamesID(let id): plainString(room: PlaceText.geonamesIDRoom) { PlaceText.writeGeonamesID(id, to: $0) }
        case .joined(let first, let second, let third):
            let comma = needsComma
            // Each byte six at most escaped, and a comma and two quotes.
            append(room: PlaceText.joinedCount(first, second, third) * 6 + 3) { out in
                var n = 0
                if comma { out[0] = UInt8(ascii: ","); n = 1 }
                out[n] = UInt8(ascii: "\""); n += 1
                n += PlaceText.writeJoined(first, second, third, to: out + n) { Self.escape($0, to: $1) }
                out[n] = UInt8(ascii: "\"")
                return n + 1
            }
            needsComma = true
        }
    }

    /// Writes a string value whose bytes `write` puts at the pointer it is given, at most `room` of them, and returns
    /// how many: printable ASCII other than `"` and `\`, which need no escaping (numbers some APIs send as strings,
    /// written without a `String` made for each).
    public mutating func plainString(room: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        let comma = needsComma
        append(room: room + 3) { out in
            var n = 0
            if comma { out[0] = UInt8(ascii: ","); n = 1 }
            out[n] = UInt8(ascii: "\""); n += 1
            let written = write(out + n)
            assert(Self.isPlain(UnsafeBufferPointer(start: out + n, count: written)), "a plain string needs no escaping")
            n += written
            out[n] = UInt8(ascii: "\"")
            return n + 1
        }
        needsComma = true
    }

    /// Writes an integer value.
    public mutating func number(_ value: Int) {
        let comma = needsComma
        append(room: 21) { out in
            var n = 0
            if comma { out[0] = UInt8(ascii: ","); n = 1 }
            return n + Self.writeInteger(value, to: out + n)
        }
        needsComma = true
    }

    /// Writes `value`'s decimal digits at `out` (20 bytes at most); returns how many.
    private static func writeInteger(_ value: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if value < 0 { out[0] = 0x2D; n = 1 }
        var rest = value.magnitude, digits = 1
        while rest >= 10 { rest /= 10; digits += 1 }
        rest = value.magnitude
        for d in stride(from: n + digits - 1, through: n, by: -1) { out[d] = 0x30 + UInt8(rest % 10); rest /= 10 }
        return n + digits
    }

    /// Writes `room` bytes at most through `write`, given where the document ends; `write` returns how many it wrote.
    @inline(__always)
    private mutating func append(room: Int, _ write: (UnsafeMutablePointer<UInt8>) -> Int) {
        if count + room > buffer.count { grow(toHold: room) }
        let at = count
        count += buffer.withUnsafeMutableBufferPointer { write($0.baseAddress! + at) }
    }

    /// Doubles the room (or more, to hold `room` bytes after the document).
    private mutating func grow(toHold room: Int) {
        var larger = Self.room(count + max(buffer.count, room))
        larger.withUnsafeMutableBufferPointer { to in
            buffer.withUnsafeBufferPointer { from in to.baseAddress!.update(from: from.baseAddress!, count: count) }
        }
        buffer = larger
    }

    /// Writes one byte of punctuation, after a comma when `separated` and a value came before.
    private mutating func punctuation(_ byte: UInt8, separated: Bool) {
        let comma = separated && needsComma
        append(room: 2) { out in
            if comma { out[0] = UInt8(ascii: ","); out[1] = byte; return 2 }
            out[0] = byte
            return 1
        }
    }

    /// Writes a literal, after a comma when a value came before.
    private mutating func plain(_ text: StaticString) {
        writeUnescaped(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount), comma: needsComma)
    }

    /// Appends an integer's decimal digits (through a buffer on the stack: `String(value)` went through the generic
    /// formatting, and every result has a few).
    static func appendInteger(_ value: Int, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            let n = writeInteger(value, to: digits.baseAddress!)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<n]))
        }
    }

    /// A number JSON writes as an integer (without ".0"): a whole one of fewer than 16 digits.
    private static func integral(_ value: Double) -> Int? {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? Int(value) : nil
    }

    /// Writes a number value (non-finite numbers become null, which JSON has no other way to say).
    public mutating func number(_ value: Double) {
        if let whole = Self.integral(value) { number(whole); return }
        guard value.isFinite else { null(); return }
        let comma = needsComma
        var written = false
        append(room: 32) { out in
            var n = 0
            if comma { out[0] = UInt8(ascii: ","); n = 1 }
            guard let digits = Self.writeShortDecimal(value, to: out + n) else { return 0 }
            written = true
            return n + digits
        }
        if !written {
            var digits = value.description
            digits.withUTF8 { writeUnescaped($0, comma: comma) }
        }
        needsComma = true
    }

    /// Writes `value` as `description` does, for the numbers an answer mostly holds (coordinates, distances): a
    /// value from 0.001 to 10⁹ of at most 9 decimals, written with the fewest decimals that read back as it (30
    /// bytes at most). Nil for any other value, which `description` then writes (its shortest-digits algorithm cost
    /// more than the rest of a result's JSON).
    ///
    /// With k decimals, m = round(value × 10^k) is the only candidate (10^-k far wider than the spacing of
    /// doubles there, or no answer), and `Double(m) / 10^k`, one correctly rounded division, is exactly what reading the text
    /// m × 10^-k gives. The first k that reads back is the shortest text, as `description`'s is.
    static func writeShortDecimal(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        let magnitude = abs(value)
        guard magnitude >= 0.001, magnitude < 1e9 else { return nil }
        // Past this scale, two texts of k decimals could read back as the value, and `description` picks the nearer.
        let widest = 0.001 / magnitude.ulp
        var scale = 1.0
        for decimals in 1...9 {
            scale *= 10
            guard scale < widest else { return nil }
            // A candidate lies within a hair of a whole number, so truncating after adding a half rounds it (without
            // a call to libm's `round`); anything else fails the check below either way.
            var m = UInt64(magnitude * scale + 0.5)
            guard Double(m) / scale == magnitude else { continue }
            var n = 0
            if value < 0 { out[0] = 0x2D; n = 1 }
            // The digits of m, then the point put in before its last `decimals` digits (zeros in front as needed).
            var digits = 1
            var rest = m
            while rest >= 10 { rest /= 10; digits += 1 }
            let total = max(digits, decimals + 1)
            for i in stride(from: n + total, through: n, by: -1) where i != n + total - decimals {
                out[i] = 0x30 + UInt8(m % 10)
                m /= 10
            }
            out[n + total - decimals] = UInt8(ascii: ".")
            return n + total + 1
        }
        return nil
    }

    /// Appends a number as JSON writes it (integers without ".0", non-finite as null).
    public static func appendNumber(_ value: Double, to bytes: inout [UInt8]) {
        if let whole = integral(value) { appendInteger(whole, to: &bytes) }
        else if value.isFinite { bytes.append(contentsOf: value.description.utf8) }
        else { bytes.append(contentsOf: "null".utf8) }
    }
    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) { plain(value ? "true" : "false"); needsComma = true }
    /// Writes `null`.
    public mutating func null() { plain("null"); needsComma = true }
    /// Writes an array of strings.
    public mutating func strings(_ values: some Sequence<String>) {
        beginArray()
        for value in values { string(value) }
        endArray()
    }
    /// Writes pre-encoded members of the object being written (`"a":1,"b":2`, made by a writer of their own).
    public mutating func members(_ json: [UInt8]) {
        guard !json.isEmpty else { return }
        raw(json)
    }

    /// The members written since `beginObject` of a document that is one object (`{` then members), for `members`.
    public var membersOfObject: [UInt8] { Array(buffer[1..<count]) }

    /// Empties the document, keeping its room: a writer reused for many documents allocates once.
    public mutating func reset() {
        count = 0
        needsComma = false
    }

    /// Appends the document's bytes to `out`.
    public func append(to out: inout [UInt8]) {
        buffer.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
    }

    /// Writes pre-encoded JSON as the next value.
    public mutating func raw(_ json: [UInt8]) {
        let comma = needsComma
        json.withUnsafeBufferPointer { writeUnescaped($0, comma: comma) }
        needsComma = true
    }

    /// Writes a latitude or a longitude with at most 7 decimals (about a centimetre), as Nominatim writes them: the
    /// noise of arithmetic on doubles (47.139368100000006) is never part of an answer. Every wire format writes
    /// coordinates through this.
    public mutating func degrees(_ value: Double) { number(Self.roundedDegrees(value)) }

    /// `value` rounded to 7 decimals.
    public static func roundedDegrees(_ value: Double) -> Double { (value * 1e7).rounded() / 1e7 }

    /// Writes `"key": value` for each non-nil optional.
    public mutating func field(_ name: StaticString, _ value: String?) { if let value { key(name); string(value) } }
    public mutating func field(_ name: StaticString, _ value: Double?) { if let value { key(name); number(value) } }
    public mutating func field(_ name: StaticString, _ value: Int?) { if let value { key(name); number(value) } }
    public mutating func field(_ name: StaticString, _ value: Bool?) { if let value { key(name); bool(value) } }
    /// `field` with a key made at run time.
    public mutating func field(named name: String, _ value: String?) { if let value { key(named: name); string(value) } }

    /// The document as a String.
    public var string: String { withUnsafeBytes { String(decoding: $0, as: UTF8.self) } }

    /// Writes `value` quoted and escaped, after a comma when a value came before, and a colon after it when it is a
    /// key.
    private mutating func writeString(_ value: String, colon: Bool) {
        let comma = needsComma
        // Read where the string keeps its bytes (a copy of the String to call `withUTF8` cost a retain and release).
        // Spelled out, not through `withUTF8Bytes`: every string of an answer comes here, and the helper changed what
        // the compiler inlined around it (2.5% more instructions a document, callgrind).
        let written: Void? = value.utf8.withContiguousStorageIfAvailable { writeQuoted($0, comma: comma, colon: colon) }
        if written == nil {
            var contiguous = value
            contiguous.withUTF8 { writeQuoted($0, comma: comma, colon: colon) }
        }
    }

    /// `writeString` of the string's UTF-8. Most strings need no escaping: checked eight bytes at a time, then
    /// copied whole.
    private mutating func writeQuoted(_ utf8: UnsafeBufferPointer<UInt8>, comma: Bool, colon: Bool) {
        guard Self.isPlain(utf8) else { return writeEscaped(utf8, comma: comma, colon: colon) }
        writePlainQuoted(utf8, comma: comma, colon: colon)
    }

    /// Writes bytes that need no escaping between quotes.
    @inline(__always)
    private mutating func writePlainQuoted(_ utf8: UnsafeBufferPointer<UInt8>, comma: Bool, colon: Bool) {
        append(room: utf8.count + 4) { out in
            var n = 0
            if comma { out[0] = UInt8(ascii: ","); n = 1 }
            out[n] = UInt8(ascii: "\""); n += 1
            if let start = utf8.baseAddress { (out + n).initialize(from: start, count: utf8.count) }
            n += utf8.count
            out[n] = UInt8(ascii: "\""); n += 1
            if colon { out[n] = UInt8(ascii: ":"); n += 1 }
            return n
        }
    }

    /// Writes bytes as they are (a number's digits, a literal, JSON made before), after a comma when `comma`.
    private mutating func writeUnescaped(_ utf8: UnsafeBufferPointer<UInt8>, comma: Bool) {
        append(room: utf8.count + 2) { out in
            var n = 0
            if comma { out[0] = UInt8(ascii: ","); n = 1 }
            if let start = utf8.baseAddress { (out + n).initialize(from: start, count: utf8.count) }
            return n + utf8.count
        }
    }

    /// Whether the bytes can stand between quotes as they are: no quote, backslash or control character. Eight
    /// bytes at a time: a word has a byte below `n` when `(w - n×0x01…01) & ~w & 0x80…80` is not zero, and a byte
    /// equal to `b` when `w ^ b×0x01…01` has a zero byte (a test exact for bytes up to 0x80).
    private static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ w: UInt64) -> Bool { (w &- ones) & ~w & highs != 0 }
        func special(_ w: UInt64) -> Bool {
            (w &- ones &* 0x20) & ~w & highs != 0 || hasZero(w ^ (ones &* 0x22)) || hasZero(w ^ (ones &* 0x5C))
        }
        var i = 0
        if let base = utf8.baseAddress, utf8.count >= 8 {
            let raw = UnsafeRawPointer(base)
            while i + 8 <= utf8.count {
                if special(raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) { return false }
                i += 8
            }
            // The last word, overlapping the one before: no byte-by-byte tail.
            return i == utf8.count || !special(raw.loadUnaligned(fromByteOffset: utf8.count - 8, as: UInt64.self))
        }
        while i < utf8.count {
            let byte = utf8[i]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            i += 1
        }
        return true
    }

    /// `writeString` for text with quotes, backslashes or control characters: each escaped.
    private mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>, comma: Bool, colon: Bool) {
        append(room: utf8.count * 6 + 4) { out in
            var n = 0
            if comma { out[0] = UInt8(ascii: ","); n = 1 }
            out[n] = UInt8(ascii: "\""); n += 1
            n += Self.escape(utf8, to: out + n)
            out[n] = UInt8(ascii: "\""); n += 1
            if colon { out[n] = UInt8(ascii: ":"); n += 1 }
            return n
        }
    }

    /// Writes a string's bytes escaped at `out` (six bytes each at most), without quotes; returns how many.
    private static func escape(_ value: String, to out: UnsafeMutablePointer<UInt8>) -> Int {
        value.withUTF8Bytes { escape($0, to: out) }
    }

    /// Writes bytes escaped at `out` (six each at most), without quotes; returns how many. Most need none: copied whole.
    private static func escape(_ utf8: UnsafeBufferPointer<UInt8>, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if isPlain(utf8) {
            if let start = utf8.baseAddress { out.initialize(from: start, count: utf8.count) }
            return utf8.count
        }
        var n = 0
        func put(_ byte: UInt8) { out[n] = byte; n += 1 }
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): put(0x5C); put(0x22)
            case UInt8(ascii: "\\"): put(0x5C); put(0x5C)
            case 0x0A: put(0x5C); put(UInt8(ascii: "n"))
            case 0x0D: put(0x5C); put(UInt8(ascii: "r"))
            case 0x09: put(0x5C); put(UInt8(ascii: "t"))
            case 0..<0x20:
                let hex: StaticString = "0123456789abcdef"
                put(0x5C); put(UInt8(ascii: "u")); put(0x30); put(0x30)
                put(hex.utf8Start[Int(byte >> 4)]); put(hex.utf8Start[Int(byte & 15)])
            default: put(byte)
            }
        }
        return n
    }
}
