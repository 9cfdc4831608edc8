import Foundation
import PindropCore
import Testing
@testable import PindropIndex

/// Suggestions that look related: alternate names that only start like the text by chance rank below
/// places' own names, a city's sections fold under it, and a match through another name says which.
@Suite("Suggestions: related matches first, sections folded, the matched name shown")
struct SuggestRankingTests {
    func suggest(_ text: String, limit: Int = 8) throws -> [PlaceResult] {
        try SharedIndex.index.suggest(SuggestRequest(text: text, limit: limit, minChars: 1))
    }

    /// Whether the place's own name, or a later word of it, starts with the folded text.
    func ownNameStarts(_ r: PlaceResult, with text: String) -> Bool {
        let words = TextFolding.fold(r.place.name).split(separator: " ")
        return words.indices.contains { words[$0...].joined(separator: " ").hasPrefix(TextFolding.fold(text)) }
    }

    @Test("short text: places whose own name starts with it come first; others only after them, saying which name matched",
          arguments: ["Hel", "new y", "Ber", "zur", "Hels", "Mun"])
    func shortTextOwnNamesFirst(text: String) throws {
        let results = try suggest(text)
        #expect(results.count == 8)
        let own = results.map { ownNameStarts($0, with: text) }
        #expect(own == own.sorted { $0 && !$1 }, "\(text) → \(results.map(\.label))")
        for r in results where !ownNameStarts(r, with: text) {
            #expect(TextFolding.fold(r.matchedName ?? "").hasPrefix(TextFolding.fold(text)), "\(text) → \(r.label)")
        }
    }

    @Test("the issue's examples lead with the place meant")
    func examples() throws {
        #expect(try suggest("Hel").first?.place.name == "Helsinki")
        #expect(try suggest("new y").first?.place.name == "New York City")
        #expect(try suggest("Ber").first?.place.name == "Berlin")
        #expect(try suggest("zur").first?.place.name == "Zürich")
        #expect(try !suggest("Hel").contains { ["Aleppo", "Phoenix"].contains($0.place.name) })
        #expect(try !suggest("Ber").contains { ["Aleppo", "Beirut"].contains($0.place.name) })
        #expect(try suggest("new y").prefix(6).allSatisfy { $0.place.name != "Jakarta" })
    }

    @Test("whole alternate names stay strong, and say which name matched, as typed", arguments: [
        ("Helsingfors", "Helsinki", "Helsingfors"), ("München", "Munich", "München"), ("Munchen", "Munich", "Munchen"),
        ("Wien", "Vienna", "Wien"), ("Lutetia", "Paris", "Lutetia"), ("Москва", "Moscow", "Москва"),
    ])
    func alternateNames(text: String, place: String, matched: String) throws {
        let first = try #require(try suggest(text).first)
        #expect(first.place.name == place && first.matchedName == matched, "\(text) → \(first.label)")
        #expect(first.label.hasPrefix(matched + " → " + place))
        let search = try #require(try SharedIndex.index.search(SearchRequest(text: text)).first)
        #expect(search.place.name == place && search.matchedName == matched)
    }

    @Test("past five letters an alternate name counts again; the own name carries no matchedName")
    func longerText() throws {
        #expect(try suggest("Münch").first?.place.name != "Munich")
        #expect(try suggest("Münche").first.map { $0.place.name == "Munich" && $0.matchedName == "München" } == true)
        #expect(try suggest("Helsinki").first.map { $0.place.name == "Helsinki" && $0.matchedName == nil } == true)
    }

    @Test("a city's sections fold under it unless the text names them")
    func sections() throws {
        let zur = try suggest("zur")
        #expect(zur.first?.place.name == "Zürich")
        #expect(!zur.contains { $0.place.name.hasPrefix("Zürich (") }, "\(zur.map(\.label))")
        #expect(try !suggest("Zürich").contains { $0.place.name.hasPrefix("Zürich (") })
        #expect(try !suggest("pari").contains { $0.place.name.hasPrefix("Paris 1") })
        #expect(try suggest("zürich kreis").filter { $0.place.name.hasPrefix("Zürich (Kreis") }.count == 8)
        #expect(try suggest("kreis 3").contains { $0.place.name.hasPrefix("Zürich (Kreis 3)") })
        // Towns of their own that are named after a neighbour stay.
        #expect(try suggest("miami").contains { $0.place.name == "Miami Beach" })
        // Search lists everything.
        #expect(try SharedIndex.index.search(SearchRequest(text: "Zürich")).contains { $0.place.name.hasPrefix("Zürich (") })
    }

    @Test("what counts as a section: named after the city as sections are, smaller, within 30 km")
    func sectionNames() throws {
        let places = try SharedIndex.index.contents.places
        func slot(_ id: Int32) throws -> Int { try #require(places.index(ofGeonameID: id)) }
        let zurich = try slot(2657896), kreis3 = try slot(6295532), witikon = try slot(2657969)
        #expect(places.isSection(kreis3, of: zurich) && places.isSection(witikon, of: zurich))
        #expect(!places.isSection(witikon, of: kreis3), "\"Zürich (Kreis 7) / Witikon\" is in Kreis 7, not in Kreis 3")
        #expect(!places.isSection(zurich, of: kreis3) && !places.isSection(zurich, of: zurich))
        let byName = Dictionary((0..<places.geonamesCount).map { (places.name($0), $0) }, uniquingKeysWith: { a, b in
            places.population[a] >= places.population[b] ? a : b })
        for (section, city) in [("Paris 15 Vaugirard", "Paris"), ("Budapest XII. kerület", "Budapest"), ("Dübendorf / Birchlen", "Dübendorf")] {
            #expect(places.isSection(try #require(byName[section]), of: try #require(byName[city])), "\(section)")
        }
        #expect(places.isSection(try #require(byName["Ballarat North"]), of: try #require(byName["Ballarat"])))
        for (town, city) in [("Miami Beach", "Miami"), ("Chicago Heights", "Chicago"), ("Kowloon City", "Kowloon")] {
            #expect(!places.isSection(try #require(byName[town]), of: try #require(byName[city])), "\(town)")
        }
        // The check ranking makes once per row before asking about each city: true for every section above, false for
        // a name without a space inside it (no city's name and a space start it).
        for section in ["Paris 15 Vaugirard", "Budapest XII. kerület", "Dübendorf / Birchlen", "Ballarat North"] {
            #expect(places.couldBeSection(try #require(byName[section])), "\(section)")
        }
        #expect(places.couldBeSection(kreis3) && places.couldBeSection(witikon))
        let paris = try #require(byName["Paris"])
        #expect(!places.couldBeSection(zurich) && !places.couldBeSection(paris))
        // The mark shares the row's kind byte and leaves its kind as it is.
        #expect(places.rowKind(kreis3) == .geonames && places.geonamesCount == places.alternateStart.count - 1)
    }

    @Test("a GeoNames place's id is \"geonames:\" and its number, written out in full")
    func geonamesIDs() {
        for id: Int32 in [0, 7, 10, 2_988_507, 12_345_678, 999_999_999, .max, -1, -2_988_507, .min] {
            #expect(PlaceText.geonamesID(id).string == "geonames:\(id)")
        }
    }

    @Test("with own names first, entries come out in exact (tier, score) order, every alternate name after every own name")
    func ownNamesFirstOrder() {
        let n = 300
        var keys: [UInt8] = [], starts: [UInt32] = [], lengths: [UInt8] = []
        for i in 0..<n {
            let key = Array("k\(i % 37)".utf8)
            starts.append(UInt32(keys.count)); lengths.append(UInt8(key.count)); keys += key
        }
        let scores = (0..<n).map { Float(($0 * 7919) % 1000) / 40 }
        let kinds = (0..<n).map { UInt8($0 % 3 == 0 ? NameIndex.Kind.alternate.rawValue : NameIndex.Kind.primary.rawValue) }
        let index = NameIndex(keys: keys, starts: starts, lengths: lengths, places: (0..<n).map(Int32.init), kinds: kinds, scores: scores,
                              alternateAt: [UInt16](repeating: NameIndex.notAtKnownOffset, count: n))
        let ranges = [NameIndex.TieredRange(range: 0..<150, tier: 2, ownNamesFirst: true), .init(range: 150..<n, tier: 1, ownNamesFirst: true)]
        var visited: [Int] = []
        index.forEachBest(ranges) { e, tier, score in
            #expect(tier == (e < 150 ? 2 : 1) && score == index.score(e, ownNamesFirst: true))
            visited.append(e); return true
        }
        let key = { (e: Int) in Float(e < 150 ? 2 : 1) * 1000 + index.score(e, ownNamesFirst: true) }
        #expect(visited.count == n && Set(visited).count == n)
        #expect(visited.map(key) == (0..<n).map(key).sorted(by: >))
        let alternate = { (e: Int) in index.entryKind[e] == NameIndex.Kind.alternate.rawValue }
        let tier2 = visited.filter { $0 < 150 }.map(alternate)
        #expect(tier2 == tier2.sorted { !$0 && $1 } && tier2.contains(true) && tier2.contains(false))
        // Without it, the plain order by score.
        var plain: [Int] = []
        index.forEachBest([.init(range: 0..<n, tier: 0)]) { e, _, _ in plain.append(e); return true }
        #expect(plain.map { index.entryScore[$0] } == index.entryScore.sorted(by: >))
    }

    @Test("each alternate-name entry knows where its name is as imported: the first of its place's names that folds to it, and whether another follows")
    func alternateOffsets() throws {
        let index = try SharedIndex.index
        let names = index.contents.names.geonames, places = index.contents.places
        var checked = 0, spellings = 0
        for e in stride(from: 0, to: names.count, by: 31) where names.entryKind[e] == NameIndex.Kind.alternate.rawValue
            && Int(names.entryPlace[e]) < places.geonamesCount {
            let p = Int(names.entryPlace[e]), start = Int(names.keyStart[e])
            let key = Array(names.keyBytes[start..<(start + Int(names.keyLength[e]))])
            let all = Array(places.alternateBytes[Int(places.alternateStart[p])..<Int(places.alternateStart[p + 1])])
            // The names before the offset, and the one at it, as imported.
            let at = Int(names.alternateAt[e] & ~NameIndex.otherSpellings)
            try #require(at < all.count, "entry \(e): offset \(at) past \(all.count) bytes")
            let before = all[..<at].split(separator: 0x1F), name = all[at...].prefix { $0 != 0x1F }
            let after = all[(at + name.count)...].split(separator: 0x1F)
            let foldsToKey = { (n: ArraySlice<UInt8>) in Array(TextFolding.fold(String(decoding: n, as: UTF8.self)).utf8) == key }
            #expect(foldsToKey(name))
            #expect(!before.contains(where: foldsToKey))
            // Flagged exactly when the answer must choose among spellings ("München", "Munchen").
            let flagged = names.alternateAt[e] & NameIndex.otherSpellings != 0
            #expect(flagged == after.contains(where: foldsToKey), "entry \(e) of \(places.name(p))")
            checked += 1
            spellings += flagged ? 1 : 0
        }
        #expect(checked > 1_000 && spellings > 10)
    }
}
