import PindropCore

/// How typed text differs from the name it was matched to, as a person reads it.
extension TypoEdit {
    /// The edits from `matched` to `typed` (folded UTF-8), in reading order: "'y' for 'i'" (typed y where the name
    /// has i), "missing 'l'", "extra 'x'", "swapped 'ki'" (the name's two letters), joined by ", ". With `asPrefix`,
    /// against the start of `matched` the text is closest to (the longest of equals), as a suggestion matches.
    static func describe(typed: [UInt8], matched: [UInt8], asPrefix: Bool) -> String {
        let a = Array(String(decoding: typed, as: UTF8.self).unicodeScalars)
        let b = Array(String(decoding: matched, as: UTF8.self).unicodeScalars)
        let n = a.count, m = b.count
        // Optimal string alignment: d[i][j] edits between a[..<i] and b[..<j], as the index's walk counts them.
        var d = (0...n).map { i in (0...m).map { j in i == 0 ? j : (j == 0 ? i : 0) } }
        for i in stride(from: 1, through: n, by: 1) {
            for j in stride(from: 1, through: m, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        var j = m
        if asPrefix { for k in stride(from: m, through: 0, by: -1) where d[n][k] < d[n][j] { j = k } }
        // Back from the end, naming each edit the distance took.
        var i = n, edits: [String] = []
        while i > 0 || j > 0 {
            if i > 0, j > 0, a[i - 1] == b[j - 1], d[i][j] == d[i - 1][j - 1] {
                i -= 1; j -= 1
            } else if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1], d[i][j] == d[i - 2][j - 2] + 1 {
                edits.append("swapped '\(b[j - 2])\(b[j - 1])'"); i -= 2; j -= 2
            } else if i > 0, j > 0, d[i][j] == d[i - 1][j - 1] + 1 {
                edits.append("'\(a[i - 1])' for '\(b[j - 1])'"); i -= 1; j -= 1
            } else if j > 0, d[i][j] == d[i][j - 1] + 1 {
                edits.append("missing '\(b[j - 1])'"); j -= 1
            } else {
                edits.append("extra '\(a[i - 1])'"); i -= 1
            }
        }
        return edits.reversed().joined(separator: ", ")
    }
}
