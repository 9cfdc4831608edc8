import PindropCore

extension NameIndex {
    /// Keys close to a typed text: how many edits away, and for one edit which slip it is.
    struct FuzzyRange { var range: Range<Int>; var edits: Int; var edit: TypoEdit? }

    /// Ranges of keys within `maxEdits` edits (insert, delete, substitute, swap of neighbours) of `query`,
    /// at most one of them in the first three letters; with `asPrefix`, of keys that *start* with something
    /// that close (search as you type). A range one edit away says which (`TypoEdit`): it is read off the
    /// key's path only for ranges found, so the walk itself costs the same.
    func fuzzyRanges(_ query: [UInt8], maxEdits: Int, asPrefix: Bool, exactFirstByte: Bool = false) -> [FuzzyRange] {
        guard maxEdits > 0, !query.isEmpty, count > 0 else { return [] }
        let m = query.count, maxDepth = m + maxEdits
        let rows = UnsafeMutableBufferPointer<Int>.allocate(capacity: (maxDepth + 1) * (m + 1))
        let path = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: maxDepth + 1)
        defer { rows.deallocate(); path.deallocate() }
        rows.initialize(repeating: 0)
        path.initialize(repeating: 0)
        for j in 0...m { rows[j] = j }
        return query.withUnsafeBufferPointer { q in
            var walk = TypoWalk(keys: keys, fence: KeyFence(words: fence.buffer), buckets: buckets.buffer, query: q, maxEdits: maxEdits,
                                asPrefix: asPrefix, exactFirstByte: exactFirstByte, rows: rows, path: path)
            walk.walk(0, count, 0)
            return walk.found
        }
    }
}

/// The typo-tolerant walk of the sorted keys as a trie: each depth's run of keys is a node, and the walk keeps, per
/// depth, one row of the edit distance (optimal string alignment) between the query and the key path so far,
/// opening only children that can stay within reach. `rows` and `path` are scratch memory owned by the caller for
/// the walk's length: (maxDepth + 1) rows of m + 1 distances, and maxDepth + 1 bytes.
struct TypoWalk {
    let keys: SortedKeys
    let fence: KeyFence
    let buckets: UnsafeBufferPointer<UInt32>
    let query: UnsafeBufferPointer<UInt8>
    let maxEdits: Int, asPrefix: Bool, exactFirstByte: Bool
    let rows: UnsafeMutableBufferPointer<Int>
    let path: UnsafeMutableBufferPointer<UInt8>
    var found: [NameIndex.FuzzyRange] = []

    init(keys: SortedKeys, fence: KeyFence, buckets: UnsafeBufferPointer<UInt32>, query: UnsafeBufferPointer<UInt8>, maxEdits: Int,
         asPrefix: Bool, exactFirstByte: Bool, rows: UnsafeMutableBufferPointer<Int>, path: UnsafeMutableBufferPointer<UInt8>) {
        self.keys = keys; self.fence = fence; self.buckets = buckets; self.query = query; self.maxEdits = maxEdits
        self.asPrefix = asPrefix; self.exactFirstByte = exactFirstByte; self.rows = rows; self.path = path
    }

    private var m: Int { query.count }
    private var width: Int { query.count + 1 }
    private var maxDepth: Int { query.count + maxEdits }

    /// Edits allowed in a path of `depth` bytes: at most one in the first three letters, as two early edits would
    /// keep nearly every short branch alive, and people rarely make them.
    @inline(__always)
    private func allowed(atDepth depth: Int) -> Int { depth < 3 ? min(maxEdits, 1) : maxEdits }

    /// The keys lo..<hi, which agree in their first `depth` bytes (the path), whose distances are row `depth`.
    mutating func walk(_ lo: Int, _ hi: Int, _ depth: Int) {
        let row = depth * width
        // Keys that end here sort first in the range.
        var rest = lo
        while rest < hi, keys.length(rest) == depth { rest += 1 }
        let distance = rows[row + m]
        if asPrefix, distance <= maxEdits { found.append(.init(range: lo..<hi, edits: distance, edit: edit(depth, distance))); return }
        if !asPrefix, distance <= maxEdits, rest > lo { found.append(.init(range: lo..<rest, edits: distance, edit: edit(depth, distance))) }
        guard depth < maxDepth else { return }
        var smallest = Int.max
        for j in 0...m { smallest = min(smallest, rows[row + j]) }
        guard smallest <= allowed(atDepth: depth) else { return }
        let childAllowed = allowed(atDepth: depth + 1)
        if depth >= 1, childAllowed == maxEdits, smallest >= childAllowed { return walkMatchingChildren(rest, hi, depth, within: childAllowed) }
        if depth < 2 { return walkBucketChildren(rest, depth) }
        walkRuns(rest, hi, depth)
    }

    /// The slip of a one-edit match, read off the key's path.
    private func edit(_ depth: Int, _ distance: Int) -> TypoEdit? {
        distance == 1 ? TypoEdit.between(typed: query, name: path[0..<depth]) : nil
    }

    /// The distance row for child byte c at `depth`, then the walk below it (keys childStart..<childEnd).
    private mutating func descend(_ c: UInt8, _ childStart: Int, _ childEnd: Int, _ depth: Int) {
        if exactFirstByte, depth == 0, c != query[0] { return }
        let row = depth * width, next = row + width
        path[depth] = c
        rows[next] = depth + 1
        for j in 1...m {
            let cost = query[j - 1] == c ? 0 : 1
            var v = min(rows[row + j] + 1, rows[next + j - 1] + 1, rows[row + j - 1] + cost)
            if depth > 0, j > 1, query[j - 1] == path[depth - 1], query[j - 2] == c {
                v = min(v, rows[row - width + j - 2] + 1)
            }
            rows[next + j] = v
        }
        walk(childStart, childEnd, depth + 1)
    }

    /// No edit left for a child: it can stay within reach only by matching a byte of the query where this row is
    /// within reach (a swap of the last two needs such a byte too: the row before the swap is within reach one column
    /// earlier). Those bytes are looked up instead of reading every child: a branch already one edit off has many
    /// children and keeps a few, and the one-edit neighbourhood of a big index is most of the walk.
    private mutating func walkMatchingChildren(_ rest: Int, _ hi: Int, _ depth: Int, within childAllowed: Int) {
        let row = depth * width
        // The wanted bytes as a 256-bit set, four words of 64.
        var wanted = SIMD4<UInt64>()
        for j in 1...m where rows[row + j - 1] <= childAllowed {
            wanted[Int(query[j - 1] >> 6)] |= UInt64(1) << UInt64(query[j - 1] & 63)
        }
        // In byte order, as the children are read otherwise, so the ranges come out in the same order.
        for word in 0..<4 {
            var bits = wanted[word]
            while bits != 0 {
                let c = UInt8(word << 6 | bits.trailingZeroBitCount)
                bits &= bits - 1
                if depth == 1 {
                    let bucket = Int(path[0]) << 8 | Int(c)
                    let from = Int(buckets[bucket]), to = Int(buckets[bucket + 1])
                    if c != 0, from < to { descend(c, max(from, rest), to, depth) }
                    continue
                }
                // The run of keys with byte c here: the keys from `rest` on are sorted by it.
                let run = fence.byteRun(c, at: depth, rest, hi, keys)
                if !run.isEmpty { descend(c, run.lowerBound, run.upperBound, depth) }
            }
        }
    }

    /// The children of the first two levels, straight from the two-byte buckets.
    private mutating func walkBucketChildren(_ rest: Int, _ depth: Int) {
        let base = depth == 0 ? 0 : Int(path[0]) << 8
        for c in 1...255 {
            let from = depth == 0 ? Int(buckets[c << 8]) : Int(buckets[base | c])
            let to = depth == 0 ? Int(buckets[(c + 1) << 8]) : Int(buckets[(base | c) + 1])
            if from < to { descend(UInt8(c), max(from, rest), to, depth) }
        }
    }

    /// Every child of keys rest..<hi at `depth`, run by run of equal bytes.
    private mutating func walkRuns(_ rest: Int, _ hi: Int, _ depth: Int) {
        var childStart = rest
        while childStart < hi {
            let c = keys.byte(childStart, at: depth)
            // Gallop to the end of the run of keys with byte c at this depth: over the keys next to it (they lie
            // side by side), and past a fence's stride by the fence.
            var good = childStart, step = 1, bad = hi
            while good + step < hi {
                if depth < 8, step > NameIndex.fenceStride { break }
                if keys.byte(good + step, at: depth) == c { good += step; step <<= 1 } else { bad = good + step; break }
            }
            let end = good + step < hi && bad == hi
                ? fence.firstEntry(byte: c, past: true, at: depth, good + 1, hi, keys)
                : firstIndex(in: (good + 1)..<bad) { keys.byte($0, at: depth) != c }
            descend(c, childStart, end, depth)
            childStart = end
        }
    }
}
