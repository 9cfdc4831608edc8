import Foundation
import PindropCore
import PindropImport
import PindropIndex

/// `pindrop-bench typos [--data DIR] [--per-kind N] [--seed S] [--misses]`: how often a one-edit typo of a
/// real town's name finds that town first (and in the top 5), per kind of slip, in search and in suggest; then
/// the kept query set (queries.tsv) to show nothing else was lost. `--misses` lists every search miss.
///
/// The typo set (fixed seed, `--seed`, `--per-kind` queries of each kind): towns of ≥ 1,000 people
/// (`SuggestionJudge.realTown`) drawn uniformly, whose folded name is plain a-z letters and spaces, ≥ 5
/// letters, and which are the most populous place with that folded name as any of its names (ties skipped), as
/// scripts/make-query-set.py decides expectations. One edit of each kind — two letters swapped, a letter
/// doubled, a letter dropped, a letter replaced by a QWERTY neighbour — at a random letter after the first
/// (never a space). Expected answer: that town. Dropped, and counted: a typo that is itself a name of any
/// place, its own alternate names included (it is no longer a typo), and one that is also one likely slip (`TypoEdit.isLikelySlip`) from
/// another name of a place at least as populous (both readings are as plausible, and population then picks the
/// other: no rule a person would apply decides for the town the typo was made from).
/// Towns are drawn uniformly, not by size, so this set rewards edit likelihood over population; the typo
/// category of queries.tsv (arbitrary edits of cities of ≥ 50,000) pulls the other way.
func runTypoBenchmark(arguments: [String]) async throws {
    let perKind = Int(option("--per-kind", in: arguments) ?? "") ?? 500
    let seed = UInt64(option("--seed", in: arguments) ?? "") ?? 18
    let listMisses = arguments.contains("--misses")
    let (index, records, work) = try await builtIndexAndRecords(arguments)
    defer { try? FileManager.default.removeItem(atPath: work) }
    let set = TypoSet(records: records, perKind: perKind, seed: seed)

    say("typo set: \(perKind) queries per kind from towns of ≥ \(SuggestionJudge.realTown) people, seed \(seed); dropped \(set.droppedAsName) typos that are another place's name, \(set.droppedAsAmbiguous) that are as likely a slip of a place at least as big")
    say("  kind            search top-1  top-5   suggest top-1  top-5")
    var all = (n: 0, search1: 0, search5: 0, suggest1: 0, suggest5: 0)
    var failures: [String] = []
    for kind in TypoSet.kinds {
        var s = (n: 0, search1: 0, search5: 0, suggest1: 0, suggest5: 0)
        var misses = 0
        for q in set.queries where q.kind == kind {
            let expected = "geonames:\(q.expected)"
            let searched = try index.search(SearchRequest(text: q.text, limit: 5)).map(\.place.id)
            let suggested = try index.suggest(SuggestRequest(text: q.text, limit: 5, minChars: 1)).map(\.place.id)
            s.n += 1
            if searched.first == expected { s.search1 += 1 } else if misses < (listMisses ? .max : 3) {
                misses += 1
                failures.append("\(q.text) (\(records[q.row].name), \(records[q.row].population)) → "
                                + (searched.first.flatMap { index.place(id: $0) }.map { "\($0.name), \($0.population)" } ?? "nothing"))
            }
            if searched.contains(expected) { s.search5 += 1 }
            if suggested.first == expected { s.suggest1 += 1 }
            if suggested.contains(expected) { s.suggest5 += 1 }
        }
        all = (all.n + s.n, all.search1 + s.search1, all.search5 + s.search5, all.suggest1 + s.suggest1, all.suggest5 + s.suggest5)
        typoLine("\(kind)", s)
    }
    typoLine("all", all)
    say("  search misses (typed (meant, people) → first answer, people)\(listMisses ? "" : ", the first of each kind"): " + failures.joined(separator: "; "))
    try reportQueryAccuracy(index: index, baseline: nil)
}

private func typoLine(_ name: String, _ s: (n: Int, search1: Int, search5: Int, suggest1: Int, suggest5: Int)) {
    func p(_ k: Int) -> Double { 100 * Double(k) / Double(max(s.n, 1)) }
    say("  " + name.padding(toLength: 14, withPad: " ", startingAt: 0) + String(format: "%6.1f%%      %6.1f%%  %6.1f%%         %6.1f%%   n=%d",
               p(s.search1), p(s.search5), p(s.suggest1), p(s.suggest5), s.n))
}

/// One-edit typos of real towns' names with the town each was made from (see `runTypoBenchmark`).
struct TypoSet {
    /// The kinds of slip the set is made of.
    static let kinds: [TypoEdit] = [.transposed, .doubled, .dropped, .neighbourKey]

    struct Query { var text: String; var kind: TypoEdit; var row: Int; var expected: Int }
    var queries: [Query] = []
    var droppedAsName = 0, droppedAsAmbiguous = 0

    init(records: [GeoNamesRecord], perKind: Int, seed: UInt64) {
        // Every folded name (own and alternate) → the most populous place with it, and whether another ties.
        var biggest: [String: (row: Int, tied: Bool)] = [:]
        for (r, record) in records.enumerated() {
            let keys = Set(([record.name, record.asciiName] + record.alternateNames).map { TextFolding.fold($0) })
            for key in keys where !key.isEmpty {
                if let b = biggest[key], records[b.row].population >= record.population {
                    if records[b.row].population == record.population { biggest[key]!.tied = true }
                } else {
                    biggest[key] = (r, false)
                }
            }
        }
        let plain = Set("abcdefghijklmnopqrstuvwxyz ".utf8)
        let towns = records.indices.filter { r in
            let key = TextFolding.fold(records[r].name)
            guard records[r].population >= SuggestionJudge.realTown, key.utf8.allSatisfy(plain.contains),
                  key.utf8.filter({ $0 != 0x20 }).count >= 5, let b = biggest[key] else { return false }
            return b.row == r && !b.tied
        }
        var rng = SeededRandom(state: seed)
        for kind in Self.kinds {
            var made = 0
            while made < perKind {
                let r = towns[Int.random(in: 0..<towns.count, using: &rng)]
                let name = Array(TextFolding.fold(records[r].name).utf8)
                guard let typed = Self.slip(kind, name, &rng) else { continue }
                if biggest[String(decoding: typed, as: UTF8.self)] != nil { droppedAsName += 1; continue }
                // Another place at least as big, one likely slip away from what was typed.
                let rivals = Self.oneEditVariants(typed).compactMap { biggest[String(decoding: $0, as: UTF8.self)] }
                    .filter { $0.row != r && records[$0.row].population >= records[r].population }
                let likely = rivals.contains { rival in
                    [records[rival.row].name, records[rival.row].asciiName].map { Array(TextFolding.fold($0).utf8) }.contains {
                        TypoEdit.between(typed: typed, name: $0)?.isLikelySlip == true
                    } || records[rival.row].alternateNames.contains {
                        TypoEdit.between(typed: typed, name: Array(TextFolding.fold($0).utf8))?.isLikelySlip == true
                    }
                }
                if likely { droppedAsAmbiguous += 1; continue }
                var text = String(decoding: typed, as: UTF8.self)
                text = text.prefix(1).uppercased() + text.dropFirst()
                queries.append(Query(text: text, kind: kind, row: r, expected: records[r].geonameID))
                made += 1
            }
        }
    }

    /// One slip of `kind` at a random letter after the first; nil when the name has no place for it.
    static func slip(_ kind: TypoEdit, _ name: [UInt8], _ rng: inout SeededRandom) -> [UInt8]? {
        var t = name
        let i = Int.random(in: 1..<name.count, using: &rng)
        guard name[i] != 0x20 else { return nil }
        switch kind {
        case .transposed:
            guard i + 1 < name.count, name[i + 1] != 0x20, name[i + 1] != name[i] else { return nil }
            t.swapAt(i, i + 1)
        case .doubled: t.insert(name[i], at: i)
        case .dropped:
            t.remove(at: i)
            if t.count > i, t[i] == 0x20, t[i - 1] == 0x20 { return nil }
        case .neighbourKey: t[i] = QWERTY.neighbours(of: name[i]).randomElement(using: &rng)!
        default: return nil
        }
        return TypoEdit.between(typed: t, name: name) == kind ? t : nil
    }

    /// Every text one edit (swap, deletion, a-z substitution or insertion) from `t`.
    static func oneEditVariants(_ t: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        let letters = Array("abcdefghijklmnopqrstuvwxyz".utf8)
        for i in 0...t.count {
            for c in letters { var v = t; v.insert(c, at: i); out.append(v) }
            guard i < t.count else { break }
            var d = t; d.remove(at: i); out.append(d)
            for c in letters where c != t[i] { var v = t; v[i] = c; out.append(v) }
            if i + 1 < t.count, t[i] != t[i + 1] { var v = t; v.swapAt(i, i + 1); out.append(v) }
        }
        return out
    }
}
