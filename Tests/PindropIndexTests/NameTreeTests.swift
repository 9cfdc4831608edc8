import PindropCore
import PindropTesting
import Testing
@testable import PindropIndex

/// The name index's segment trees (by blocks of entries) pick, in any range, what a scan of the range picks; its prefix
/// search finds what a scan of the keys finds.
@Suite("Name index: the best entry of a range, the entries of a prefix")
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

    @Test("ranges(prefix:) holds every key that starts with the prefix, the keys equal to it first, for any prefix")
    func prefixRangesAgreeWithAScan() {
        // Keys that share long heads (past 8 bytes), run in long groups of equals, end inside one another, and
        // hold letters above ASCII; prefixes cut from them (every length), and some that start nothing.
        var random = SplitMix64(seed: 33)
        let stems = ["san ", "santa ", "santa maria ", "saint ", "sai", "s", "zurich", "zürich", "new york", "newark"]
        var entries = NameEntries(keys: [])
        for place in 0..<4_000 {
            let name = stems[random.below(stems.count)] + (random.below(4) == 0 ? "" : String(random.below(60)))
            entries.addRow(primary: [name], alternate: [], place: place, importance: Float(random.below(9)))
        }
        let names = entries.index()
        let keys = (0..<names.count).map { e in
            Array(names.keyBytes[Int(names.keyStart[e])..<(Int(names.keyStart[e]) + Int(names.keyLength[e]))])
        }
        var prefixes = ["", "q", "sa", "san", "santa m", "santa maria 1", "santa maria 12", "s9", "zz", "newa", "new york 5"].map { Array($0.utf8) }
        for _ in 0..<1_500 {
            let key = keys[random.below(keys.count)]
            prefixes.append(Array(key.prefix(1 + random.below(key.count))))
        }
        for prefix in prefixes where !prefix.isEmpty {
            let starting = keys.indices.filter { keys[$0].starts(with: prefix) }
            let equal = keys.indices.filter { keys[$0] == prefix }
            let (all, exact) = names.ranges(prefix: prefix)
            let text = String(decoding: prefix, as: UTF8.self)
            #expect(Array(all) == starting, "all of \"\(text)\"")
            #expect(Array(exact) == equal, "exact of \"\(text)\"")
            if starting.isEmpty { #expect(all.isEmpty && exact.isEmpty, "\"\(text)\" starts nothing") }
        }
    }

    @Test("an open index's names are two runs, the GeoNames places' and the street level's: a prefix finds in each what a scan of its keys finds")
    func runsOfAnOpenIndex() throws {
        let index = try SharedIndex.index
        let names = index.contents.names, geonames = index.contents.places.geonamesCount
        #expect(names.geonames.count > 100_000 && names.street.count > 1_000 && names.streetStart == names.geonames.count)
        #expect(names.geonames.entryPlace.allSatisfy { $0 < geonames } && names.street.entryPlace.allSatisfy { $0 >= geonames })
        for prefix in ["hel", "stockmann", "mannerheimintie", "aleksanterinkatu 5", "kamp"] {
            let key = Array(TextFolding.fold(prefix).utf8)
            let runs = names.ranges(prefix: key), found = [runs.geonames, runs.street]
            let scanned = (0..<names.count).filter { names.key($0).starts(with: key) }
            #expect(Array(found[0].all) + Array(found[1].all) == scanned, "\(prefix)")
            #expect((Array(found[0].exact) + Array(found[1].exact)).allSatisfy { names.key($0).elementsEqual(key) }, "\(prefix)")
        }
        #expect(names.ranges(prefix: Array("aleksanterinkatu".utf8)).street.all.count > 10)
    }
}
