import PindropTesting
import Testing
@testable import PindropIndex

/// The name entries are sorted on two cores (by buckets of their first two bytes, each by a radix sort, then its
/// ties); search reads their order, ties included (equal names of equal importance answer in the order the import
/// met them), so it must be exactly the order of one stable sort of the whole by key and score.
@Suite("Import: the name entries' order")
struct NameSortTests {
    @Test("the sort gives the order of one stable sort, over keys with many ties and long shared heads, and over every byte",
          arguments: [(0, 3), (1, 3), (2, 3), (3, 3), (1_000, 3), (25_001, 3), (40_000, 256), (3_000, 2)])
    func sortsAsOneSort(count: Int, alphabet: Int) {
        // Keys over a small alphabet and few scores, so that equal keys with equal scores are common; or past their
        // first two bytes over every byte value (zero included: a key that ends where another goes on with a zero
        // byte has the same head).
        var random = SplitMix64(seed: UInt64(count) + 11)
        var keys: [UInt8] = [], starts: [UInt32] = [], lengths: [UInt8] = [], scores: [Float] = []
        for _ in 0..<count {
            let length = 1 + Int(random.next() % 12)
            starts.append(UInt32(keys.count))
            lengths.append(UInt8(length))
            for i in 0..<length {
                // Over every byte, the first two of a few, so that buckets are large and the radix passes all run.
                let any = alphabet == 256 && i >= 2
                keys.append(any ? UInt8(truncatingIfNeeded: random.next()) : UInt8(ascii: "a") + UInt8(random.next() % UInt64(min(alphabet, 3))))
            }
            scores.append(Float(random.next() % 4))
        }
        let (merged, newKey) = NameSorter.sortedEntries(keys: keys, starts: starts, lengths: lengths, scores: scores)
        // What the order means, spelled out: by key bytes, then score (highest first), then as met (by entry).
        func key(_ e: Int32) -> ArraySlice<UInt8> { keys[Int(starts[Int(e)])..<(Int(starts[Int(e)]) + Int(lengths[Int(e)]))] }
        let expected = (0..<Int32(count)).sorted { a, b in
            if key(a) != key(b) { return key(a).lexicographicallyPrecedes(key(b)) }
            return scores[Int(a)] != scores[Int(b)] ? scores[Int(a)] > scores[Int(b)] : a < b
        }
        #expect(merged == expected)
        // Equal keys are stored once: each entry is told whether its key is new.
        #expect(newKey == expected.indices.map { $0 == 0 || key(expected[$0]) != key(expected[$0 - 1]) })
    }
}
