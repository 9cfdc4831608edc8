/// Perl's `\d`, `\w` and `\s` over Unicode scalars, and reading UTF-8 at a byte offset: what the address rules'
/// patterns and the formatter's checks see a character as.
enum TextScalars {
    /// The bytes of the character a UTF-8 lead byte starts.
    @inline(__always)
    static func length(_ lead: UInt8) -> Int { lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4 }

    /// The character at byte `i` (a character's first byte) and its length in bytes.
    static func decode(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> (Unicode.Scalar, Int) {
        let lead = text[i]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let n = length(lead)
        var value = UInt32(lead) & (n == 2 ? 0x1F : n == 3 ? 0x0F : 0x07)
        for k in 1..<n where i + k < text.count { value = value << 6 | UInt32(text[i + k] & 0x3F) }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", n)
    }

    /// Perl's `\w`: letters, marks, decimal digits, connector punctuation (`_`) and the joiners.
    static func isWord(_ c: Unicode.Scalar) -> Bool {
        if c.isASCII {
            let v = c.value
            return (0x30...0x39).contains(v) || (0x41...0x5A).contains(v) || (0x61...0x7A).contains(v) || v == 0x5F
        }
        if c.properties.isAlphabetic || c.value == 0x200C || c.value == 0x200D { return true }
        switch c.properties.generalCategory {
        case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
        default: return false
        }
    }

    /// Perl's `\d`: decimal digits of any script.
    static func isDigit(_ c: Unicode.Scalar) -> Bool {
        c.isASCII ? (0x30...0x39).contains(c.value) : c.properties.generalCategory == .decimalNumber
    }

    /// Perl's `\s`: Unicode's white space (tab, newline, space, no-break space, ...).
    static func isSpace(_ c: Unicode.Scalar) -> Bool { c.properties.isWhitespace }

    /// Whether a word character starts at byte `i`.
    static func isWordAt(_ text: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        i < text.count && isWord(decode(text, at: i).0)
    }

    /// Whether the character ending at byte `i` is a word character.
    static func isWordBefore(_ text: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        guard i > 0 else { return false }
        var start = i - 1
        while start > 0, text[start] & 0xC0 == 0x80 { start -= 1 }
        return isWord(decode(text, at: start).0)
    }

    /// Whether the text holds a word character (Perl's `m/\w/`).
    static func containsWord(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        while i < text.count {
            let lead = text[i]
            if lead < 0x80 {
                if isWord(Unicode.Scalar(lead)) { return true }
                i += 1
            } else {
                let (c, n) = decode(text, at: i)
                if isWord(c) { return true }
                i += n
            }
        }
        return false
    }
}
