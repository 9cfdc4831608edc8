import PindropCore

extension NameIndex {
    /// Entries whose key starts with `prefix`, and within them those equal to it (which sort first).
    func ranges(prefix: [UInt8]) -> (all: Range<Int>, exact: Range<Int>) {
        guard let b0 = prefix.first else { return (0..<count, 0..<0) }
        // Every key starting with the prefix's first two bytes lies in their bucket (one byte: in the 256 buckets
        // of that byte), so the searches start there instead of over all the keys.
        let bucket = Int(b0) << 8 | (prefix.count > 1 ? Int(prefix[1]) : 0)
        let (from, to) = prefix.count > 1 ? (Int(buckets[bucket]), Int(buckets[bucket + 1])) : (Int(buckets[bucket]), Int(buckets[bucket + 256]))
        // The fence narrows both ends to a few entries each without reading a key: `known` is an entry that starts
        // with the prefix, where the fence shows one, and the end then lies at `endFrom` or after.
        let (lo, hi, known, endFrom) = fenced(prefix, from, to)
        return prefix.withUnsafeBufferPointer { q in
            let search = PrefixSearch(keys: keys, prefix: q)
            if let known { return search.around(lo, known, hi, endFrom: endFrom) }
            return search.find(lo, hi)
        }
    }

    /// The entries of from..<to that can start with `prefix`, narrowed by the fence: the entries before the last
    /// fence entry that sorts before the prefix, and from the first that sorts after it, cannot. With a prefix of
    /// at most eight bytes the fence decides: a fence entry that starts with it is returned as `known`, and the end of
    /// the keys that do lies at `endFrom` or after.
    private func fenced(_ prefix: [UInt8], _ from: Int, _ to: Int) -> (lo: Int, hi: Int, known: Int?, endFrom: Int) {
        let compared = min(prefix.count, 8)
        var word: UInt64 = 0
        for i in 0..<compared { word |= UInt64(prefix[i]) << UInt64(56 - 8 * i) }
        let mask: UInt64 = compared == 8 ? .max : ~(UInt64.max >> UInt64(8 * compared))
        let fence = KeyFence(words: self.fence.buffer)
        let first = fence.window(from, to) { $0 & mask >= word }, end = fence.window(from, to) { $0 & mask > word }
        let known = first.entry.flatMap { e in compared == prefix.count && fence.words[e / Self.fenceStride] & mask == word ? e : nil }
        return (first.window.lowerBound, end.window.upperBound, known, end.window.lowerBound)
    }
}

/// A binary search of the sorted keys for the run that starts with a prefix, each probe's reads asked for ahead.
struct PrefixSearch {
    let keys: SortedKeys
    let prefix: UnsafeBufferPointer<UInt8>

    /// Where key e stands: before every key that starts with the prefix (-1), one of them (0), after them (1).
    @inline(__always)
    private func side(_ e: Int) -> Int { keys.side(e, of: prefix, prefix.count) }

    /// One search narrowing both ends of lo..<hi until a probe starts with the prefix, then `around` it.
    func find(_ lo: Int, _ hi: Int) -> (all: Range<Int>, exact: Range<Int>) {
        var lo = lo, hi = hi
        while lo < hi {
            let mid = (lo + hi) >> 1
            keys.prefetchProbe(lo, mid); keys.prefetchProbe(mid + 1, hi)
            let c = side(mid)
            if c < 0 { lo = mid + 1; continue }
            if c > 0 { hi = mid; continue }
            return around(lo, mid, hi, endFrom: mid + 1)
        }
        return (lo..<lo, lo..<lo)
    }

    /// The keys that start with the prefix, given one of them (`mid`) in lo..<hi and that the end is at `endFrom` or
    /// after: the first such key and the end are searched side by side, so that their memory reads overlap (they are
    /// independent).
    func around(_ lo: Int, _ mid: Int, _ hi: Int, endFrom: Int) -> (all: Range<Int>, exact: Range<Int>) {
        var firstLo = lo, firstHi = mid, endLo = max(mid + 1, endFrom), endHi = hi
        while firstLo < firstHi || endLo < endHi {
            if firstLo < firstHi {
                let probe = (firstLo + firstHi) >> 1
                keys.prefetchProbe(firstLo, probe); keys.prefetchProbe(probe + 1, firstHi)
                if side(probe) >= 0 { firstHi = probe } else { firstLo = probe + 1 }
            }
            if endLo < endHi {
                let probe = (endLo + endHi) >> 1
                keys.prefetchProbe(endLo, probe); keys.prefetchProbe(probe + 1, endHi)
                if side(probe) > 0 { endHi = probe } else { endLo = probe + 1 }
            }
        }
        // The keys equal to the prefix sort first and are few: galloped over, then searched.
        let first = firstLo, end = endLo, m = prefix.count
        var step = 1
        while first + step < end, keys.length(first + step - 1) == m { step *= 2 }
        let exactEnd = firstIndex(in: (first + step / 2)..<min(first + step, end)) { keys.length($0) != m }
        return (first..<end, first..<exactEnd)
    }
}
