import Foundation
import PindropCore
import Testing
@testable import PindropIndex

@Suite("Embedded index: did you mean, and why this result")
struct ExplainTests {
    func search(_ text: String, near: Coordinate? = nil, explain: Bool = false) throws -> [PlaceResult] {
        try SharedIndex.index.search(SearchRequest(text: text, near: near, explain: explain))
    }

    func suggest(_ text: String, explain: Bool = false) throws -> [PlaceResult] {
        try SharedIndex.index.suggest(SuggestRequest(text: text, limit: 8, explain: explain))
    }

    // MARK: Did you mean

    @Test("a misspelling that matches nothing as typed answers the place and says what was meant, the rest of the text kept")
    func typoCorrection() throws {
        let found = try search("Helsinik")
        #expect(found.first?.place.name == "Helsinki" && found.first?.didYouMean == "Helsinki")
        let qualified = try search("Hellsinki, Finland")
        #expect(qualified.first?.place.name == "Helsinki" && qualified.first?.didYouMean == "Helsinki, Finland")
        let typing = try suggest("Helsinkii")
        #expect(typing.first?.place.name == "Helsinki" && typing.first?.didYouMean == "Helsinki")
        // Only the first result carries it: it is the answer's, not a place's.
        #expect(found.dropFirst().allSatisfy { $0.didYouMean == nil })
    }

    @Test("a weak as-typed match keeps its results and offers the far bigger place one edit away")
    func weakMatch() throws {
        // Warsow is a German village of 718 people; Warsaw is one letter away and 2,000 times bigger.
        let found = try search("Warsow")
        #expect(found.first?.place.name == "Warsow" && found.first?.place.countryCode == "DE")
        #expect(found.first?.didYouMean == "Warsaw")
        #expect(try suggest("Warsow").first?.didYouMean == "Warsaw")
    }

    @Test("text that matched well offers no correction", arguments: [
        "Helsinki", "Hel", "Springfield", "Paris", "Helsingfors", "Warsaw",
        // Helsinki's Czech name: a name, not a slip (the list reads "Helsinky → Helsinki").
        "Helsinky",
        // Real towns of a few thousand one letter from a big city: answers, not slips.
        "Vagos", "Lydney", "Oberlin",
    ])
    func noCorrection(text: String) throws {
        #expect(try search(text).first?.didYouMean == nil, "search \(text)")
        #expect(try suggest(text).first?.didYouMean == nil, "suggest \(text)")
    }

    @Test("a correction is one edit away: a letter replaced, missing, extra or two swapped; not none, not two", arguments: [
        ("warsow", "warsaw", true), ("parid", "paris", true), ("hesinki", "helsinki", true), ("helsinkii", "helsinki", true),
        ("helsinik", "helsinki", true), ("paris", "paris", false), ("parsi x", "paris", false), ("wrasow", "warsaw", false),
    ])
    func oneEdit(typed: String, name: String, one: Bool) {
        #expect((TypoEdit.between(typed: Array(typed.utf8), name: Array(name.utf8)) != nil) == one)
    }

    // MARK: Why this result

    @Test("explain names the match: exact, prefix, typo with its edit, alternate name, inner word")
    func matchKinds() throws {
        let exact = try #require(try search("Helsinki", explain: true).first?.explanation)
        #expect(exact.match == .exact && exact.nameKind == .name && exact.matchedName == "Helsinki" && exact.tier == 3)
        let prefix = try #require(try search("Helsin", explain: true).first?.explanation)
        #expect(prefix.match == .prefix && prefix.text == "helsin" && prefix.matchedName == "Helsinki" && prefix.tier == 2)
        let typo = try #require(try search("Helsinik", explain: true).first?.explanation)
        #expect(typo.match == .typo && typo.edit == "swapped 'ki'" && typo.matchedName == "Helsinki" && typo.tier < 2)
        // "Hel" is Helsinki's code HEL, an alternate name matched whole: the answer people argue about, explained.
        let code = try #require(try search("Hel", explain: true).first)
        #expect(code.place.name == "Helsinki" && code.explanation?.match == .exact && code.explanation?.nameKind == .alternate)
        let alternate = try #require(try search("Helsingfors", explain: true).first?.explanation)
        #expect(alternate.match == .exact && alternate.nameKind == .alternate && alternate.matchedName == "Helsingfors")
        #expect(alternate.nameTerm == -3)
        let inner = try #require(try search("York, NY", explain: true).first { $0.place.name == "East New York" }?.explanation)
        #expect(inner.match == .exact && inner.nameKind == .innerWord && inner.matchedName == "York" && inner.nameTerm == -8)
    }

    @Test("explain's terms add up to the score, and the results are in the order they say")
    func termsAddUp() throws {
        let helsinki = Coordinate(latitude: 60.17, longitude: 24.94)
        for (text, near) in [("Springfield", nil), ("Paris", helsinki), ("Hel", nil)] as [(String, Coordinate?)] {
            let found = try search(text, near: near, explain: true)
            let terms = found.compactMap(\.explanation)
            #expect(terms.count == found.count && !terms.isEmpty)
            for (result, e) in zip(found, terms) {
                #expect(abs(e.importance + e.nameTerm + (e.distanceTerm ?? 0) - e.score) < 0.001, "\(text): \(result.label)")
                #expect(e.population == result.place.population)
                #expect((e.distanceMeters == nil) == (near == nil) && e.distanceMeters == result.distanceMeters)
            }
            // Tier first, then score: the list is in the order its explanations give.
            let keys = terms.map { ($0.tier, $0.score) }
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0.0 > $1.0 || ($0.0 == $1.0 && $0.1 >= $1.1) }, "\(text)")
        }
        // Near Helsinki, Paris pays for its 1,900 km, and a shop called Paris in Helsinki for its word match.
        let paris = try search("Paris", near: helsinki, explain: true)
        let france = try #require(paris.first { $0.place.countryCode == "FR" }?.explanation)
        #expect(france.distanceTerm.map { $0 < -10 } == true && france.nameTerm == 0)
        let shop = try #require(paris.first { $0.place.id.hasPrefix("osm:") }?.explanation)
        #expect(shop.distanceTerm.map { $0 > -1 } == true && shop.nameKind == .innerWord && shop.nameTerm == -8 && shop.rowKind == .venue)
    }

    @Test("no explanation unless asked")
    func onlyWhenAsked() throws {
        #expect(try search("Hel").allSatisfy { $0.explanation == nil })
        #expect(try suggest("Hel").allSatisfy { $0.explanation == nil })
        #expect(try suggest("Hel", explain: true).allSatisfy { $0.explanation?.match == .prefix || $0.explanation?.match == .exact })
    }

    @Test("a typo's edit reads as a person would say it", arguments: [
        ("helsinky", "helsinki", false, "'y' for 'i'"),
        ("helsinik", "helsinki", false, "swapped 'ki'"),
        ("hesinki", "helsinki", false, "missing 'l'"),
        ("helsinkii", "helsinki", false, "extra 'i'"),
        ("hlesinkki", "helsinki", false, "swapped 'el', extra 'k'"),
        ("tamperr", "tampere", true, "'r' for 'e'"),
        ("stokh", "stockholm", true, "missing 'c'"),
        ("zurlch", "zurich", false, "'l' for 'i'"),
    ])
    func typoEdit(typed: String, matched: String, asPrefix: Bool, edit: String) {
        #expect(TypoEdit.describe(typed: Array(typed.utf8), matched: Array(matched.utf8), asPrefix: asPrefix) == edit)
    }
}
