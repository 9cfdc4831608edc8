import PindropCore

/// Why a candidate ranked where it did, and which of its names it matched, as written (`--explain`).
struct MatchExplainer {
    let contents: IndexContents

    /// Why candidate `c`, found for the folded `key` in `mode`, ranked where it did: the terms the ranking kept on it.
    func explanation(_ c: Candidate, key: [UInt8], mode: Candidate.Mode, typed: String, distanceMeters: Double?) -> MatchExplanation {
        let matched = Array(contents.names.key(c.entry))
        let match: MatchExplanation.Match = isTypo(c, key: key) ? .typo : (matched == key ? .exact : .prefix)
        let nameKind: MatchExplanation.NameKind = switch NameIndex.Kind(rawValue: contents.names.kind(c.entry)) {
        case .alternate: .alternate
        case .innerWord: .innerWord
        default: .name
        }
        let row = contents.places.rowKind(c.row)
        return MatchExplanation(
            match: match, nameKind: nameKind, text: String(decoding: key, as: UTF8.self), matchedName: writtenName(c, typed: typed),
            edit: match == .typo ? TypoEdit.describe(typed: key, matched: matched, asPrefix: mode == .suggest) : nil,
            rowKind: row.placeKind, population: Int(contents.places.population[c.row]), importance: Double(c.importance),
            kindBonus: Double(row.bonus), nameTerm: Double(c.nameTerm), distanceMeters: distanceMeters,
            distanceTerm: distanceMeters == nil ? nil : Double(c.distanceTerm), tier: c.tier, score: Double(c.score))
    }

    /// Whether candidate `c` matched `key` only through a typo: a typo range's, or a whole name one likely slip
    /// away that search ranks among the prefixes ("Wawr" → Wawer).
    func isTypo(_ c: Candidate, key: [UInt8]) -> Bool {
        guard c.tier >= Ranking.prefixTier else { return true }
        // Read where the key lies (every answer asks this of its first result): a copy of it costs an array.
        return !contents.names.key(c.entry).starts(with: key)
    }

    /// The name a candidate's entry is, as written: the place's own name, the alternate name as imported, or the
    /// later words of its name for an inner word ("York" of "New York"); the folded key when none folds to it.
    func writtenName(_ c: Candidate, typed: String) -> String {
        let key = contents.names.key(c.entry), name = contents.places.name(c.row)
        switch NameIndex.Kind(rawValue: contents.names.kind(c.entry)) {
        case .alternate:
            return contents.places.alternate(c.row, at: contents.names.alternateAt(c.entry), foldedAs: key, typed: typed)
                ?? String(decoding: key, as: UTF8.self)
        case .innerWord:
            var i = name.startIndex
            while let space = name[i...].firstIndex(where: { !$0.isLetter && !$0.isNumber }) {
                i = name.index(after: space)
                if TextFolding.fold(name[i...]).utf8.elementsEqual(key) { return String(name[i...]) }
            }
            return String(decoding: key, as: UTF8.self)
        default:
            return name
        }
    }
}
