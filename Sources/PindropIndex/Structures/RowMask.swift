/// A set of row (or feature) numbers as a bit each, for a test per row as cheap as reading one word: the rows of the
/// stored street level an update's overlay masks (`StreetOverlay`).
struct RowMask: Sendable, Equatable {
    private let bits: [UInt64]
    /// The numbers in the set, ascending.
    let members: [Int]

    init(_ numbers: some Sequence<Int>) {
        members = Array(Set(numbers)).sorted()
        var bits = [UInt64](repeating: 0, count: ((members.last ?? -1) + 64) / 64)
        for n in members { bits[n >> 6] |= 1 << UInt64(n & 63) }
        self.bits = bits
    }

    static let none = RowMask([])

    var isEmpty: Bool { members.isEmpty }
    var count: Int { members.count }

    @inline(__always)
    func contains(_ n: Int) -> Bool {
        let word = n >> 6
        return n >= 0 && word < bits.count && bits[word] >> UInt64(n & 63) & 1 != 0
    }
}
