import PindropCore

/// Making a name index from the entries an import collects.
extension NameIndex {
    /// A run without entries (the overlay's, where an update laid none).
    static let empty = NameIndex(keys: [], starts: [], lengths: [], places: [], kinds: [], scores: [], alternateAt: [])

    /// Builds from unsorted (key, place, kind, score) entries.
    init(keys: [UInt8], starts: [UInt32], lengths: [UInt8], places: [Int32], kinds: [UInt8], scores: [Float], alternateAt: [UInt16]) {
        let (order, newKey) = NameSorter.sortedEntries(keys: keys, starts: starts, lengths: lengths, scores: scores)
        let (sortedBytes, sortedStart) = NameSorter.keysInOrder(keys: keys, starts: starts, lengths: lengths, order: order, newKey: newKey)
        let sortedLengths = lengths.gathered(at: order), sortedKinds = kinds.gathered(at: order)
        let sortedScores = scores.gathered(at: order)
        self.init(keyBytes: Column(sortedBytes), keyStart: Column(sortedStart), keyLength: Column(sortedLengths),
                  entryPlace: Column(places.gathered(at: order)), entryKind: Column(sortedKinds), entryScore: Column(sortedScores),
                  alternateAt: Column(alternateAt.gathered(at: order)), tree: Column(NameIndex.buildTree(sortedScores)),
                  ownNameTree: Column(NameIndex.buildTree(NameIndex.ownNameScores(sortedScores, sortedKinds))),
                  buckets: Column(NameIndex.buildBuckets(sortedBytes, sortedStart, sortedLengths)),
                  fence: Column(NameIndex.buildFence(sortedBytes, sortedStart, sortedLengths)))
    }

    /// `buckets`: where the entries of each two-byte prefix start.
    static func buildBuckets(_ keys: [UInt8], _ starts: [UInt32], _ lengths: [UInt8]) -> [UInt32] {
        var buckets = [UInt32](repeating: 0, count: 65_537)
        var counts = [UInt32](repeating: 0, count: 65_536)
        for i in starts.indices {
            let s = Int(starts[i])
            let b0 = Int(keys[s]), b1 = lengths[i] > 1 ? Int(keys[s + 1]) : 0
            counts[b0 << 8 | b1] += 1
        }
        var total: UInt32 = 0
        for b in 0..<65_536 { buckets[b] = total; total += counts[b] }
        buckets[65_536] = total
        return buckets
    }

    /// Entry scores with alternate names lowered by `Ranking.alternateDemotion`.
    static func ownNameScores(_ scores: [Float], _ kinds: [UInt8]) -> [Float] {
        zip(scores, kinds).map { $1 == Kind.alternate.rawValue ? $0 - Ranking.alternateDemotion : $0 }
    }

    /// A segment tree over blocks of `treeBlock` entries, laid out as an iterative one: with m blocks, tree[m + b]
    /// is block b's best entry and tree[j] the better of tree[2j] and tree[2j + 1]. The better of two entries has
    /// the higher score, then the lower index (the earlier in key order).
    static func buildTree(_ scores: [Float]) -> [TreeNode] {
        let n = scores.count, block = treeBlock, m = treeLeaves(forEntries: n)
        var tree = [TreeNode](repeating: TreeNode(entry: 0, score: scores.first ?? 0), count: max(2 * m, 2))
        for b in 0..<m {
            var best = b * block
            for e in (b * block + 1)..<min(n, (b + 1) * block) where scores[e] > scores[best] { best = e }
            tree[m + b] = TreeNode(entry: Int32(best), score: scores[best])
        }
        var j = m - 1
        while j >= 1 {
            let a = tree[2 * j], b = tree[2 * j + 1]
            tree[j] = b.score > a.score || (b.score == a.score && b.entry < a.entry) ? b : a
            j -= 1
        }
        return tree
    }

    /// Every `fenceStride`-th entry's key head (`SortedKeys.head`).
    static func buildFence(_ keys: [UInt8], _ starts: [UInt32], _ lengths: [UInt8]) -> [UInt64] {
        keys.withUnsafeBufferPointer { k in
            starts.withUnsafeBufferPointer { s in
                lengths.withUnsafeBufferPointer { l in
                    let sorted = SortedKeys(bytes: k, starts: s, lengths: l)
                    return Swift.stride(from: 0, to: starts.count, by: fenceStride).map { sorted.head($0) }
                }
            }
        }
    }
}
