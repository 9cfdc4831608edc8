/// The control characters no place name or address should hold: C0 (U+0000–U+001F), DEL (U+007F) and C1
/// (U+0080–U+009F). An imported name holding `ESC ] 0 ; … BEL` or `ESC [ 2 J` would otherwise retitle or clear
/// the terminal of whoever lists it, so the importers remove them from every text they read, and the command
/// line escapes any that still reach it (from a remote provider, or an index built before).
public enum ControlCharacters {
    /// Whether `scalar` is a C0 or C1 control character, or DEL.
    @inlinable
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The length of the control character starting at `bytes[i]` of UTF-8 text (1 for C0 and DEL, 2 for C1), or 0.
    @inlinable @usableFromInline
    static func length<Bytes: Collection<UInt8>>(in bytes: Bytes, at i: Bytes.Index) -> Int {
        let byte = bytes[i]
        if byte < 0x20 || byte == 0x7F { return 1 }
        guard byte == 0xC2 else { return 0 }
        let next = bytes.index(after: i)
        return next != bytes.endIndex && (0x80...0x9F).contains(bytes[next]) ? 2 : 0
    }

    /// UTF-8 text as a string without its control characters. Text without any (nearly all) is decoded as it is.
    @inlinable
    public static func string<Bytes: Collection<UInt8>>(utf8 bytes: Bytes) -> String {
        guard bytes.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return String(decoding: bytes, as: UTF8.self) }
        var kept: [UInt8] = []
        kept.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let control = length(in: bytes, at: i)
            if control == 0 {
                kept.append(bytes[i])
                i = bytes.index(after: i)
            } else {
                i = bytes.index(i, offsetBy: control)
            }
        }
        return String(decoding: kept, as: UTF8.self)
    }

    /// `text` without its control characters.
    public static func removed(from text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        return string(utf8: Array(text.utf8))
    }

    /// Whether `scalar` is a bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069). In a name,
    /// U+202E makes "gnp.exe" read "exe.png", and one left open reorders whatever is shown after the name.
    @inlinable
    public static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    /// `text` without bidirectional embeddings, overrides and isolates: what a user's saved names are kept as.
    public static func removingBidiControls(from text: String) -> String {
        guard text.unicodeScalars.contains(where: isBidiControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.filter { !isBidiControl($0) }))
    }

    /// `text` with each control character written as a visible escape (`\x1B`), for a terminal.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: contains) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            guard contains(scalar) else { out.unicodeScalars.append(scalar); continue }
            let hex = String(scalar.value, radix: 16, uppercase: true)
            out += "\\x" + (hex.count < 2 ? "0" : "") + hex
        }
        return out
    }
}
