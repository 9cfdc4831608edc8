import CPrefetch
import PindropCore

/// Every folded name of every place, sorted, with a max-score segment tree so the best places under any
/// prefix come out in O(log n) each, and a trie walk over the sorted keys for typo-tolerant matches.
struct NameIndex: Sendable {
    /// How a name belongs to its place; lower is better.
    enum Kind: UInt8 {
        case primary = 0, alternate = 1, innerWord = 2
        /// Subtracted from the place's importance (log2 units): an alternate name counts as 1/8 of the
        /// population; a match on a later word ("york" in "new york") as 1/256.
        var penalty: Float { switch self { case .primary: 0; case .alternate: 3; case .innerWord: 8 } }
    }

    /// Folded UTF-8 of all keys, back to back.
    var keyBytes: Column<UInt8>
    /// Entry i's key is keyBytes[keyStart[i] ..< keyStart[i] + keyLength[i]]; entries are sorted by key.
    var keyStart: Column<UInt32>
    var keyLength: Column<UInt8>
    var entryPlace: Column<Int32>
    var entryKind: Column<UInt8>
    /// Place importance minus the kind's penalty.
    var entryScore: Column<Float>
    /// An alternate-name entry's name as imported: the byte offset of the first of the place's alternate names that
    /// folds to the key, in the place table's alternate names (`PlaceTable.alternate`), so an answer that matched
    /// through it does not scan the place's hundreds of names; `notAtKnownOffset` for other entries. With
    /// `otherSpellings` set, later names of the place fold to the key too ("München", "Munchen"), and the one the
    /// typed text starts is looked for among them; without it, the first is the only one.
    var alternateAt: Column<UInt16>
    /// The best entry of any range (`best(in:)`): a segment tree over entryScore by blocks (`buildTree`).
    var tree: Column<TreeNode>
    /// The same over the scores with alternate names lowered (`ownNameScores`), stored in the index like `tree`.
    var ownNameTree: Column<TreeNode>
    /// First entry whose key starts with each two-byte prefix (b0 << 8 | b1; a one-byte key counts as b1 = 0):
    /// the top two levels of the trie walk without searching, where the ranges are largest. Stored, as a pass
    /// over every key at open would cost what mapping saves.
    let buckets: Column<UInt32>
    /// Every `fenceStride`-th entry's first eight key bytes (`buildFence`): a binary search over these, few enough to
    /// stay in the cache, narrows a search of the keys, each probe of which is a cache miss, to a few entries.
    let fence: Column<UInt64>

    var count: Int { entryPlace.count }

    /// Builds from unsorted (key, place, kind, score) entries.
    init(keys: [UInt8], starts: [UInt32], lengths: [UInt8], places: [Int32], kinds: [UInt8], scores: [Float], alternateAt: [UInt16]) {
        let (order, newKey) = Self.sortedEntries(keys: keys, starts: starts, lengths: lengths, scores: scores)
        let (sortedBytes, sortedStart) = Self.keysInOrder(keys: keys, starts: starts, lengths: lengths, order: order, newKey: newKey)
        let sortedLengths = lengths.gathered(at: order), sortedKinds = kinds.gathered(at: order)
        let sortedScores = scores.gathered(at: order)
        keyBytes = Column(sortedBytes)
        keyStart = Column(sortedStart)
        keyLength = Column(sortedLengths)
        entryPlace = Column(places.gathered(at: order))
        entryKind = Column(sortedKinds)
        entryScore = Column(sortedScores)
        self.alternateAt = Column(alternateAt.gathered(at: order))
        tree = Column(NameIndex.buildTree(sortedScores))
        ownNameTree = Column(NameIndex.buildTree(NameIndex.ownNameScores(sortedScores, sortedKinds)))
        buckets = Column(NameIndex.buildBuckets(sortedBytes, sortedStart, sortedLengths))
        fence = Column(sortedBytes.withUnsafeBufferPointer { k in sortedStart.withUnsafeBufferPointer { s in
            sortedLengths.withUnsafeBufferPointer { NameIndex.buildFence(k, s, $0) } } })
    }

    /// From stored columns (already sorted).
    init(keyBytes: Column<UInt8>, keyStart: Column<UInt32>, keyLength: Column<UInt8>, entryPlace: Column<Int32>, entryKind: Column<UInt8>,
         entryScore: Column<Float>, alternateAt: Column<UInt16>, tree: Column<TreeNode>, ownNameTree: Column<TreeNode>, buckets: Column<UInt32>,
         fence: Column<UInt64>) {
        self.keyBytes = keyBytes; self.keyStart = keyStart; self.keyLength = keyLength
        self.entryPlace = entryPlace; self.entryKind = entryKind; self.entryScore = entryScore; self.alternateAt = alternateAt; self.tree = tree
        self.ownNameTree = ownNameTree; self.buckets = buckets; self.fence = fence
    }

    static let bucketCount = 65_537

    /// `alternateAt` of an entry that is not an alternate name the place table keeps (or lies past 32,766 bytes).
    static let notAtKnownOffset = UInt16.max
    /// The bit of `alternateAt` that says other spellings of the key follow; the offset is the other 15 bits.
    static let otherSpellings: UInt16 = 0x8000
    /// The largest offset `alternateAt` keeps: 0x7FFF with `otherSpellings` set would read as `notAtKnownOffset`.
    static let largestKnownOffset: UInt16 = otherSpellings - 2

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

    /// Subtracted from an alternate name's score when own names come first: more than the widest gap in
    /// importance between two places, so every own-name entry ranks above every alternate-name entry.
    static let alternateDemotion: Float = 32

    /// Entry scores with alternate names lowered by `alternateDemotion`.
    static func ownNameScores(_ scores: [Float], _ kinds: [UInt8]) -> [Float] {
        zip(scores, kinds).map { $1 == Kind.alternate.rawValue ? $0 - alternateDemotion : $0 }
    }

    /// Entry e's score, with an alternate name lowered when own names come first.
    @inline(__always)
    func score(_ e: Int, ownNamesFirst: Bool) -> Float {
        ownNamesFirst && entryKind[e] == Kind.alternate.rawValue ? entryScore[e] - Self.alternateDemotion : entryScore[e]
    }

    /// Entries under one leaf of the trees. A range's ends are read entry by entry up to a block's edge, so a tree
    /// holds two nodes a block instead of two an entry: 1/16 of the memory, and of the pages a query touches.
    static let treeBlock = 16

    /// The leaves of a tree over `entries` entries: one a block, the last one maybe part full.
    static func treeLeaves(forEntries entries: Int) -> Int { (entries + treeBlock - 1) / treeBlock }

    /// A node of the segment trees: the best entry below it, and that entry's score as the tree ranks it, so that a
    /// walk compares nodes without reading the entries they name (each a cache miss of its own).
    struct TreeNode: BitwiseCopyable {
        var entry: Int32
        var score: Float
    }

    /// Whether `node` names an entry of the index with that entry's score (as the own-names-first tree ranks it, when
    /// `ownNamesFirst`): what an import checks of the trees it wrote.
    func holds(_ node: TreeNode, ownNamesFirst: Bool) -> Bool {
        node.entry >= 0 && Int(node.entry) < count && node.score == score(Int(node.entry), ownNamesFirst: ownNamesFirst)
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

    /// A name entry as the import sorts it: its first 8 key bytes as one big-endian number (zero-padded), so most
    /// comparisons are one integer compare of values at hand rather than reads across the whole entry table.
    struct SortItem {
        var head: UInt64
        var entry: Int32
    }

    /// The order of name entries: by key, then by score, highest first, then as the import met them (by entry).
    /// A total order, so that any sort gives the one answer.
    struct EntryOrder {
        let keys: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<UInt32>, lengths: UnsafeBufferPointer<UInt8>
        let scores: UnsafeBufferPointer<Float>

        /// Eight key bytes from `from` as one big-endian number, zero-padded past the key's end.
        @inline(__always)
        static func head(_ keys: UnsafeBufferPointer<UInt8>, start: Int, length: Int, from: Int) -> UInt64 {
            var h: UInt64 = 0
            for i in from..<(from + 8) { h = h << 8 | (i < length ? UInt64(keys[start + i]) : 0) }
            return h
        }

        /// Entry e's key bytes 8 to 15, as `head` is its first eight.
        func secondHead(_ e: Int32) -> UInt64 { Self.head(keys, start: Int(starts[Int(e)]), length: Int(lengths[Int(e)]), from: 8) }

        @inline(__always)
        func less(_ a: SortItem, _ b: SortItem) -> Bool {
            if a.head != b.head { return a.head < b.head }
            let (x, y) = (Int(a.entry), Int(b.entry))
            let c = NameIndex.compare(keys, Int(starts[x]), Int(lengths[x]), keys, Int(starts[y]), Int(lengths[y]))
            if c != 0 { return c < 0 }
            return scores[x] != scores[y] ? scores[x] > scores[y] : x < y
        }
    }

    /// Sorts one bucket's items into `EntryOrder`. They come in entry order and alike in their heads' top two bytes:
    /// a stable radix sort by the heads' other six bytes, then each run of equal heads (the copies of a name share
    /// their first eight bytes, and its places' other names) by the keys' next eight bytes, read once an item, the
    /// same way, and what still ties by the whole order. A comparison sort of the bucket instead (the standard
    /// library's merge sort) was 13% of the ×50 import's CPU: a branch it could not predict at every step, and
    /// two keys read across the whole key table at every tie.
    static func sortBucket(_ items: UnsafeMutableBufferPointer<SortItem>, scratch: UnsafeMutableBufferPointer<SortItem>, _ order: EntryOrder) {
        guard items.count > insertionSortLimit else { insertionSort(items, order); return }
        radixSort(items, scratch: scratch, bytes: 6)
        forEachTie(items) { run in
            guard run.count > insertionSortLimit else { insertionSort(run, order); return }
            let head = run[0].head
            for i in run.indices { run[i].head = order.secondHead(run[i].entry) }
            radixSort(run, scratch: scratch, bytes: 8)
            forEachTie(run) { run in
                guard run.count > insertionSortLimit else { insertionSort(run, order); return }
                var run = run
                run.sort { order.less($0, $1) }
            }
            for i in run.indices { run[i].head = head }
        }
    }

    /// Items up to which an insertion sort is cheaper than a radix pass (256 counters) or a merge sort's buffer.
    private static let insertionSortLimit = 16

    /// Calls `body` with each run of two or more items of equal head.
    private static func forEachTie(_ items: UnsafeMutableBufferPointer<SortItem>, _ body: (UnsafeMutableBufferPointer<SortItem>) -> Void) {
        var i = 0
        while i < items.count {
            var j = i + 1
            while j < items.count, items[j].head == items[i].head { j += 1 }
            if j - i > 1 { body(UnsafeMutableBufferPointer(rebasing: items[i..<j])) }
            i = j
        }
    }

    /// A stable sort of the items by their heads' low `bytes` bytes, a byte a pass (a byte every item shares is
    /// skipped), through `scratch` (at least as long).
    private static func radixSort(_ items: UnsafeMutableBufferPointer<SortItem>, scratch: UnsafeMutableBufferPointer<SortItem>, bytes: Int) {
        let m = items.count
        var (from, to) = (items, UnsafeMutableBufferPointer(rebasing: scratch[..<m]))
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { counts in
            for shift in stride(from: UInt64(0), to: UInt64(8 * bytes), by: 8) {
                @inline(__always) func digit(_ item: SortItem) -> Int { Int(truncatingIfNeeded: item.head >> shift) & 0xFF }
                counts.initialize(repeating: 0)
                for item in from { counts[digit(item)] += 1 }
                guard counts[digit(from[0])] < m else { continue }
                var sum = 0
                for d in 0..<256 { (counts[d], sum) = (sum, sum + counts[d]) }
                for item in from {
                    let d = digit(item)
                    to[counts[d]] = item
                    counts[d] += 1
                }
                swap(&from, &to)
            }
        }
        if from.baseAddress != items.baseAddress { _ = items.update(fromContentsOf: from) }
    }

    private static func insertionSort(_ items: UnsafeMutableBufferPointer<SortItem>, _ order: EntryOrder) {
        for i in items.indices.dropFirst() {
            let item = items[i]
            var j = i
            while j > 0, order.less(item, items[j - 1]) { items[j] = items[j - 1]; j -= 1 }
            items[j] = item
        }
    }

    /// The entries in `EntryOrder`, and for each position in that order whether its key differs from the one before.
    /// The entries are first put in buckets by their first two bytes (as `buckets` is laid out), which is their
    /// order between buckets; then the cores sort bucket after bucket, each small enough to stay in the cache.
    static func sortedEntries(keys: [UInt8], starts: [UInt32], lengths: [UInt8], scores: [Float]) -> (order: [Int32], newKey: [Bool]) {
        let n = starts.count, parts = 8, part = max(1, (n + parts - 1) / parts)
        /// The entries of part p (none for the last parts of a few entries).
        func partRange(_ p: Int) -> Range<Int> { min(n, p * part)..<min(n, (p + 1) * part) }
        @inline(__always) func bucket(_ head: UInt64) -> Int { Int(head >> 48) }
        @inline(__always) func head(_ k: UnsafeBufferPointer<UInt8>, _ e: Int) -> UInt64 {
            EntryOrder.head(k, start: Int(starts[e]), length: Int(lengths[e]), from: 0)
        }
        // Each part of the entries counts its own buckets, so that the parts can then fill their places in each
        // bucket at once.
        let counts = (0..<parts).concurrentMap { p -> [Int32] in
            var counts = [Int32](repeating: 0, count: bucketCount - 1)
            keys.withUnsafeBufferPointer { k in
                for e in partRange(p) { counts[bucket(head(k, e))] += 1 }
            }
            return counts
        }
        var bucketStart = [Int](repeating: 0, count: bucketCount), cursors = [[Int]](repeating: [], count: parts)
        var total = 0
        for b in 0..<(bucketCount - 1) {
            bucketStart[b] = total
            for p in 0..<parts { cursors[p].append(total); total += Int(counts[p][b]) }
        }
        bucketStart[bucketCount - 1] = total
        var items = [SortItem](unsafeUninitializedCapacity: n) { buffer, count in
            nonisolated(unsafe) let buffer = buffer
            let partCursors = cursors
            keys.withUnsafeBufferPointer { k in
                _ = (0..<parts).concurrentMap { p in
                    var cursor = partCursors[p]
                    for e in partRange(p) {
                        let h = head(k, e)
                        buffer[cursor[bucket(h)]] = SortItem(head: h, entry: Int32(e))
                        cursor[bucket(h)] += 1
                    }
                }
            }
            count = n
        }
        var order = [Int32](repeating: 0, count: n), newKey = [Bool](repeating: true, count: n)
        keys.withUnsafeBufferPointer { k in
            starts.withUnsafeBufferPointer { starts in
                lengths.withUnsafeBufferPointer { lengths in
                    scores.withUnsafeBufferPointer { scores in
                        let entries = EntryOrder(keys: k, starts: starts, lengths: lengths, scores: scores)
                        items.withUnsafeMutableBufferPointer { items in
                            nonisolated(unsafe) let items = items
                            let bucketStart = bucketStart
                            // The buckets in 64 groups of neighbours, each with scratch space for its largest bucket.
                            let groups = 64, perGroup = (bucketCount - 1 + groups - 1) / groups
                            _ = (0..<groups).concurrentMap { g in
                                let buckets = (g * perGroup)..<min(bucketCount - 1, (g + 1) * perGroup)
                                let largest = buckets.map { bucketStart[$0 + 1] - bucketStart[$0] }.max() ?? 0
                                withUnsafeTemporaryAllocation(of: SortItem.self, capacity: max(1, largest)) { scratch in
                                    for b in buckets {
                                        NameIndex.sortBucket(UnsafeMutableBufferPointer(rebasing: items[bucketStart[b]..<bucketStart[b + 1]]),
                                                             scratch: scratch, entries)
                                    }
                                }
                            }
                            order.withUnsafeMutableBufferPointer { order in
                                newKey.withUnsafeMutableBufferPointer { newKey in
                                    nonisolated(unsafe) let (order, newKey) = (order, newKey)
                                    _ = (0..<parts).concurrentMap { p in
                                        for m in partRange(p) {
                                            let (item, entry) = (items[m], Int(items[m].entry))
                                            order[m] = item.entry
                                            guard m > 0, item.head == items[m - 1].head else { continue }
                                            let previous = Int(items[m - 1].entry)
                                            newKey[m] = NameIndex.compare(k, Int(starts[entry]), Int(lengths[entry]),
                                                                          k, Int(starts[previous]), Int(lengths[previous])) != 0
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (order, newKey)
    }

    /// The keys of the entries in `order`, each new one (`newKey`) appended once: the bytes, and where each entry's
    /// key starts. The cores take chunks of the order (each key read is a miss); the chunks are then joined.
    static func keysInOrder(keys: [UInt8], starts: [UInt32], lengths: [UInt8], order: [Int32], newKey: [Bool]) -> (bytes: [UInt8], starts: [UInt32]) {
        let n = order.count, chunk = max(1, (n + 63) / 64)
        let parts = (0..<((n + chunk - 1) / chunk)).concurrentMap { c -> (bytes: [UInt8], starts: [UInt32]) in
            var bytes: [UInt8] = [], partStarts: [UInt32] = []
            partStarts.reserveCapacity(chunk)
            keys.withUnsafeBufferPointer { k in
                for m in (c * chunk)..<min(n, (c + 1) * chunk) {
                    if newKey[m] {
                        let e = Int(order[m]), s = Int(starts[e])
                        partStarts.append(UInt32(bytes.count))
                        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: k[s..<(s + Int(lengths[e]))]))
                    } else {
                        // The key before: this chunk's last, or (first in the chunk) the previous chunk's.
                        partStarts.append(partStarts.last ?? UInt32.max)
                    }
                }
            }
            return (bytes, partStarts)
        }
        var bytes: [UInt8] = [], sortedStarts: [UInt32] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + $1.bytes.count })
        sortedStarts.reserveCapacity(n)
        for part in parts {
            let offset = UInt32(bytes.count)
            for s in part.starts { sortedStarts.append(s == UInt32.max ? sortedStarts[sortedStarts.count - 1] : s + offset) }
            bytes += part.bytes
        }
        return (bytes, sortedStarts)
    }

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

    // MARK: Ranges

    /// Entries whose key starts with `prefix`, and within them those equal to it (which sort first).
    func ranges(prefix: [UInt8]) -> (all: Range<Int>, exact: Range<Int>) {
        guard let b0 = prefix.first else { return (0..<count, 0..<0) }
        // Every key starting with the prefix's first two bytes lies in their bucket (one byte: in the 256 buckets
        // of that byte), so the searches start there instead of over all 1.2 M keys.
        let bucket = Int(b0) << 8 | (prefix.count > 1 ? Int(prefix[1]) : 0)
        let (from, to) = prefix.count > 1 ? (Int(buckets[bucket]), Int(buckets[bucket + 1])) : (Int(buckets[bucket]), Int(buckets[bucket + 256]))
        // The fence narrows both ends to a few entries each without reading a key: `known` is an entry that starts
        // with the prefix, where the fence shows one, and the end then lies at `endFrom` or after.
        let (lo, hi, known, endFrom) = fenced(prefix, from, to)
        return keyBytes.withUnsafeBufferPointer { k in
            prefix.withUnsafeBufferPointer { q in
                keyStart.withUnsafeBufferPointer { starts in
                    keyLength.withUnsafeBufferPointer { lengths in
                        let m = q.count
                        /// Where key e stands: before every key that starts with the prefix (-1), one of them (0), after them (1).
                        @inline(__always) func side(_ e: Int) -> Int { Self.compare(k, Int(starts[e]), min(Int(lengths[e]), m), q, 0, m) }
                        /// Asks for what the probe a search of lo..<hi makes next will read, before it is made: its key's bytes
                        /// (its start was asked for a step before) and length, and the starts of the two probes after it.
                        /// Each probe of a binary search is a cache miss, and this overlaps it with the ones before.
                        @inline(__always) func ahead(_ lo: Int, _ hi: Int) {
                            guard lo < hi else { return }
                            let probe = (lo + hi) >> 1
                            pindrop_prefetch(k.baseAddress! + Int(starts[probe]))
                            pindrop_prefetch(starts.baseAddress! + ((lo + probe) >> 1)); pindrop_prefetch(starts.baseAddress! + ((probe + 1 + hi) >> 1))
                            pindrop_prefetch(lengths.baseAddress! + probe)
                        }
                        /// The keys that start with the prefix, given one of them (`mid`) in lo..<hi and that the end is at
                        /// `endFrom` or after: the first such key and the end are searched side by side, so that their
                        /// memory reads overlap (they are independent).
                        func around(_ lo: Int, _ mid: Int, _ hi: Int, endFrom: Int) -> (all: Range<Int>, exact: Range<Int>) {
                            var firstLo = lo, firstHi = mid, endLo = max(mid + 1, endFrom), endHi = hi
                            while firstLo < firstHi || endLo < endHi {
                                if firstLo < firstHi {
                                    let probe = (firstLo + firstHi) >> 1
                                    ahead(firstLo, probe); ahead(probe + 1, firstHi)
                                    if side(probe) >= 0 { firstHi = probe } else { firstLo = probe + 1 }
                                }
                                if endLo < endHi {
                                    let probe = (endLo + endHi) >> 1
                                    ahead(endLo, probe); ahead(probe + 1, endHi)
                                    if side(probe) > 0 { endHi = probe } else { endLo = probe + 1 }
                                }
                            }
                            // The keys equal to the prefix sort first and are few: galloped over, then searched.
                            let first = firstLo, end = endLo
                            var step = 1
                            while first + step < end, Int(lengths[first + step - 1]) == m { step *= 2 }
                            let exactEnd = firstIndex(in: (first + step / 2)..<min(first + step, end)) { Int(lengths[$0]) != m }
                            return (first..<end, first..<exactEnd)
                        }
                        if let known { return around(lo, known, hi, endFrom: endFrom) }
                        // One search narrows both ends until a probe starts with the prefix.
                        var lo = lo, hi = hi
                        while lo < hi {
                            let mid = (lo + hi) >> 1
                            ahead(lo, mid); ahead(mid + 1, hi)
                            let c = side(mid)
                            if c < 0 { lo = mid + 1; continue }
                            if c > 0 { hi = mid; continue }
                            return around(lo, mid, hi, endFrom: mid + 1)
                        }
                        return (lo..<lo, lo..<lo)
                    }
                }
            }
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
        let first = fenceWindow(from, to) { $0 & mask >= word }, end = fenceWindow(from, to) { $0 & mask > word }
        let known = first.entry.flatMap { e in compared == prefix.count && fence[e / Self.fenceStride] & mask == word ? e : nil }
        return (first.window.lowerBound, end.window.upperBound, known, end.window.lowerBound)
    }

    /// The entries of lo..<hi whose key has byte c at `depth`, where every key there is longer than `depth` and all
    /// agree before it (so they are sorted by that byte).
    private func byteRun(_ c: UInt8, at depth: Int, _ lo: Int, _ hi: Int,
                         _ k: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<UInt32>) -> Range<Int> {
        let from = firstEntry(byte: c, past: false, at: depth, lo, hi, k, starts)
        return from..<firstEntry(byte: c, past: true, at: depth, from, hi, k, starts)
    }

    /// The first entry of lo..<hi whose byte at `depth` is at least c (`past`: more than c), where every key there is
    /// longer than `depth` and all agree before it. Within the fence's eight bytes the fence narrows the search to the
    /// 16 entries before a fence entry before any key is read.
    private func firstEntry(byte c: UInt8, past: Bool, at depth: Int, _ lo: Int, _ hi: Int,
                            _ k: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<UInt32>) -> Int {
        @inline(__always) func isPast(_ b: UInt8) -> Bool { past ? b > c : b >= c }
        let shift = UInt64(56 - 8 * min(depth, 7))
        let window = depth < 8 ? fenceWindow(lo, hi) { isPast(UInt8(truncatingIfNeeded: $0 >> shift)) }.window : lo..<hi
        return firstIndex(in: window) { isPast(k[Int(starts[$0]) + depth]) }
    }

    /// Where in lo..<hi the first entry for which `isPast` holds lies (`isPast` of a fence word, false then true in
    /// key order): after the last fence entry inside lo..<hi for which it is false, up to the first (`entry`, nil
    /// when none) for which it is true, which the window ends at.
    private func fenceWindow(_ lo: Int, _ hi: Int, where isPast: (UInt64) -> Bool) -> (window: Range<Int>, entry: Int?) {
        let stride = Self.fenceStride
        let fLo = (lo + stride - 1) / stride, fHi = (hi + stride - 1) / stride
        let a = fence.withUnsafeBufferPointer { f in firstIndex(in: fLo..<fHi) { isPast(f[$0]) } }
        return ((a > fLo ? (a - 1) * stride + 1 : lo)..<(a < fHi ? a * stride : hi), a < fHi ? a * stride : nil)
    }

    /// Entries between two fence entries.
    static let fenceStride = 16

    /// Fence entries an index of `entries` name entries has.
    static func fenceCount(forEntries entries: Int) -> Int { (entries + fenceStride - 1) / fenceStride }

    /// Every `fenceStride`-th entry's first eight key bytes as one big-endian word (zeros past a shorter key; a
    /// folded key holds no zero byte, so the words sort as the keys do).
    static func buildFence(_ keys: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<UInt32>, _ lengths: UnsafeBufferPointer<UInt8>) -> [UInt64] {
        Swift.stride(from: 0, to: starts.count, by: fenceStride).map { head(of: $0, keys, starts, lengths) }
    }

    private static func head(of e: Int, _ keys: UnsafeBufferPointer<UInt8>, _ starts: UnsafeBufferPointer<UInt32>,
                             _ lengths: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var word: UInt64 = 0
        for i in 0..<min(Int(lengths[e]), 8) { word |= UInt64(keys[Int(starts[e]) + i]) << UInt64(56 - 8 * i) }
        return word
    }

    /// Whether every fence entry is its entry's key head (the import's check of a stored index: a wrong one would
    /// narrow searches to the wrong keys). Reads every `fenceStride`-th key.
    func fenceIsTheKeys() -> Bool {
        keyBytes.withUnsafeBufferPointer { k in keyStart.withUnsafeBufferPointer { s in keyLength.withUnsafeBufferPointer { l in
            fence.indices.allSatisfy { fence[$0] == Self.head(of: $0 * Self.fenceStride, k, s, l) }
        } } }
    }

    /// The index of the best-scoring entry in a non-empty range (with alternate names lowered when own names
    /// come first); of equal scores, the first.
    @inline(__always)
    func best(in range: Range<Int>, ownNamesFirst: Bool = false) -> Int {
        // Through buffer pointers: taking either tree as an array value costs a retain and a release of a buffer
        // every serving thread shares, on every call.
        ownNamesFirst ? ownNameTree.withUnsafeBufferPointer { best(in: range, $0, ownNamesFirst: true) }
            : tree.withUnsafeBufferPointer { best(in: range, $0, ownNamesFirst: false) }
    }

    @inline(__always)
    private func best(in range: Range<Int>, _ tree: UnsafeBufferPointer<TreeNode>, ownNamesFirst: Bool) -> Int {
        entryScore.withUnsafeBufferPointer { scores in
            entryKind.withUnsafeBufferPointer { kinds in
                @inline(__always) func score(_ e: Int) -> Float {
                    ownNamesFirst && kinds[e] == Kind.alternate.rawValue ? scores[e] - Self.alternateDemotion : scores[e]
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
                // The nodes read below lie far apart: each is asked for first, so that their cache misses are waited
                // for together rather than one after another. A node carries its entry's score: the entries it names
                // are not read.
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
        }
    }

    /// A range to draw from, ranked above all ranges of a lower tier; with `ownNamesFirst`, its alternate names
    /// rank below all its own names ("hel" → Helsingborg before Heleb, an old name of Aleppo).
    /// `penalty` is taken off its entries' scores (log2 units, as importance): a less likely typo ranks as
    /// a smaller place would.
    struct TieredRange { var range: Range<Int>; var tier: Int; var ownNamesFirst = false; var penalty: Float = 0 }

    /// Calls `visit` with entries from the ranges in order of (tier, score), best first, until it returns false;
    /// `score` is the entry's score as ranked (lowered for an alternate name in an `ownNamesFirst` range, and
    /// by the range's penalty).
    func forEachBest(_ ranges: [TieredRange], _ visit: (_ entry: Int, _ tier: Int, _ score: Float) -> Bool) {
        var heap = bestFirst(ranges)
        while let next = nextBest(&heap), visit(next.entry, next.tier, next.score) {}
    }

    /// A walk over the ranges' entries in order of (tier, score), best first: `nextBest` draws them one at a time.
    func bestFirst(_ ranges: [TieredRange]) -> BestFirstHeap {
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

    // MARK: Typo tolerance

    /// Keys close to a typed text: how many edits away, and for one edit which slip it is.
    struct FuzzyRange { var range: Range<Int>; var edits: Int; var edit: TypoEdit? }

    /// Ranges of keys within `maxEdits` edits (insert, delete, substitute, swap of neighbours) of `query`,
    /// at most one of them in the first three letters; with `asPrefix`, of keys that *start* with something
    /// that close (search as you type). A range one edit away says which (`TypoEdit`): it is read off the
    /// key's path only for ranges found, so the walk itself costs the same.
    func fuzzyRanges(_ query: [UInt8], maxEdits: Int, asPrefix: Bool, exactFirstByte: Bool = false) -> [FuzzyRange] {
        guard maxEdits > 0, !query.isEmpty, count > 0 else { return [] }
        var found: [FuzzyRange] = []
        let m = query.count
        let width = m + 1
        let maxDepth = m + maxEdits
        var rows = [Int](repeating: 0, count: (maxDepth + 1) * width)
        for j in 0...m { rows[j] = j }
        var path = [UInt8](repeating: 0, count: maxDepth + 1)
        keyBytes.withUnsafeBufferPointer { k in
            query.withUnsafeBufferPointer { q in
                rows.withUnsafeMutableBufferPointer { rows in
                    path.withUnsafeMutableBufferPointer { path in
                        keyStart.withUnsafeBufferPointer { starts in
                            keyLength.withUnsafeBufferPointer { lengths in
                                func walk(_ lo: Int, _ hi: Int, _ depth: Int) {
                                    let row = depth * width
                                    // Keys that end here sort first in the range.
                                    var rest = lo
                                    while rest < hi, Int(lengths[rest]) == depth { rest += 1 }
                                    let distance = rows[row + m]
                                    func edit() -> TypoEdit? { distance == 1 ? TypoEdit.between(typed: q, name: path[0..<depth]) : nil }
                                    if asPrefix, distance <= maxEdits { found.append(.init(range: lo..<hi, edits: distance, edit: edit())); return }
                                    if !asPrefix, distance <= maxEdits, rest > lo { found.append(.init(range: lo..<rest, edits: distance, edit: edit())) }
                                    guard depth < maxDepth else { return }
                                    var smallest = Int.max
                                    for j in 0...m { smallest = min(smallest, rows[row + j]) }
                                    // At most one edit in the first three letters: two early edits would
                                    // keep nearly every short branch alive, and people rarely make them.
                                    guard smallest <= (depth < 3 ? min(maxEdits, 1) : maxEdits) else { return }
                                    /// The DP row for child byte c, then the walk below it.
                                    func descend(_ c: UInt8, _ childStart: Int, _ childEnd: Int) {
                                        if exactFirstByte, depth == 0, c != q[0] { return }
                                        let next = row + width
                                        path[depth] = c
                                        rows[next] = depth + 1
                                        for j in 1...m {
                                            let cost = q[j - 1] == c ? 0 : 1
                                            var v = min(rows[row + j] + 1, rows[next + j - 1] + 1, rows[row + j - 1] + cost)
                                            if depth > 0, j > 1, q[j - 1] == path[depth - 1], q[j - 2] == c {
                                                v = min(v, rows[row - width + j - 2] + 1)
                                            }
                                            rows[next + j] = v
                                        }
                                        walk(childStart, childEnd, depth + 1)
                                    }
                                    // No edit left for a child: it can stay within reach only by matching a byte of the query
                                    // where this row is within reach (a swap of the last two needs such a byte too: the row
                                    // before the swap is within reach one column earlier). Those bytes are looked up instead of
                                    // reading every child: a branch already one edit off has many children and keeps a few, and
                                    // the one-edit neighbourhood of a big index is most of the walk.
                                    let childAllowed = depth + 1 < 3 ? min(maxEdits, 1) : maxEdits
                                    if depth >= 1, childAllowed == maxEdits, smallest >= childAllowed {
                                        // The wanted bytes as a 256-bit set, four words of 64.
                                        var wanted = SIMD4<UInt64>()
                                        for j in 1...m where rows[row + j - 1] <= childAllowed {
                                            wanted[Int(q[j - 1] >> 6)] |= UInt64(1) << UInt64(q[j - 1] & 63)
                                        }
                                        // In byte order, as the children are read otherwise, so the ranges come out in the same order.
                                        for word in 0..<4 {
                                            var bits = wanted[word]
                                            while bits != 0 {
                                                let c = UInt8(word << 6 | bits.trailingZeroBitCount)
                                                bits &= bits - 1
                                                if depth == 1 {
                                                    let from = Int(buckets[Int(path[0]) << 8 | Int(c)]), to = Int(buckets[(Int(path[0]) << 8 | Int(c)) + 1])
                                                    if c != 0, from < to { descend(c, max(from, rest), to) }
                                                    continue
                                                }
                                                // The run of keys with byte c here: the keys from `rest` on are sorted by it.
                                                let run = byteRun(c, at: depth, rest, hi, k, starts)
                                                if !run.isEmpty { descend(c, run.lowerBound, run.upperBound) }
                                            }
                                        }
                                        return
                                    }
                                    if depth < 2 {
                                        // Children straight from the two-byte buckets.
                                        let base = depth == 0 ? 0 : Int(path[0]) << 8
                                        for c in 1...255 {
                                            let from = depth == 0 ? Int(buckets[c << 8]) : Int(buckets[base | c])
                                            let to = depth == 0 ? Int(buckets[(c + 1) << 8]) : Int(buckets[(base | c) + 1])
                                            if from < to { descend(UInt8(c), max(from, rest), to) }
                                        }
                                        return
                                    }
                                    var childStart = rest
                                    while childStart < hi {
                                        let c = k[Int(starts[childStart]) + depth]
                                        // Gallop to the end of the run of keys with byte c at this depth: over the keys
                                        // next to it (they lie side by side), and past a fence's stride by the fence.
                                        var good = childStart, step = 1, bad = hi
                                        while good + step < hi {
                                            if depth < 8, step > Self.fenceStride { break }
                                            if k[Int(starts[good + step]) + depth] == c { good += step; step <<= 1 }
                                            else { bad = good + step; break }
                                        }
                                        let end = good + step < hi && bad == hi
                                            ? firstEntry(byte: c, past: true, at: depth, good + 1, hi, k, starts)
                                            : firstIndex(in: (good + 1)..<bad) { k[Int(starts[$0]) + depth] != c }
                                        descend(c, childStart, end)
                                        childStart = end
                                    }
                                }
                                walk(0, count, 0)
                            }
                        }
                    }
                }
            }
        }
        return found
    }
}

/// The ranges of a `bestFirst` walk, each keyed by its best entry.
typealias BestFirstHeap = Heap<BestFirstRange>

/// A range on a `bestFirst` walk, keyed by its best entry.
struct BestFirstRange: HeapOrdered {
    var key: Float; var entry: Int; var range: Range<Int>; var tier: Int; var ownNamesFirst: Bool; var penalty: Float

    /// Higher key first; of equal keys, the earlier entry (key order), as `best(in:)` picks within a range.
    @inline(__always)
    func precedes(_ other: BestFirstRange) -> Bool { key > other.key || (key == other.key && entry < other.entry) }
}
