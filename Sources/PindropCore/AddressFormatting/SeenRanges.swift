/// Byte ranges of a text already met, to keep each line or part once: compared one by one in the caller's stack
/// memory while there are few (an address has a handful), hashed when there are many (a text of thousands of
/// lines or parts stays linear).
struct SeenRanges {
    /// Up to this many, one by one.
    static let linearLimit = 32

    private let room: UnsafeMutableBufferPointer<Range<Int>>
    private var count = 0
    private var hashed: Set<ArraySlice<UInt8>>?

    /// `room` holds `linearLimit` ranges; `expected` is how many may come.
    init(room: UnsafeMutableBufferPointer<Range<Int>>, expected: Int) {
        self.room = room
        hashed = expected > Self.linearLimit ? [] : nil
    }

    /// Whether `range`'s bytes in `text` are met for the first time; remembers them.
    mutating func isNew(_ range: Range<Int>, in text: [UInt8]) -> Bool {
        if hashed != nil { return hashed!.insert(text[range]).inserted }
        for k in 0..<count where text[room[k]] == text[range] { return false }
        room[count] = range
        count += 1
        return true
    }

    /// Calls `body` with an empty `SeenRanges` for `expected` ranges.
    static func with<R>(expected: Int, _ body: (inout SeenRanges) -> R) -> R {
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: linearLimit) { room in
            var seen = SeenRanges(room: room, expected: expected)
            return body(&seen)
        }
    }
}
