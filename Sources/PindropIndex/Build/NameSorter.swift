import PindropCore

/// Sorts an import's name entries into the name index's order (`EntryOrder`) on every core: the entries are put in
/// buckets by their first two bytes (as `NameIndex.buckets` is laid out), which is their order between buckets, and
/// the cores then sort bucket after bucket, each small enough to stay in the cache.
enum NameSorter {
    /// A name entry as the import sorts it: its first 8 key bytes as one big-endian number (zero-padded), so most
    /// comparisons are one integer compare of values at hand rather than reads across the whole entry table.
    struct SortItem {
        var head: UInt64
        var entry: Int32
    }

    /// The order of name entries: by key, then by score, highest first, then as the import met them (by entry).
    /// A total order, so that any sort gives the one answer. Reads the entries' arrays in place, for one sort.
    struct EntryOrder {
        let keys: SortedKeys
        let scores: UnsafeBufferPointer<Float>

        /// Eight key bytes from `from` as one big-endian number, zero-padded past the key's end.
        @inline(__always)
        static func head(_ keys: UnsafeBufferPointer<UInt8>, start: Int, length: Int, from: Int) -> UInt64 {
            var h: UInt64 = 0
            for i in from..<(from + 8) { h = h << 8 | (i < length ? UInt64(keys[start + i]) : 0) }
            return h
        }

        /// Entry e's first eight key bytes, as `SortItem.head` holds them.
        @inline(__always)
        func firstHead(_ e: Int) -> UInt64 { Self.head(keys.bytes, start: keys.start(e), length: keys.length(e), from: 0) }

        /// Entry e's key bytes 8 to 15, as `firstHead` is its first eight.
        func secondHead(_ e: Int32) -> UInt64 { Self.head(keys.bytes, start: keys.start(Int(e)), length: keys.length(Int(e)), from: 8) }

        @inline(__always)
        func less(_ a: SortItem, _ b: SortItem) -> Bool {
            if a.head != b.head { return a.head < b.head }
            let (x, y) = (Int(a.entry), Int(b.entry))
            let c = keys.compare(x, y)
            if c != 0 { return c < 0 }
            return scores[x] != scores[y] ? scores[x] > scores[y] : x < y
        }
    }

    /// Parts the entries are cut into for the cores' passes over them.
    private static let parts = 8
    /// Buckets of `NameIndex.buckets`, without its closing entry.
    private static let bucketCount = NameIndex.bucketCount - 1

    /// The entries in `EntryOrder`, and for each position in that order whether its key differs from the one before.
    static func sortedEntries(keys: [UInt8], starts: [UInt32], lengths: [UInt8], scores: [Float]) -> (order: [Int32], newKey: [Bool]) {
        keys.withUnsafeBufferPointer { k in
            starts.withUnsafeBufferPointer { s in
                lengths.withUnsafeBufferPointer { l in
                    scores.withUnsafeBufferPointer { scores in
                        sortedEntries(EntryOrder(keys: SortedKeys(bytes: k, starts: s, lengths: l), scores: scores))
                    }
                }
            }
        }
    }

    private static func sortedEntries(_ entries: EntryOrder) -> (order: [Int32], newKey: [Bool]) {
        let n = entries.keys.starts.count
        var (items, bucketStart) = itemsInBuckets(entries, n)
        var order = [Int32](repeating: 0, count: n), newKey = [Bool](repeating: true, count: n)
        items.withUnsafeMutableBufferPointer { items in
            sortBuckets(items, bucketStart: bucketStart, entries)
            order.withUnsafeMutableBufferPointer { order in
                newKey.withUnsafeMutableBufferPointer { newKey in
                    markNewKeys(UnsafeBufferPointer(items), entries.keys, order: order, newKey: newKey)
                }
            }
        }
        return (order, newKey)
    }

    /// The entries of part p (none for the last parts of a few entries).
    private static func partRange(_ p: Int, of n: Int) -> Range<Int> {
        let part = max(1, (n + parts - 1) / parts)
        return min(n, p * part)..<min(n, (p + 1) * part)
    }

    /// The entries as sort items placed by bucket, and where each bucket starts (one entry more than buckets). Each
    /// part of the entries counts its own buckets first, so that the parts then fill their places in each bucket at once.
    private static func itemsInBuckets(_ entries: EntryOrder, _ n: Int) -> (items: [SortItem], bucketStart: [Int]) {
        @inline(__always) func bucket(_ head: UInt64) -> Int { Int(head >> 48) }
        let counts = (0..<parts).concurrentMap { p -> [Int32] in
            var counts = [Int32](repeating: 0, count: bucketCount)
            for e in partRange(p, of: n) { counts[bucket(entries.firstHead(e))] += 1 }
            return counts
        }
        var bucketStart = [Int](repeating: 0, count: bucketCount + 1), cursors = [[Int]](repeating: [], count: parts)
        var total = 0
        for b in 0..<bucketCount {
            bucketStart[b] = total
            for p in 0..<parts { cursors[p].append(total); total += Int(counts[p][b]) }
        }
        bucketStart[bucketCount] = total
        let items = [SortItem](unsafeUninitializedCapacity: n) { buffer, count in
            nonisolated(unsafe) let buffer = buffer
            let partCursors = cursors
            _ = (0..<parts).concurrentMap { p in
                var cursor = partCursors[p]
                for e in partRange(p, of: n) {
                    let h = entries.firstHead(e)
                    buffer[cursor[bucket(h)]] = SortItem(head: h, entry: Int32(e))
                    cursor[bucket(h)] += 1
                }
            }
            count = n
        }
        return (items, bucketStart)
    }

    /// Sorts each bucket of `items` in place; the buckets in 64 groups of neighbours, one a core at a time, each with
    /// scratch space for its largest bucket.
    private static func sortBuckets(_ items: UnsafeMutableBufferPointer<SortItem>, bucketStart: [Int], _ entries: EntryOrder) {
        nonisolated(unsafe) let items = items
        let groups = 64, perGroup = (bucketCount + groups - 1) / groups
        _ = (0..<groups).concurrentMap { g in
            let buckets = (g * perGroup)..<min(bucketCount, (g + 1) * perGroup)
            let largest = buckets.map { bucketStart[$0 + 1] - bucketStart[$0] }.max() ?? 0
            withUnsafeTemporaryAllocation(of: SortItem.self, capacity: max(1, largest)) { scratch in
                for b in buckets {
                    sortBucket(UnsafeMutableBufferPointer(rebasing: items[bucketStart[b]..<bucketStart[b + 1]]), scratch: scratch, entries)
                }
            }
        }
    }

    /// The sorted items' entries into `order`, and into `newKey` whether each key differs from the one before.
    private static func markNewKeys(_ items: UnsafeBufferPointer<SortItem>, _ keys: SortedKeys,
                                    order: UnsafeMutableBufferPointer<Int32>, newKey: UnsafeMutableBufferPointer<Bool>) {
        nonisolated(unsafe) let (order, newKey) = (order, newKey)
        _ = (0..<parts).concurrentMap { p in
            for m in partRange(p, of: items.count) {
                let item = items[m]
                order[m] = item.entry
                guard m > 0, item.head == items[m - 1].head else { continue }
                newKey[m] = keys.compare(Int(item.entry), Int(items[m - 1].entry)) != 0
            }
        }
    }

    /// Sorts one bucket's items into `EntryOrder`. They come in entry order and alike in their heads' top two bytes:
    /// a stable radix sort by the heads' other six bytes, then each run of equal heads (the copies of a name share
    /// their first eight bytes, and its places' other names) by the keys' next eight bytes, read once an item, the
    /// same way, and what still ties by the whole order. A comparison sort of the bucket instead has a branch it
    /// cannot predict at every step, and reads two keys across the whole key table at every tie.
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
}
