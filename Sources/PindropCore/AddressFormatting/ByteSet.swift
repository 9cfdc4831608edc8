/// The bytes a text holds, as a 256-bit set.
struct ByteSet: Sendable {
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init() {}

    /// The bytes of `text`.
    init(_ text: UnsafeBufferPointer<UInt8>) {
        // The word indexed, not chosen by a branch: a text's bytes fall in the four words in no order a branch
        // could guess.
        withUnsafeMutableBytes(of: &words) { raw in
            let w = raw.bindMemory(to: UInt64.self)
            for b in text { w[Int(b >> 6)] |= UInt64(1) << UInt64(b & 63) }
        }
    }

    @inline(__always)
    mutating func insert(_ b: UInt8) {
        let bit = UInt64(1) << UInt64(b & 63)
        switch b >> 6 {
        case 0: words.0 |= bit
        case 1: words.1 |= bit
        case 2: words.2 |= bit
        default: words.3 |= bit
        }
    }

    @inline(__always)
    func contains(_ b: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(b & 63)
        switch b >> 6 {
        case 0: return words.0 & bit != 0
        case 1: return words.1 & bit != 0
        case 2: return words.2 & bit != 0
        default: return words.3 & bit != 0
        }
    }

    /// Whether the two sets share a byte.
    @inline(__always)
    func intersects(_ other: ByteSet) -> Bool {
        (words.0 & other.words.0) | (words.1 & other.words.1) | (words.2 & other.words.2) | (words.3 & other.words.3) != 0
    }
}
