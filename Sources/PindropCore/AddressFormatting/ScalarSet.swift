/// A character class: ranges of scalars and named classes, or everything else when negated.
struct ScalarSet: Sendable {
    var ranges: [ClosedRange<UInt32>] = []
    var classes: [ScalarClass] = []
    var negated = false

    func contains(_ c: Unicode.Scalar) -> Bool {
        let inside = ranges.contains { $0.contains(c.value) } || classes.contains { $0.contains(c) }
        return inside != negated
    }
}

/// Perl's `\d \w \s` and their negations, inside a class or alone.
enum ScalarClass: Sendable {
    case digit, word, space, notDigit, notWord, notSpace

    /// The class `\` + `letter` names, or nil.
    init?(escape letter: Unicode.Scalar) {
        switch letter {
        case "d": self = .digit
        case "w": self = .word
        case "s": self = .space
        case "D": self = .notDigit
        case "W": self = .notWord
        case "S": self = .notSpace
        default: return nil
        }
    }

    func contains(_ c: Unicode.Scalar) -> Bool {
        switch self {
        case .digit: TextScalars.isDigit(c)
        case .word: TextScalars.isWord(c)
        case .space: TextScalars.isSpace(c)
        case .notDigit: !TextScalars.isDigit(c)
        case .notWord: !TextScalars.isWord(c)
        case .notSpace: !TextScalars.isSpace(c)
        }
    }
}
