import Foundation
import PindropCore
import PindropTesting
import Testing
@testable import PindropIndex

/// One-edit typos of real names: a likely slip of the fingers finds the town meant, and exact and
/// prefix answers keep their order.
@Suite("Typos: the likely slip finds the town meant")
struct TypoRankingTests {
    func search(_ text: String) throws -> [PlaceResult] { try SharedIndex.index.search(SearchRequest(text: text, limit: 5)) }
    func suggest(_ text: String) throws -> [PlaceResult] { try SharedIndex.index.suggest(SuggestRequest(text: text, limit: 5, minChars: 1)) }

    @Test("a typo of each kind finds the town first, in search and as you type", arguments: [
        ("Helsnki", "Helsinki"), ("Stcokholm", "Stockholm"), ("Barcelonna", "Barcelona"), ("Amsterdma", "Amsterdam"),
        ("Manchestet", "Manchester"), ("Oslp", "Oslo"),
    ])
    func kinds(typed: String, place: String) throws {
        #expect(try search(typed).first?.place.name == place)
        #expect(try suggest(typed).first?.place.name == place)
    }

    @Test("a likely slip beats an arbitrary change of one letter in a place up to 16 times bigger", arguments: [
        ("Renget", "Rengte", "Rengit"), ("Blels", "Bells", "Blois"), ("Ventanai", "Ventania", "Ventanas"), ("Surmai", "Surami", "Şurmān"),
    ])
    func likelySlipFirst(typed: String, meant: String, other: String) throws {
        let results = try search(typed)
        #expect(results.first?.place.name == meant, "\(typed) → \(results.map(\.place.name))")
        #expect(results.contains { $0.place.name == other }, "\(typed) → \(results.map(\.place.name))")
    }

    @Test("search text that only starts names also reads as a whole name one likely slip away, by size")
    func prefixOrSlip() throws {
        // Wawer (77,000) over Wawrzeńczyce (3,000), which "Wawr" starts; a big city the text
        // starts still comes first.
        #expect(try search("Wawr").first?.place.name == "Wawer")
        #expect(try search("Wawr").contains { $0.place.name == "Wawrzeńczyce" })
        for (text, place) in [("Helsin", "Helsinki"), ("Amsterd", "Amsterdam"), ("Stockh", "Stockholm")] {
            let results = try search(text)
            #expect(results.first?.place.name == place, "\(results.map(\.label))")
        }
    }

    @Test("the fuzzy walk says which slip each range is")
    func rangesNameTheirEdit() throws {
        let names = try SharedIndex.index.contents.names.geonames
        for (typed, name, edit) in [("stcokholm", "stockholm", TypoEdit.transposed), ("helsnki", "helsinki", .dropped)] {
            let exact = names.ranges(prefix: Array(name.utf8)).exact
            let found = names.fuzzyRanges(Array(typed.utf8), maxEdits: 1, asPrefix: false)
            #expect(found.contains { $0.range.overlaps(exact) && $0.edits == 1 && $0.edit == edit }, "\(typed)")
        }
    }

    @Test("the fuzzy walk finds exactly the keys a per-key edit distance accepts: one and two edits, whole names and prefixes")
    func fuzzyWalkAgreesWithEachKeysDistance() throws {
        // Crowded neighbourhoods: the names of the shipped places that start like many others do.
        let index = try SharedIndex.index
        var entries = NameEntries(keys: [])
        var row = 0
        for slot in 0..<index.contents.places.geonamesCount {
            let name = index.contents.places.name(slot)
            guard ["San", "Bel", "Mar", "Ber", "Kal"].contains(where: name.hasPrefix), slot % 3 == 0 else { continue }
            entries.addRow(primary: [name], alternate: [], place: row, importance: 1)
            row += 1
        }
        let names = entries.index()
        let keys = (0..<names.count).map { e in Array(names.keyBytes[Int(names.keyStart[e])..<(Int(names.keyStart[e]) + Int(names.keyLength[e]))]) }
        #expect(names.count > 2_000)
        /// The walk's rule for one key: the edit distance (swaps of neighbours count one) row by row along the key,
        /// giving up when a row's best exceeds what its depth allows (one edit in the first three letters).
        func edits(_ key: [UInt8], _ q: [UInt8], maxEdits: Int, asPrefix: Bool, exactFirstByte: Bool) -> Int? {
            let m = q.count
            var before: [Int] = [], row = Array(0...m)
            for depth in 0...key.count {
                if asPrefix, row[m] <= maxEdits { return row[m] }
                if depth == key.count { return row[m] <= maxEdits ? row[m] : nil }
                guard depth < m + maxEdits, row.min()! <= (depth < 3 ? min(maxEdits, 1) : maxEdits) else { return nil }
                let c = key[depth]
                if exactFirstByte, depth == 0, c != q[0] { return nil }
                var next = [depth + 1] + [Int](repeating: 0, count: m)
                for j in 1...m {
                    next[j] = min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (q[j - 1] == c ? 0 : 1))
                    if depth > 0, j > 1, q[j - 1] == key[depth - 1], q[j - 2] == c { next[j] = min(next[j], before[j - 2] + 1) }
                }
                (before, row) = (row, next)
            }
            return nil
        }
        var random = SplitMix64(seed: 18)
        for n in 0..<300 {
            // A key with one or two random edits (drop, double, swap, change), or a random key.
            var q = keys[random.below(keys.count)]
            for _ in 0...(n % 2) where q.count > 2 {
                let i = random.below(q.count - 1)
                switch random.below(4) {
                case 0: q.remove(at: i)
                case 1: q.insert(q[i], at: i)
                case 2: q.swapAt(i, i + 1)
                default: q[i] = UInt8(ascii: "a") + UInt8(random.below(26))
                }
            }
            let maxEdits = n % 5 == 4 ? 2 : 1, asPrefix = n % 3 == 0, exactFirstByte = maxEdits == 2 && n % 2 == 0
            var walked = [Int?](repeating: nil, count: keys.count)
            for r in names.fuzzyRanges(q, maxEdits: maxEdits, asPrefix: asPrefix, exactFirstByte: exactFirstByte) {
                for e in r.range { walked[e] = r.edits }
            }
            let expected = keys.map { edits($0, q, maxEdits: maxEdits, asPrefix: asPrefix, exactFirstByte: exactFirstByte) }
            #expect(walked == expected, "\(String(decoding: q, as: UTF8.self)), \(maxEdits) edits, prefix \(asPrefix)")
        }
    }

    @Test("exact and prefix answers keep their order: a name as typed is never beaten by a typo reading")
    func exactAndPrefixFirst() throws {
        #expect(try search("Paris").first?.place.countryCode == "FR")
        #expect(try search("Helsinki").first?.place.name == "Helsinki")
        #expect(try suggest("Hel").first?.place.name == "Helsinki")
        #expect(try suggest("Stockh").first?.place.name == "Stockholm")
    }
}
