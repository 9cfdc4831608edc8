/// Reads a pattern in Perl's syntax (the subset `TextPattern` names) into `PatternNode`s.
struct PatternParser {
    private let pattern: String
    private let scalars: [Unicode.Scalar]
    private var i = 0
    /// The character classes met, referred to by index.
    private(set) var sets: [ScalarSet] = []
    /// Capturing groups, numbered by their opening parenthesis as in Perl.
    private(set) var groupCount = 0

    init(_ pattern: String) {
        self.pattern = pattern
        scalars = Array(pattern.unicodeScalars)
    }

    mutating func parse() throws(PindropError) -> PatternNode {
        let node = try alternation()
        guard i == scalars.count else { throw failure("a ) without its (") }
        return node
    }

    private var next: Unicode.Scalar? { i < scalars.count ? scalars[i] : nil }

    private func failure(_ why: String) -> PindropError {
        .invalidInput("address rule pattern \"\(pattern)\": \(why)")
    }

    private mutating func alternation() throws(PindropError) -> PatternNode {
        var branches = [try sequence()]
        while next == "|" {
            i += 1
            branches.append(try sequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func sequence() throws(PindropError) -> PatternNode {
        var items: [PatternNode] = []
        while let c = next, c != "|", c != ")" { items.append(try quantified()) }
        return .sequence(items)
    }

    private mutating func quantified() throws(PindropError) -> PatternNode {
        let item = try atom()
        guard let (min, max) = quantifier() else { return item }
        var greedy = true
        if next == "?" { i += 1; greedy = false }
        return .repeated(item, min: min, max: max, greedy: greedy)
    }

    /// `?`, `*`, `+`, `{n}`, `{n,}` or `{n,m}` when one follows; a `{` that starts none is a literal, as in Perl.
    private mutating func quantifier() -> (Int, Int?)? {
        switch next {
        case "?": i += 1; return (0, 1)
        case "*": i += 1; return (0, nil)
        case "+": i += 1; return (1, nil)
        case "{":
            var j = i + 1
            func number() -> Int? {
                var value: Int?
                while j < scalars.count, let digit = Int(String(scalars[j])), scalars[j].isASCII {
                    value = (value ?? 0) * 10 + digit
                    j += 1
                }
                return value
            }
            guard let min = number() else { return nil }
            var max: Int? = min
            if j < scalars.count, scalars[j] == "," {
                j += 1
                max = number()
            }
            guard j < scalars.count, scalars[j] == "}", max.map({ $0 >= min }) ?? true else { return nil }
            i = j + 1
            return (min, max)
        default: return nil
        }
    }

    private mutating func atom() throws(PindropError) -> PatternNode {
        let c = scalars[i]
        i += 1
        switch c {
        case "(":
            var capture: Int?
            if i + 1 < scalars.count, scalars[i] == "?", scalars[i + 1] == ":" {
                i += 2
            } else {
                groupCount += 1
                capture = groupCount
            }
            let inner = try alternation()
            guard next == ")" else { throw failure("a ( without its )") }
            i += 1
            return .group(inner, capture: capture)
        case "[": return .set(try characterClass())
        case ".": return .any
        case "^": return .textStart
        case "$": return .textEnd
        case "\\": return try escape()
        case "*", "+", "?": throw failure("\(c) repeats nothing")
        default: return .literal(c)
        }
    }

    private mutating func escape() throws(PindropError) -> PatternNode {
        guard let c = next else { throw failure("it ends in \\") }
        i += 1
        if let named = ScalarClass(escape: c) {
            sets.append(ScalarSet(classes: [named]))
            return .set(sets.count - 1)
        }
        switch c {
        case "b": return .wordBoundary
        case "n": return .literal("\n")
        case "t": return .literal("\t")
        default:
            guard !c.properties.isAlphabetic, !("0"..."9").contains(c) else { throw failure("\\\(c) is not supported") }
            return .literal(c)
        }
    }

    /// `[...]` after its `[`: characters, ranges (`A-Z`), `\d \w \s` and their negations, `^` first to negate.
    private mutating func characterClass() throws(PindropError) -> Int {
        var set = ScalarSet()
        if next == "^" { set.negated = true; i += 1 }
        while true {
            guard var c = next else { throw failure("a [ without its ]") }
            i += 1
            if c == "]" { break }
            if c == "\\" {
                guard let escaped = next else { throw failure("it ends in \\") }
                i += 1
                if let named = ScalarClass(escape: escaped) { set.classes.append(named); continue }
                c = escaped == "n" ? "\n" : escaped == "t" ? "\t" : escaped
            }
            if next == "-", i + 1 < scalars.count, scalars[i + 1] != "]" {
                let upper = scalars[i + 1]
                guard upper.value >= c.value else { throw failure("the range \(c)-\(upper) is backwards") }
                set.ranges.append(c.value...upper.value)
                i += 2
            } else {
                set.ranges.append(c.value...c.value)
            }
        }
        sets.append(set)
        return sets.count - 1
    }
}
