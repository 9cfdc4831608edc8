/// A quick "none of these rules can match" for a text, from what the rules' patterns must start with: most
/// components and most written addresses meet none of their country's rules, and this answers so without running
/// any. A pattern anchored at the start needs its first two bytes there; another needs one byte of its literal
/// start somewhere (the least common one); a pattern with no literal start always has to be tried.
struct BytePrefilter: Sendable {
    /// The first two bytes (first << 8 | second) an anchored pattern needs at the text's start.
    private var anchoredStarts: [UInt16] = []
    /// An anchored pattern of one literal byte: that byte at the start.
    private var anchoredFirst = ByteSet()
    /// Bytes one of which an unanchored pattern needs somewhere.
    private var required = ByteSet()
    private var always = false

    /// Adds a pattern's needs.
    mutating func add(_ pattern: TextPattern) {
        let prefix = pattern.literalPrefix
        if pattern.anchored {
            add(start: prefix)
        } else if let rare = Self.leastCommon(prefix) {
            required.insert(rare)
        } else {
            always = true
        }
    }

    /// Adds a text that must be matched as a whole (a rule's exact value).
    mutating func add(whole text: String) { add(start: Array(text.utf8)) }

    /// Adds a literal word that must appear somewhere.
    mutating func add(word: String) {
        if let rare = Self.leastCommon(Array(word.utf8)) { required.insert(rare) } else { always = true }
    }

    private mutating func add(start prefix: [UInt8]) {
        switch prefix.count {
        case 0: always = true
        case 1: anchoredFirst.insert(prefix[0])
        default: anchoredStarts.append(UInt16(prefix[0]) << 8 | UInt16(prefix[1]))
        }
    }

    /// Whether some pattern may match `text`; false means none can.
    func mayMatch(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        if always { return true }
        if let first = text.first {
            if anchoredFirst.contains(first) { return true }
            if text.count > 1, !anchoredStarts.isEmpty, anchoredStarts.contains(UInt16(first) << 8 | UInt16(text[1])) { return true }
        }
        return ByteSet(text).intersects(required)
    }

    /// The byte of `bytes` least likely in an address: punctuation, digits and capitals before small letters
    /// (rarest English letters first), spaces last; nil for none.
    static func leastCommon(_ bytes: [UInt8]) -> UInt8? {
        let letters = Array("zqxjkvbpygfwmucldrhsnioate".utf8)
        func rank(_ b: UInt8) -> Int {
            if b == 0x20 { return 100 }
            if let n = letters.firstIndex(of: b) { return 10 + n }
            return 0
        }
        return bytes.min { rank($0) < rank($1) }
    }
}
