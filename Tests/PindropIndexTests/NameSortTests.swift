import PindropTesting
import Testing
@testable import PindropIndex

/// The name entries are sorted on two cores (two halves, then merged); search reads their order, ties included
/// (equal names of equal importance answer in the order the import met them), so it must be exactly the order of
/// one stable sort of the whole.
@Suite("Import: the name entries' order")
struct NameSortTests {
    @Test("two sorted halves merged give the order of one stable sort, over keys with many ties", arguments: [0, 1, 2, 3, 1_000, 25_001])
    func halvesMergeAsOneSort(count: Int) {
        // Keys over a small alphabet and few scores, so that equal keys with equal scores are common.
        var random = SplitMix64(seed: UInt64(count) + 11)
        var keys: [UInt8] = [], starts: [UInt32] = [], lengths: [UInt8] = [], scores: [Float] = []
        for _ in 0..<count {
            let length = 1 + Int(random.next() % 10)
            starts.append(UInt32(keys.count))
            lengths.append(UInt8(length))
            for _ in 0..<length { keys.append(UInt8(ascii: "a") + UInt8(random.next() % 3)) }
            scores.append(Float(random.next() % 4))
        }
        var head = [UInt64](repeating: 0, count: count)
        for e in 0..<count {
            for i in 0..<8 { head[e] = head[e] << 8 | (i < Int(lengths[e]) ? UInt64(keys[Int(starts[e]) + i]) : 0) }
        }
        let order = (0..<count).map { Int32($0) }
        keys.withUnsafeBufferPointer { k in
            starts.withUnsafeBufferPointer { s in
                lengths.withUnsafeBufferPointer { l in
                    scores.withUnsafeBufferPointer { sc in
                        head.withUnsafeBufferPointer { h in
                            let entries = NameIndex.EntryOrder(keys: k, starts: s, lengths: l, scores: sc, head: h)
                            let merged = NameIndex.stableSorted(order, by: entries)
                            #expect(merged == order.sorted { entries.less($0, $1) })
                            // Ties keep the import's order: among equal keys and scores, entries ascend.
                            for (a, b) in zip(merged, merged.dropFirst()) where !entries.less(a, b) && !entries.less(b, a) {
                                #expect(a < b)
                            }
                        }
                    }
                }
            }
        }
    }
}
