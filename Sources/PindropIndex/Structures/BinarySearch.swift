/// The first position in `range` where `isPast` holds, for a test that is false up to some position and true from
/// it on (a binary search); `range.upperBound` when it never holds. Every sorted column of the index is searched
/// through this.
@inline(__always)
func firstIndex(in range: Range<Int>, where isPast: (Int) -> Bool) -> Int {
    var lo = range.lowerBound, hi = range.upperBound
    while lo < hi {
        let mid = (lo + hi) >> 1
        if isPast(mid) { hi = mid } else { lo = mid + 1 }
    }
    return lo
}

extension Collection where Element: Comparable {
    /// Whether each value is at most the next (a pass over all: what an import checks of the offsets it wrote).
    var isAscending: Bool { zip(self, dropFirst()).allSatisfy { $0 <= $1 } }
}
