import PindropCore
import PindropTesting
import Testing
@testable import PindropIndex

/// The name index's segment trees (by blocks of entries) pick, in any range, what a scan of the range picks.
@Suite("Name index: the best entry of a range")
struct NameTreeTests {
    @Test("best(in:) is the highest score, then the first entry, for any range, with and without own names first")
    func bestAgreesWithAScan() {
        // Few distinct importances, so most ranges hold ties; alternate names, so the two trees differ.
        var random = SplitMix64(seed: 21)
        var entries = NameEntries(keys: [])
        for place in 0..<3_000 {
            let name = ["ber", "bel", "san", "mar"][random.below(4)] + String(random.below(40))
            let alternates = random.below(3) == 0 ? ["be" + String(random.below(30))] : []
            entries.addRow(primary: [name], alternate: alternates, place: place, importance: Float(random.below(6)))
        }
        let names = entries.index()
        #expect(names.count > 3_000)
        for n in 0..<2_000 {
            let ownNamesFirst = n % 2 == 0
            // Short ranges (inside one block), ranges across a few blocks, and long ones.
            let length = 1 + random.below([5, 60, names.count][n % 3])
            let start = random.below(names.count - length + 1)
            let range = start..<(start + length)
            let expected = range.max { a, b in
                let (sa, sb) = (names.score(a, ownNamesFirst: ownNamesFirst), names.score(b, ownNamesFirst: ownNamesFirst))
                return sa != sb ? sa < sb : a > b
            }!
            #expect(names.best(in: range, ownNamesFirst: ownNamesFirst) == expected, "\(range) \(ownNamesFirst)")
        }
        // Drawing a whole range best first gives its entries by score, ties in key order.
        var drawn: [Int] = []
        names.forEachBest([.init(range: 0..<names.count, tier: 0)]) { entry, _, _ in drawn.append(entry); return true }
        let expected = (0..<names.count).sorted { a, b in
            names.entryScore[a] != names.entryScore[b] ? names.entryScore[a] > names.entryScore[b] : a < b
        }
        #expect(drawn.count == expected.count)
        #expect(zip(drawn, expected).allSatisfy { $0 == $1 })
    }
}
