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
        let (keys, starts, lengths, scores) = Self.entries(count: count, alphabet: alphabet)
        let (merged, newKey) = NameSorter.sortedEntries(keys: keys, starts: starts, lengths: lengths, scores: scores)
        let expected = Self.oneSort(keys, starts, lengths, scores)
        #expect(merged == expected)
        // Equal keys are stored once: each entry is told whether its key is new.
        #expect(newKey == Self.newKeys(expected, keys, starts, lengths))
    }

    /// An update keeps the stored index's entries in their order and merges the street level's with them: the same
    /// order as sorting the whole, ties between stored and new entries included.
    @Test("entries already in order, merged with the others, give the order of one sort of the whole",
          arguments: [(1_000, 3, 600), (25_001, 3, 25_000), (3_000, 256, 1), (3_000, 2, 2_999), (500, 3, 500)])
    func mergesEntriesInOrder(count: Int, alphabet: Int, sortedCount: Int) {
        let (keys, starts, lengths, scores) = Self.entries(count: count, alphabet: alphabet)
        // The first entries laid out as an index stores them: in their own order.
        let stored = Self.oneSort(keys, Array(starts[..<sortedCount]), Array(lengths[..<sortedCount]), Array(scores[..<sortedCount]))
        func laid<T>(_ values: [T]) -> [T] { stored.map { values[Int($0)] } + values[sortedCount...] }
        let (s, l, sc) = (laid(starts), laid(lengths), laid(scores))
        let (merged, newKey) = NameSorter.sortedEntries(keys: keys, starts: s, lengths: l, scores: sc, sortedCount: sortedCount)
        let expected = Self.oneSort(keys, s, l, sc)
        #expect(merged == expected)
        #expect(newKey == Self.newKeys(expected, keys, s, l))
    }

    /// Keys over a small alphabet and few scores, so that equal keys with equal scores are common; or past their
    /// first two bytes over every byte value (zero included: a key that ends where another goes on with a zero
    /// byte has the same head).
    static func entries(count: Int, alphabet: Int) -> (keys: [UInt8], starts: [UInt32], lengths: [UInt8], scores: [Float]) {
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
        return (keys, starts, lengths, scores)
    }

    /// What the order means, spelled out: by key bytes, then score (highest first), then as met (by entry).
    static func oneSort(_ keys: [UInt8], _ starts: [UInt32], _ lengths: [UInt8], _ scores: [Float]) -> [Int32] {
        func key(_ e: Int32) -> ArraySlice<UInt8> { keys[Int(starts[Int(e)])..<(Int(starts[Int(e)]) + Int(lengths[Int(e)]))] }
        return (0..<Int32(starts.count)).sorted { a, b in
            if key(a) != key(b) { return key(a).lexicographicallyPrecedes(key(b)) }
            return scores[Int(a)] != scores[Int(b)] ? scores[Int(a)] > scores[Int(b)] : a < b
        }
    }

    /// Whether each entry of `order` has another key than the one before it.
    static func newKeys(_ order: [Int32], _ keys: [UInt8], _ starts: [UInt32], _ lengths: [UInt8]) -> [Bool] {
        func key(_ e: Int32) -> ArraySlice<UInt8> { keys[Int(starts[Int(e)])..<(Int(starts[Int(e)]) + Int(lengths[Int(e)]))] }
        return order.indices.map { $0 == 0 || key(order[$0]) != key(order[$0 - 1]) }
    }
}
