import CPrefetch

/// The name index's keys as the searches read them: entry e's key is `bytes[starts[e] ..< starts[e] + lengths[e]]`,
/// entries in key order. Reads are unchecked, so this is where the name index's unsafe access lives; it holds
/// because every start plus length lies within `bytes` (the import checks it before it publishes an index,
/// `NameIndex.verify`), and because a view is taken from a `NameIndex` for the length of one call of its methods
/// (`Column.buffer`), never kept.
struct SortedKeys {
    let bytes: UnsafeBufferPointer<UInt8>
    let starts: UnsafeBufferPointer<UInt32>
    let lengths: UnsafeBufferPointer<UInt8>

    /// Where entry e's key starts in `bytes`.
    @inline(__always)
    func start(_ e: Int) -> Int { Int(starts[e]) }

    /// Entry e's key's length.
    @inline(__always)
    func length(_ e: Int) -> Int { Int(lengths[e]) }

    /// Byte `depth` of entry e's key (which must be longer than `depth`).
    @inline(__always)
    func byte(_ e: Int, at depth: Int) -> UInt8 { bytes[Int(starts[e]) + depth] }

    /// Entry e's key against `prefix`'s first `m` bytes, the key cut to `m` bytes: -1 before, 0 starting with it, 1 after.
    @inline(__always)
    func side(_ e: Int, of prefix: UnsafeBufferPointer<UInt8>, _ m: Int) -> Int {
        Self.compare(bytes, Int(starts[e]), min(Int(lengths[e]), m), prefix, 0, m)
    }

    /// Entry e's key against entry f's: -1, 0 or 1.
    @inline(__always)
    func compare(_ e: Int, _ f: Int) -> Int {
        Self.compare(bytes, Int(starts[e]), Int(lengths[e]), bytes, Int(starts[f]), Int(lengths[f]))
    }

    /// Entry e's first eight key bytes as one big-endian word, zeros past a shorter key (a folded key holds no zero
    /// byte, so the words sort as the keys do).
    func head(_ e: Int) -> UInt64 {
        var word: UInt64 = 0
        for i in 0..<min(Int(lengths[e]), 8) { word |= UInt64(bytes[Int(starts[e]) + i]) << UInt64(56 - 8 * i) }
        return word
    }

    /// Starts loading what a binary search of lo..<hi reads at its next probe, before it is made: the probe's key
    /// bytes (its start was asked for a step before) and length, and the starts of the two probes after it. Each probe
    /// is a cache miss, and this overlaps it with the ones before.
    @inline(__always)
    func prefetchProbe(_ lo: Int, _ hi: Int) {
        guard lo < hi else { return }
        let probe = (lo + hi) >> 1
        pindrop_prefetch(bytes.baseAddress! + Int(starts[probe]))
        pindrop_prefetch(starts.baseAddress! + ((lo + probe) >> 1))
        pindrop_prefetch(starts.baseAddress! + ((probe + 1 + hi) >> 1))
        pindrop_prefetch(lengths.baseAddress! + probe)
    }

    /// Two byte runs compared as keys: -1, 0 or 1 (a proper prefix first).
    @inline(__always)
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ aStart: Int, _ aCount: Int,
                        _ b: UnsafeBufferPointer<UInt8>, _ bStart: Int, _ bCount: Int) -> Int {
        let n = min(aCount, bCount)
        var i = 0
        while i < n {
            let x = a[aStart + i], y = b[bStart + i]
            if x != y { return x < y ? -1 : 1 }
            i += 1
        }
        return aCount == bCount ? 0 : (aCount < bCount ? -1 : 1)
    }
}
