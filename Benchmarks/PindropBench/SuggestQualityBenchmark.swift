import Foundation
import PindropCore
import PindropImport
import PindropIndex

/// `pindrop-bench suggest-quality`: how related the suggestions look, judged against the GeoNames rows by brute
/// force. For 3-5 letter prefixes of real towns' names (population ≥ 1,000, a fixed sample), in the web app's
/// list of 8: (a) lists where a place matched only through an alternate name that is not the whole text ranks
/// above, or pushes out, a real town whose own name starts with the text; (b) lists where 3 or more entries are
/// sections of one listed city (named after it, within 30 km, smaller), also over prefixes of every such city;
/// (c) results matched through an alternate name whose label does not show the typed text.
func runSuggestQualityBenchmark(arguments: [String]) async throws {
    let sampleSize = Int(option("--sample", in: arguments) ?? "") ?? 1500
    let (index, records, work) = try await builtIndexAndRecords(arguments)
    defer { try? FileManager.default.removeItem(atPath: work) }
    let judge = SuggestionJudge(records: records)
    let limit = 8

    // (a) and (c) over prefixes of a fixed sample of real towns.
    var rng = SeededRandom(state: 2017)
    let towns = records.indices.filter { records[$0].population >= SuggestionJudge.realTown }
    var prefixes: [String] = []
    var seen = Set<String>()
    for _ in 0..<sampleSize {
        let name = judge.folded[towns[Int.random(in: 0..<towns.count, using: &rng)]].name
        for length in 3...5 where name.count > length {
            let p = String(name.prefix(length))
            if p.last != " ", seen.insert(p).inserted { prefixes.append(p) }
        }
    }
    var lists: [(String, [PlaceResult])] = []
    for p in prefixes { lists.append((p, try index.suggest(SuggestRequest(text: p, limit: limit, minChars: 1)))) }
    var beaten = 0, beatenBySpelling = 0, alternates = 0, hidden = 0, crowded = 0
    for (p, results) in lists {
        let verdict = judge.judge(p, results, full: results.count == limit)
        if verdict.beaten { beaten += 1 }
        if verdict.beaten && verdict.onlyBySpellings { beatenBySpelling += 1 }
        alternates += verdict.alternates; hidden += verdict.hidden
        if verdict.crowded { crowded += 1 }
    }
    func percent(_ n: Int, _ d: Int) -> String { String(format: "%.1f%% (%d of %d)", 100 * Double(n) / Double(max(d, 1)), n, d) }
    say("suggest quality over \(lists.count) prefixes (3-5 letters) of \(sampleSize) sampled towns of ≥ \(SuggestionJudge.realTown) people, lists of \(limit):")
    say("  (a) an alternate-name match beats a real town's own name: \(percent(beaten, lists.count)); of them only by spellings of the place's own name (Moskva, München): \(beatenBySpelling)")
    say("  (b) lists with ≥ 3 sections of one listed city: \(percent(crowded, lists.count))")
    say("  (c) alternate-name matches whose label does not show the typed text: \(percent(hidden, alternates))")

    // (b) over the cities that have sections.
    let cities = judge.citiesWithSections()
    var cityLists = 0, cityCrowded = 0
    for c in cities {
        let name = judge.folded[c].name
        for p in Set((3...5).filter { name.count > $0 }.map { String(name.prefix($0)) } + [name]) where p.last != " " {
            cityLists += 1
            let results = try index.suggest(SuggestRequest(text: p, limit: limit, minChars: 1))
            if judge.judge(p, results, full: false).crowded { cityCrowded += 1 }
        }
    }
    say("  (b) over prefixes and names of the \(cities.count) cities with ≥ 3 sections: \(percent(cityCrowded, cityLists))")

    // The examples.
    say("\nexamples (top \(limit)):")
    for text in ["Hel", "new y", "Ber", "zur", "Helsingfors", "Münch", "Mosk", "Wien", "zürich kreis", "kreis 3"] {
        let results = try index.suggest(SuggestRequest(text: text, limit: limit, minChars: 1))
        say("  \(text): " + results.map(SuggestionJudge.label).joined(separator: " | "))
    }
    let timing = try measure(prefixes) { _ = try index.suggest(SuggestRequest(text: $0, limit: limit, minChars: 1)) as [PlaceResult] }
    row("suggest (these prefixes)", timing)
}

/// The brute-force truth about suggestion lists, from the GeoNames rows.
struct SuggestionJudge {
    /// A real town has at least this many people.
    static let realTown = 1000
    let records: [GeoNamesRecord]
    /// Each record's folded name, ASCII name and alternate names.
    let folded: [(name: String, ascii: String, alternates: [String])]
    let row: [Int: Int]
    /// Real towns' folded own names (name and ASCII name), sorted, with their row.
    let townKeys: [(key: String, row: Int)]

    init(records: [GeoNamesRecord]) {
        self.records = records
        let folded = records.map { (name: TextFolding.fold($0.name), ascii: TextFolding.fold($0.asciiName),
                                    alternates: $0.alternateNames.map { TextFolding.fold($0) }) }
        self.folded = folded
        row = Dictionary(records.enumerated().map { ($1.geonameID, $0) }, uniquingKeysWith: { a, _ in a })
        townKeys = records.indices.filter { records[$0].population >= Self.realTown }
            .flatMap { [(key: folded[$0].name, row: $0), (key: folded[$0].ascii, row: $0)] }.sorted { $0.key < $1.key }
    }

    /// How a result reads in a list.
    static func label(_ r: PlaceResult) -> String { r.matchedName.map { "\($0) → \(r.place.name)" } ?? r.place.name }

    /// Whether a folded name, or one of its later words, starts with `p`.
    static func shows(_ name: String, _ p: String) -> Bool {
        let words = name.split(separator: " ")
        return words.indices.contains { words[$0...].joined(separator: " ").hasPrefix(p) }
    }

    /// Real towns whose own name starts with `p`.
    func towns(startingWith p: String) -> Set<Int> {
        var lo = 0, hi = townKeys.count
        while lo < hi { let m = (lo + hi) / 2; if townKeys[m].key < p { lo = m + 1 } else { hi = m } }
        var out = Set<Int>()
        while lo < townKeys.count, townKeys[lo].key.hasPrefix(p) { out.insert(townKeys[lo].row); lo += 1 }
        return out
    }

    struct Verdict { var beaten = false, onlyBySpellings = true, crowded = false, alternates = 0, hidden = 0 }

    func judge(_ p: String, _ results: [PlaceResult], full: Bool) -> Verdict {
        var v = Verdict()
        let rows = results.compactMap { r in Int(r.place.id.dropFirst("geonames:".count)).flatMap { row[$0] } }
        let own = rows.map { Self.shows(folded[$0].name, p) || Self.shows(folded[$0].ascii, p) }
        let exactAlternate = rows.map { folded[$0].alternates.contains(p) }
        let wanted = towns(startingWith: p)
        let shownTowns = Set(rows.filter { wanted.contains($0) })
        for (i, r) in rows.enumerated() where !own[i] {
            v.alternates += 1
            if !TextFolding.fold(Self.label(results[i])).contains(p) { v.hidden += 1 }
            guard !exactAlternate[i] else { continue }
            let townBelow = rows[(i + 1)...].contains { wanted.contains($0) }
            if townBelow || (full && wanted.count > shownTowns.count) {
                v.beaten = true
                let spelling = folded[r].alternates.contains { $0.hasPrefix(p) && $0.prefix(3) == folded[r].name.prefix(3) }
                if !spelling { v.onlyBySpellings = false }
            }
        }
        v.crowded = rows.contains { c in rows.filter { isSection($0, of: c) }.count >= 3 }
        return v
    }

    /// Named after `city` ("Zürich (Kreis 3)", "Paris 15 Vaugirard"), within 30 km of it and smaller.
    func isSection(_ r: Int, of city: Int) -> Bool {
        let a = records[r], c = records[city]
        return r != city && folded[r].name.hasPrefix(folded[city].name + " ") && a.population < c.population
            && Coordinate(latitude: a.latitude, longitude: a.longitude).distance(to: Coordinate(latitude: c.latitude, longitude: c.longitude)) < 30_000
    }

    /// Places with at least 3 sections.
    func citiesWithSections() -> [Int] {
        let sorted = records.indices.sorted { folded[$0].name < folded[$1].name }
        var out: [Int] = []
        for (k, c) in sorted.enumerated() {
            let stem = folded[c].name + " "
            var sections = 0, j = k + 1
            while j < sorted.count, folded[sorted[j]].name <= stem + "\u{10FFFF}" {
                if isSection(sorted[j], of: c) { sections += 1 }
                j += 1
            }
            if sections >= 3 { out.append(c) }
        }
        return out
    }
}
