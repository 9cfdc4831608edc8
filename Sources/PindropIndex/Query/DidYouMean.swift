import PindropCore

/// "Did you mean": the text the user probably meant, when what they typed matched only through a typo or matched
/// only weakly while a much bigger place is one edit away.
struct DidYouMean {
    let contents: IndexContents
    let explainer: MatchExplainer

    init(contents: IndexContents) {
        self.contents = contents
        explainer = MatchExplainer(contents: contents)
    }

    /// The text the user probably meant, or nil. When `found` are typo matches (the text matched nothing as typed),
    /// the first one's name as written. When they are as-typed matches of text of 5+ letters whose best is weak
    /// (`Ranking.weakMatchScore`), the own name of the best place one edit away (`CorrectionForms`), if it scores
    /// `Ranking.weakMatchGap` more ("Warsow" → "Warsaw"). The text after the first comma is kept: "Helsinik, Finland"
    /// → "Helsinki, Finland".
    func suggestion(_ found: [Candidate], key: [UInt8], text: String, accept: (Int32) -> Bool) -> String? {
        guard let first = found.first else { return nil }
        // Found by its byte (a comma is one): a search by Characters costs more than the rest of this check.
        var rest: String { text.utf8.firstIndex(of: UInt8(ascii: ",")).map { String(text[$0...]) } ?? "" }
        if explainer.isTypo(first, key: key) { return explainer.writtenName(first, typed: text) + rest }
        // Nearness does not make a match strong: compare what the names alone are worth.
        let best = found.reduce(-Float.infinity) { max($0, $1.score - $1.distanceTerm) }
        guard best < Ranking.weakMatchScore, QueryReadings.letterCount(key) >= 5 else { return nil }
        return correction(of: key, beating: best, accept: accept).map { contents.places.name($0) + rest }
    }

    /// The row of the biggest place one edit from `key` scoring `Ranking.weakMatchGap` more than `best`.
    private func correction(of key: [UInt8], beating best: Float, accept: (Int32) -> Bool) -> Int? {
        let forms = contents.corrections
        var better: (row: Int, score: Float)?
        // Every form's run asked for before any is read: the table is megabytes, so each is a cache miss, and
        // misses asked for together are waited for together.
        let hashes = CorrectionForms.deletionHashes(key)
        for hash in hashes { forms.prefetchDirectory(hash) }
        for hash in hashes { forms.prefetchRun(hash) }
        for hash in hashes {
            for i in forms.run(of: hash) {
                let row = Int(forms.slots[i]), score = contents.places.importance(row)
                guard score >= best + Ranking.weakMatchGap, score > better?.score ?? -.infinity, accept(Int32(row)),
                      TypoEdit.between(typed: key, name: Array(TextFolding.fold(contents.places.name(row)).utf8)) != nil else { continue }
                better = (row, score)
            }
        }
        return better?.row
    }
}
