import CPrefetch
import PindropCore

/// The best entries of ranges of the name index, best first, through its segment trees.
extension NameIndex {
    /// The index of the best-scoring entry in a non-empty range (with alternate names lowered when own names
    /// come first); of equal scores, the first.
    @inline(__always)
    func best(in range: Range<Int>, ownNamesFirst: Bool = false) -> Int {
        // Through the buffers: taking either tree as an array value costs a retain and a release of a buffer every
        // serving thread shares, on every call.
        best(in: range, ownNamesFirst ? ownNameTree.buffer : tree.buffer, ownNamesFirst: ownNamesFirst)
    }

    @inline(__always)
    private func best(in range: Range<Int>, _ tree: UnsafeBufferPointer<TreeNode>, ownNamesFirst: Bool) -> Int {
        let scores = entryScore.buffer, kinds = entryKind.buffer
        @inline(__always) func score(_ e: Int) -> Float {
            ownNamesFirst && kinds[e] == Kind.alternate.rawValue ? scores[e] - Ranking.alternateDemotion : scores[e]
        }
        var best = range.lowerBound, bestScore = score(best)
        @inline(__always) func consider(_ c: Int) {
            let s = score(c)
            if s > bestScore || (s == bestScore && c < best) { best = c; bestScore = s }
        }
        @inline(__always) func consider(_ node: TreeNode) {
            let c = Int(node.entry)
            if node.score > bestScore || (node.score == bestScore && c < best) { best = c; bestScore = node.score }
        }
        let block = Self.treeBlock
        let firstBlock = (range.lowerBound + block - 1) / block, endBlock = range.upperBound / block
        guard firstBlock < endBlock else {
            for e in range.dropFirst() { consider(e) }
            return best
        }
        let m = tree.count >> 1   // the leaves: a range here holds an entry, so the tree is 2 × leaves
        // The nodes read below lie far apart: each is asked for first, so that their cache misses are waited for
        // together rather than one after another. A node carries its entry's score: the entries it names are not read.
        var l = firstBlock + m, r = endBlock + m
        while l < r {
            if l & 1 == 1 { pindrop_prefetch(tree.baseAddress! + l); l += 1 }
            if r & 1 == 1 { r -= 1; pindrop_prefetch(tree.baseAddress! + r) }
            l >>= 1; r >>= 1
        }
        for e in range.lowerBound..<(firstBlock * block) { consider(e) }
        for e in (endBlock * block)..<range.upperBound { consider(e) }
        l = firstBlock + m; r = endBlock + m
        while l < r {
            if l & 1 == 1 { consider(tree[l]); l += 1 }
            if r & 1 == 1 { r -= 1; consider(tree[r]) }
            l >>= 1; r >>= 1
        }
        return best
    }

    /// A range to draw from, ranked above all ranges of a lower tier; with `ownNamesFirst`, its alternate names
    /// rank below all its own names ("hel" → Helsingborg before Heleb, an old name of Aleppo).
    /// `penalty` is taken off its entries' scores (log2 units, as importance): a less likely typo ranks as
    /// a smaller place would.
    struct TieredRange { var range: Range<Int>; var tier: Int; var ownNamesFirst = false; var penalty: Float = 0 }
}

extension NameIndex: BestEntries {}
extension NameRuns: BestEntries {}

/// Entries drawn best first from ranges through `best(in:)`: those of a name index, or of both runs of one.
protocol BestEntries {
    /// The best entry of a non-empty range (of equal scores, the first), with alternate names lowered when own names
    /// come first.
    func best(in range: Range<Int>, ownNamesFirst: Bool) -> Int
    /// Entry e's score, with an alternate name lowered when own names come first.
    func score(_ e: Int, ownNamesFirst: Bool) -> Float
}

extension BestEntries {
    /// Calls `visit` with entries from the ranges in order of (tier, score), best first, until it returns false;
    /// `score` is the entry's score as ranked (lowered for an alternate name in an `ownNamesFirst` range, and
    /// by the range's penalty).
    func forEachBest(_ ranges: [NameIndex.TieredRange], _ visit: (_ entry: Int, _ tier: Int, _ score: Float) -> Bool) {
        var heap = bestFirst(ranges)
        while let next = nextBest(&heap), visit(next.entry, next.tier, next.score) {}
    }

    /// A walk over the ranges' entries in order of (tier, score), best first: `nextBest` draws them one at a time.
    func bestFirst(_ ranges: [NameIndex.TieredRange]) -> BestFirstHeap {
        // 20 items (48 bytes each) stay under the 1,032 bytes glibc's thread cache hands out without locking or
        // sorting its bins; a walk that draws more grows the heap.
        var heap = BestFirstHeap(capacity: 20)
        for r in ranges { push(r.range, r.tier, r.ownNamesFirst, r.penalty, into: &heap) }
        return heap
    }

    /// The next entry of a `bestFirst` walk, with its tier and its score as ranked; nil when none is left.
    func nextBest(_ heap: inout BestFirstHeap) -> (entry: Int, tier: Int, score: Float)? {
        guard let top = heap.pop() else { return nil }
        push(top.range.lowerBound..<top.entry, top.tier, top.ownNamesFirst, top.penalty, into: &heap)
        push((top.entry + 1)..<top.range.upperBound, top.tier, top.ownNamesFirst, top.penalty, into: &heap)
        return (top.entry, top.tier, score(top.entry, ownNamesFirst: top.ownNamesFirst) - top.penalty)
    }

    /// Puts a range on the walk, keyed by its best entry.
    private func push(_ range: Range<Int>, _ tier: Int, _ ownNamesFirst: Bool, _ penalty: Float, into heap: inout BestFirstHeap) {
        guard !range.isEmpty else { return }
        let b = best(in: range, ownNamesFirst: ownNamesFirst)
        heap.push(.init(key: Float(tier) * 1000 + score(b, ownNamesFirst: ownNamesFirst) - penalty, entry: b, range: range, tier: tier,
                        ownNamesFirst: ownNamesFirst, penalty: penalty))
    }
}

/// The ranges of a `bestFirst` walk, each keyed by its best entry.
typealias BestFirstHeap = Heap<BestFirstRange>

/// A range on a `bestFirst` walk, keyed by its best entry.
struct BestFirstRange: HeapOrdered {
    var key: Float; var entry: Int; var range: Range<Int>; var tier: Int; var ownNamesFirst: Bool; var penalty: Float

    /// Higher key first; of equal keys, the earlier entry (key order within a run, the GeoNames run before the street
    /// level's), as `best(in:)` picks within a range.
    @inline(__always)
    func precedes(_ other: BestFirstRange) -> Bool { key > other.key || (key == other.key && entry < other.entry) }
}
