import Foundation
import PindropCore
import Testing
@testable import PindropIndex

/// One-edit typos of real names (issue 18): a likely slip of the fingers finds the town meant, and exact and
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
        let names = try SharedIndex.index.names
        for (typed, name, edit) in [("stcokholm", "stockholm", TypoEdit.transposed), ("helsnki", "helsinki", .dropped)] {
            let exact = names.ranges(prefix: Array(name.utf8)).exact
            let found = names.fuzzyRanges(Array(typed.utf8), maxEdits: 1, asPrefix: false)
            #expect(found.contains { $0.range.overlaps(exact) && $0.edits == 1 && $0.edit == edit }, "\(typed)")
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
