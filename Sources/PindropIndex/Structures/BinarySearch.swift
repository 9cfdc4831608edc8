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
