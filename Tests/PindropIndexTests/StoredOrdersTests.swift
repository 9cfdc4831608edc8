import Foundation
import PindropCore
import PindropTesting
import Testing
@testable import PindropIndex

/// What the import now stores instead of the first query making it: the map labels' order of places and the
/// corrections of weak matches. Each must be what the query-time sort made, or labels and "did you mean" change.
@Suite("Stored orders")
struct StoredOrdersTests {
    /// A table of GeoNames rows with these populations (and nothing else a test here reads).
    static func table(populations: [Int32]) -> PlaceTable {
        let n = populations.count
        return PlaceTable(
            geonameID: Column((0..<Int32(n)).map { $0 }), latitude: Column(repeatElement(0, count: n)),
            longitude: Column(repeatElement(0, count: n)), population: Column(populations),
            country: Column(repeatElement(PlaceTable.noCountry, count: n)), admin1: Column(repeatElement(-1, count: n)),
            nameStart: Column(repeatElement(0, count: n + 1)), nameBytes: [], kind: Column(repeatElement(0, count: n)),
            extraStart: Column(repeatElement(0, count: n + 1)), extraBytes: [], countries: [], admin1s: [])
    }

    /// The forms sorted by hash, of equal hashes in the order given: what the corrections held when made at query time.
    static func sortedByHash(_ forms: [(hash: UInt64, slot: Int32)]) -> [(hash: UInt64, slot: Int32)] {
        forms.enumerated().sorted { ($0.element.hash, $0.offset) < ($1.element.hash, $1.offset) }.map(\.element)
    }

    @Test("the index's label order is every GeoNames place biggest first, of equal populations the lower row first")
    func labelOrderOfTheIndex() throws {
        let index = try SharedIndex.index
        let expected = (0..<Int32(index.contents.places.geonamesCount)).sorted(by: index.contents.places.biggestFirst)
        #expect(Array(index.contents.labelOrder) == expected)
        #expect(expected.count > 200_000)
    }

    @Test("the radix order keeps the sort's order for ties, zeros, the largest populations and negative ones")
    func labelOrderOfEdgeCases() {
        var random = SplitMix64(seed: 24)
        let populations: [Int32] = (0..<50_000).map { i in
            switch i % 5 {
            case 0: 0
            case 1: Int32(random.next() % 100)                   // many ties
            case 2: Int32(truncatingIfNeeded: random.next())     // the whole range, negatives too
            case 3: Int32.max - Int32(random.next() % 3)
            default: Int32(random.next() % 20_000_000)
            }
        }
        let table = Self.table(populations: populations)
        #expect(table.labelOrder() == (0..<Int32(populations.count)).sorted(by: table.biggestFirst))
    }

    @Test("the index's corrections are every qualifying name's forms in hash order, each run found through the directory")
    func correctionsOfTheIndex() throws {
        let index = try SharedIndex.index
        var forms: [(hash: UInt64, slot: Int32)] = []
        for i in 0..<index.contents.places.geonamesCount where index.contents.places.importance(i) >= Ranking.correctionMinimumScore {
            for hash in CorrectionForms.deletionHashes(Array(TextFolding.fold(index.contents.places.name(i)).utf8)) { forms.append((hash, Int32(i))) }
        }
        let expected = Self.sortedByHash(forms), stored = index.contents.corrections
        #expect(forms.count > 100_000)
        #expect(Array(stored.hashes) == expected.map(\.hash))
        #expect(Array(stored.slots) == expected.map(\.slot))
        for form in expected.prefix(5_000) {
            #expect(stored.run(of: form.hash).contains { stored.slots[$0] == form.slot })
        }
    }

    @Test("forms whose hashes share their top bits, or are equal, come in hash order and as given")
    func correctionsCrowded() {
        var random = SplitMix64(seed: 25)
        // 8 top bits for 200 forms: hashes drawn from a few values under a few top-bit prefixes.
        let forms: [(hash: UInt64, slot: Int32)] = (0..<200).map { i in
            ((random.next() % 4) << 62 | random.next() % 6, Int32(i))
        }
        let made = CorrectionForms(hashes: forms.map(\.hash), slots: forms.map(\.slot)), expected = Self.sortedByHash(forms)
        #expect(made.directoryBits == 8)
        #expect(Array(made.hashes) == expected.map(\.hash))
        #expect(Array(made.slots) == expected.map(\.slot))
        for hash in Set(forms.map(\.hash)) {
            #expect(made.run(of: hash).map { made.slots[$0] } == expected.filter { $0.hash == hash }.map(\.slot))
        }
        #expect(CorrectionForms(hashes: [], slots: []).run(of: 42).isEmpty)
    }
}
