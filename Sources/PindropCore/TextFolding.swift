import Foundation

/// The one text normalisation used both when names are indexed and when queries arrive, so they meet:
/// lower case, no diacritics ("Zürich" → "zurich", "São Paulo" → "sao paulo", "Straße" → "strasse"),
/// apostrophes dropped ("Martha's" → "marthas"), any other punctuation a single space, trimmed.
/// Other scripts keep their letters ("Москва" → "москва").
public enum TextFolding {
    /// The folded form of `text`.
    public static func fold(_ text: some StringProtocol) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        fold(text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the folded UTF-8 of `text` to `output` (which should end at a word boundary or be empty).
    public static func fold(_ text: some StringProtocol, into output: inout [UInt8]) {
        // A String's UTF-8 is valid, so its scalars are decoded straight from the bytes, by a function that is not
        // generic: an import folds every name of every place, and a generic one looked up its string type at every
        // scalar (a quarter of the time folding took).
        text.withUTF8Bytes { fold(utf8: $0, into: &output) }
    }

    /// `fold` of the UTF-8 of a text (valid UTF-8: a `String`'s bytes or a slice of them at scalar boundaries).
    public static func fold(utf8 bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        let table = FoldTable.shared
        let start = output.count
        output.reserveCapacity(start + bytes.count)
        func appendSpace() {
            if output.count > start, output[output.count - 1] != 0x20 { output.append(0x20) }
        }
        table.ascii.withUnsafeBufferPointer { ascii in
            table.start.withUnsafeBufferPointer { tableStart in
                table.bytes.withUnsafeBufferPointer { tableBytes in
                    func append(ascii v: Int) {
                        let folded = ascii[v]
                        if folded == 0x20 { appendSpace() } else if folded != 0 { output.append(folded) }
                    }
                    var i = 0
                    while i < bytes.count {
                        let b0 = Int(bytes[i])
                        let v: Int, length: Int
                        if b0 < 0x80 {
                            append(ascii: b0)
                            i += 1
                            continue
                        } else if b0 < 0xE0 {
                            (v, length) = ((b0 & 0x1F) << 6 | Int(bytes[i + 1] & 0x3F), 2)
                        } else if b0 < 0xF0 {
                            (v, length) = ((b0 & 0x0F) << 12 | Int(bytes[i + 1] & 0x3F) << 6 | Int(bytes[i + 2] & 0x3F), 3)
                        } else {
                            (v, length) = ((b0 & 0x07) << 18 | Int(bytes[i + 1] & 0x3F) << 12 | Int(bytes[i + 2] & 0x3F) << 6
                                           | Int(bytes[i + 3] & 0x3F), 4)
                        }
                        if v < FoldTable.tableLimit {
                            for byte in tableBytes[Int(tableStart[v])..<Int(tableStart[v + 1])] {
                                if byte == 0x20 { appendSpace() } else { output.append(byte) }
                            }
                        } else if (0xFF01...0xFF5E).contains(v) {
                            // Full-width ASCII forms, as typed with CJK input methods.
                            append(ascii: v - 0xFF01 + 0x21)
                        } else if FoldTable.isLetterKeptAsIs(v)
                                    || Unicode.Scalar(UInt32(v)).map({ $0.properties.isAlphabetic || $0.properties.numericType != nil }) == true {
                            output.append(contentsOf: bytes[i..<(i + length)])
                        } else {
                            appendSpace()
                        }
                        i += length
                    }
                }
            }
        }
        if output.count > start, output[output.count - 1] == 0x20 { output.removeLast() }
    }

    /// What `fold` makes of a text's first byte when that is an ASCII letter or digit (the first byte of the
    /// folded text), nil for any other byte: a check that rejects most texts that cannot fold to a given key
    /// without folding them.
    @inlinable
    public static func foldedFirstByte(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x41...0x5A: byte + 0x20
        case 0x30...0x39, 0x61...0x7A: byte
        default: nil
        }
    }

    /// Whether `fold` of `bytes` cannot be `key`, told from their leading ASCII letters and digits, which fold one
    /// to one (upper case to lower): a check that rejects most names without folding them. False when undecided.
    @inlinable  // specialised for the caller's key type: generic, it looked up type metadata at every byte
    public static func foldedStart(of bytes: UnsafeBufferPointer<UInt8>, differsFrom key: some Collection<UInt8>) -> Bool {
        var i = 0
        for expected in key {
            guard i < bytes.count, let byte = foldedFirstByte(bytes[i]) else { return false }
            if byte != expected { return true }
            i += 1
        }
        // The key ends: a further letter or digit of the name would be folded onto its end.
        return i < bytes.count && foldedFirstByte(bytes[i]) != nil
    }

    /// The words of a folded text.
    public static func words(_ folded: String) -> [Substring] {
        folded.split(separator: " ")
    }
}

/// Precomputed folding of every scalar below U+3000 (Latin, Greek, Cyrillic, Arabic, Indic, ...).
final class FoldTable: Sendable {
    static let shared = FoldTable()
    static let tableLimit = 0x3000

    /// Whether scalar v is in a block of letters only (kana, CJK ideographs, Hangul syllables), which folding
    /// keeps as they are without asking Unicode's tables: GeoNames holds many alternate names in these scripts.
    static func isLetterKeptAsIs(_ v: Int) -> Bool {
        (0x3041...0x3096).contains(v) || (0x30A1...0x30FA).contains(v) || (0x4E00...0x9FFF).contains(v) || (0xAC00...0xD7A3).contains(v)
    }

    /// ASCII: the folded byte, 0x20 for a separator, 0 to drop.
    let ascii: [UInt8]
    /// For scalar v: its folded UTF-8 is bytes[start[v]..<start[v+1]], with 0x20 meaning "separator".
    let start: [UInt32]
    let bytes: [UInt8]

    /// Letters that Unicode does not decompose but people type without their stroke or ligature.
    private static let special: [UInt32: String] = [
        0xDF: "ss", 0x1E9E: "ss", 0xF8: "o", 0xD8: "o", 0xE6: "ae", 0xC6: "ae", 0x153: "oe", 0x152: "oe",
        0x142: "l", 0x141: "l", 0x111: "d", 0x110: "d", 0xF0: "d", 0xD0: "d", 0x131: "i", 0xFE: "th", 0xDE: "th",
        0x127: "h", 0x126: "h", 0x259: "e", 0x18F: "e", 0x138: "k", 0x167: "t", 0x166: "t",
    ]
    /// Apostrophe-like marks: dropped so "Martha's" and "Marthas" meet.
    private static let dropped: Set<UInt32> = [0x27, 0x60, 0xB4, 0x2BB, 0x2BC, 0x2BD, 0x2018, 0x2019, 0x201B, 0x2032]

    private init() {
        var ascii = [UInt8](repeating: 0x20, count: 0x80)
        for v in 0..<0x80 {
            let b = UInt8(v)
            if (0x30...0x39).contains(b) || (0x61...0x7A).contains(b) { ascii[v] = b }
            else if (0x41...0x5A).contains(b) { ascii[v] = b + 0x20 }
            else if Self.dropped.contains(UInt32(v)) { ascii[v] = 0 }
        }
        var start: [UInt32] = [UInt32](repeating: 0, count: Self.tableLimit + 1)
        var bytes: [UInt8] = []
        for v in 0..<Self.tableLimit {
            start[v] = UInt32(bytes.count)
            if v < 0x80 {
                if ascii[v] != 0 { bytes.append(ascii[v]) }
                continue
            }
            guard let scalar = Unicode.Scalar(v), !Self.dropped.contains(UInt32(v)) else { continue }
            let folded = Self.special[UInt32(v)] ?? String(scalar).folding(
                options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            for s in folded.unicodeScalars {
                if s.value < 0x80 {
                    if ascii[Int(s.value)] != 0 { bytes.append(ascii[Int(s.value)]) }
                } else if let special = Self.special[s.value] {
                    bytes.append(contentsOf: special.utf8)
                } else if s.properties.isAlphabetic || s.properties.numericType != nil
                            || s.properties.generalCategory == .spacingMark || s.properties.generalCategory == .nonspacingMark {
                    bytes.append(contentsOf: String(s).utf8)
                } else {
                    bytes.append(0x20)
                }
            }
        }
        start[Self.tableLimit] = UInt32(bytes.count)
        self.ascii = ascii
        self.start = start
        self.bytes = bytes
    }
}

extension StringProtocol {
    /// Hands the text's UTF-8 to `body` where the string keeps it (a copy of the string to call `withUTF8` on costs a
    /// retain and a release), or through a contiguous copy when it keeps none there. Inlined: as a call, generic over
    /// the string's type, it was not specialized and cost a suggestion 1.6% more instructions (callgrind).
    @inline(__always)
    func withUTF8Bytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let result = try utf8.withContiguousStorageIfAvailable(body) { return result }
        var contiguous = String(self)
        return try contiguous.withUTF8(body)
    }
}

extension String {
    /// `trimmingCharacters(in: .whitespaces)` (`.whitespacesAndNewlines` with `newlines`), scalar by scalar from
    /// each end: Foundation's took microseconds for text ending in a letter outside ASCII ("Москва"), and a
    /// suggestion that matched through an alternate name trims the text it was asked for.
    public func trimmingWhitespace(newlines: Bool = false) -> String {
        func plain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != 0x20 && !(0x09...0x0D).contains(byte) }
        if let first = utf8.first, let last = utf8.last, plain(first), plain(last) { return self }
        /// Foundation's sets: white space is the tab, category Zs and U+200B (Zs in the Unicode Foundation follows);
        /// with newlines, every Z* and U+000A–U+000D, U+0085.
        func trimmed(_ c: Unicode.Scalar) -> Bool {
            switch c.properties.generalCategory {
            case .spaceSeparator: return true
            case .lineSeparator, .paragraphSeparator: return newlines
            default: return c == "\t" || c == "\u{200B}" || (newlines && ((0x0A...0x0D).contains(c.value) || c.value == 0x85))
            }
        }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !trimmed($0) }), let last = scalars.lastIndex(where: { !trimmed($0) }) else { return "" }
        return String(scalars[start...last])
    }

    /// The text without white space at its ends, or nil when nothing else is left.
    public var nonBlank: String? {
        let trimmed = trimmingWhitespace(newlines: true)
        return trimmed.isEmpty ? nil : trimmed
    }
}
