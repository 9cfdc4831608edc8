/// The name index's fence read in place: every `NameIndex.fenceStride`-th entry's first eight key bytes as one
/// big-endian word. A binary search over these stays in the cache and narrows a search of the keys, each probe of
/// which is a cache miss, to the few entries between two fence words. Taken from a `NameIndex` for one call of its
/// methods (`Column.buffer`), never kept.
struct KeyFence {
    let words: UnsafeBufferPointer<UInt64>

    /// Where in lo..<hi the first entry for which `isPast` holds lies (`isPast` of a fence word, false then true in
    /// key order): after the last fence entry inside lo..<hi for which it is false, up to the first (`entry`, nil
    /// when none) for which it is true, which the window ends at.
    @inline(__always)
    func window(_ lo: Int, _ hi: Int, where isPast: (UInt64) -> Bool) -> (window: Range<Int>, entry: Int?) {
        let stride = NameIndex.fenceStride
        let fLo = (lo + stride - 1) / stride, fHi = (hi + stride - 1) / stride
        let a = firstIndex(in: fLo..<fHi) { isPast(words[$0]) }
        return ((a > fLo ? (a - 1) * stride + 1 : lo)..<(a < fHi ? a * stride : hi), a < fHi ? a * stride : nil)
    }

    /// The entries of lo..<hi whose key has byte c at `depth`, where every key there is longer than `depth` and all
    /// agree before it (so they are sorted by that byte).
    func byteRun(_ c: UInt8, at depth: Int, _ lo: Int, _ hi: Int, _ keys: SortedKeys) -> Range<Int> {
        let from = firstEntry(byte: c, past: false, at: depth, lo, hi, keys)
        return from..<firstEntry(byte: c, past: true, at: depth, from, hi, keys)
    }

    /// The first entry of lo..<hi whose byte at `depth` is at least c (`past`: more than c), where every key there is
    /// longer than `depth` and all agree before it. Within the fence's eight bytes the fence narrows the search to the
    /// 16 entries before a fence entry before any key is read.
    func firstEntry(byte c: UInt8, past: Bool, at depth: Int, _ lo: Int, _ hi: Int, _ keys: SortedKeys) -> Int {
        @inline(__always) func isPast(_ b: UInt8) -> Bool { past ? b > c : b >= c }
        let shift = UInt64(56 - 8 * min(depth, 7))
        let window = depth < 8 ? window(lo, hi) { isPast(UInt8(truncatingIfNeeded: $0 >> shift)) }.window : lo..<hi
        return firstIndex(in: window) { isPast(keys.byte($0, at: depth)) }
    }
}
