/// Tidying a written address, as OpenCage's formatter does after the template: no empty lines, no white space at
/// line ends or doubled, no comma before a line end or after another comma, no line or comma-separated part twice
/// (except "New York", a city in a state of that name). Works on UTF-8 bytes in place; each step is one of the
/// reference's substitutions, in its order, as a loop that copies down (every step shortens or keeps the text).
enum AddressText {
    static let comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")

    /// Perl's `\h` in ASCII: space and tab.
    @inline(__always) static func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
    /// Perl's `\s` in ASCII: space, tab, newline, vertical tab, form feed, carriage return.
    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09...0x0D).contains(b) }

    /// The reference's `_clean`: the steps below, then each line's parts de-duplicated; ends with a newline.
    static func clean(_ text: inout [UInt8]) {
        if text.contains(UInt8(ascii: "&")) { rewrite(&text, apostropheEntity) }
        while let last = text.last, isSpace(last) || last == comma || last == UInt8(ascii: "}") { text.removeLast() }
        var lead = 0
        while lead < text.count, isSpace(text[lead]) || text[lead] == comma { lead += 1 }
        text.removeFirst(lead)
        if text.starts(with: [UInt8(ascii: "-"), space]) { text.removeFirst(2) }
        let commas = text.contains(comma)
        if commas {
            rewrite(&text, commaSpaceComma)
            rewrite(&text, blanksAroundComma)
        }
        rewrite(&text, blankRun)
        rewrite(&text) { t, i in isBlank(t[i]) && i + 1 < t.count && t[i + 1] == newline ? (1, .nothing) : nil }
        if commas {
            rewrite(&text) { t, i in t[i] == newline && i + 1 < t.count && t[i + 1] == comma ? (2, .one(newline)) : nil }
            rewrite(&text, commaRun)
            rewrite(&text) { t, i in t[i] == comma && i + 1 < t.count && t[i + 1] == newline ? (1, .nothing) : nil }
        }
        rewrite(&text) { t, i in run(after: newline, of: isBlank, in: t, at: i) }
        rewrite(&text) { t, i in run(after: newline, of: { $0 == newline }, in: t, at: i) }
        text = distinctLines(text)
        while let last = text.last, isSpace(last) { text.removeLast() }
        lead = 0
        while lead < text.count, isSpace(text[lead]) { lead += 1 }
        text.removeFirst(lead)
        text.append(newline)
    }

    /// What a step writes in place of what it takes: never more bytes than it takes.
    enum Written { case nothing, one(UInt8), two(UInt8, UInt8) }

    /// A step: at byte `i`, nil to keep the byte, or how many bytes to take out and what to write instead. It reads
    /// only from `i` on (what lies before is already rewritten).
    typealias Step = (_ text: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (taken: Int, written: Written)?

    /// Applies a step left to right, without overlaps, as `s///g` does, copying down in place.
    @inline(__always)
    static func rewrite(_ text: inout [UInt8], _ step: Step) {
        let count = text.count
        let kept = text.withUnsafeMutableBufferPointer { t in
            var out = 0, i = 0
            while i < count {
                guard let (taken, written) = step(t, i) else {
                    t[out] = t[i]
                    out += 1
                    i += 1
                    continue
                }
                switch written {
                case .nothing: break
                case .one(let a): t[out] = a; out += 1
                case .two(let a, let b): t[out] = a; t[out + 1] = b; out += 2
                }
                i += taken
            }
            return out
        }
        if kept < count { text.removeLast(count - kept) }
    }

    /// `s/\n\h+/\n/g` and `s/\n\n+/\n/g`: `first` followed by at least one byte of `run`, as `first` alone.
    @inline(__always)
    static func run(after first: UInt8, of member: (UInt8) -> Bool, in t: UnsafeMutableBufferPointer<UInt8>,
                    at i: Int) -> (Int, Written)? {
        guard t[i] == first, i + 1 < t.count, member(t[i + 1]) else { return nil }
        var j = i + 2
        while j < t.count, member(t[j]) { j += 1 }
        return (j - i, .one(first))
    }

    /// `s/,\s*,/, /g`.
    static func commaSpaceComma(_ t: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (Int, Written)? {
        guard t[i] == comma else { return nil }
        var j = i + 1
        while j < t.count, isSpace(t[j]) { j += 1 }
        return j < t.count && t[j] == comma ? (j + 1 - i, .two(comma, space)) : nil
    }

    /// `s/\h+,\h+/, /g`.
    static func blanksAroundComma(_ t: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (Int, Written)? {
        guard isBlank(t[i]) else { return nil }
        var j = i + 1
        while j < t.count, isBlank(t[j]) { j += 1 }
        guard j + 1 < t.count, t[j] == comma, isBlank(t[j + 1]) else { return nil }
        j += 2
        while j < t.count, isBlank(t[j]) { j += 1 }
        return (j - i, .two(comma, space))
    }

    /// `s/\h\h+/ /g`.
    static func blankRun(_ t: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (Int, Written)? {
        guard isBlank(t[i]), i + 1 < t.count, isBlank(t[i + 1]) else { return nil }
        var j = i + 2
        while j < t.count, isBlank(t[j]) { j += 1 }
        return (j - i, .one(space))
    }

    /// `s/,,+/,/g`.
    static func commaRun(_ t: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (Int, Written)? {
        guard t[i] == comma, i + 1 < t.count, t[i + 1] == comma else { return nil }
        var j = i + 2
        while j < t.count, t[j] == comma { j += 1 }
        return (j - i, .one(comma))
    }

    /// `s/&#39;/'/g`.
    static func apostropheEntity(_ t: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (Int, Written)? {
        let entity: StaticString = "&#39;"
        guard t[i] == UInt8(ascii: "&"), i + 5 <= t.count else { return nil }
        for k in 1..<5 where t[i + k] != entity.utf8Start[k] { return nil }
        return (5, .one(UInt8(ascii: "'")))
    }

    /// Each line once, without blanks at its ends, and within it each comma-separated part once, joined by ", ".
    static func distinctLines(_ text: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.count + 8)
        var lines: [Range<Int>] = []
        for line in fields(of: text[...], separatedBy: newline) {
            let trimmed = trimmedBlanks(line, in: text)
            if lines.contains(where: { text[$0].elementsEqual(text[trimmed]) }) { continue }
            lines.append(trimmed)
            if lines.count > 1 { out.append(newline) }
            var words: [Range<Int>] = []
            for word in fields(of: text[trimmed], separatedBy: comma) {
                let w = trimmedBlanks(word, in: text)
                if !isNewYork(text[w]), words.contains(where: { text[$0].elementsEqual(text[w]) }) { continue }
                if !words.isEmpty { out += [comma, space] }
                words.append(w)
                out += text[w]
            }
        }
        return out
    }

    /// Perl's `split`: the fields between separators, trailing empty ones left out.
    static func fields(of text: ArraySlice<UInt8>, separatedBy separator: UInt8) -> [Range<Int>] {
        var fields: [Range<Int>] = []
        var start = text.startIndex
        for i in text.indices where text[i] == separator {
            fields.append(start..<i)
            start = i + 1
        }
        fields.append(start..<text.endIndex)
        while let last = fields.last, last.isEmpty { fields.removeLast() }
        return fields
    }

    static func trimmedBlanks(_ range: Range<Int>, in text: [UInt8]) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, isBlank(text[lower]) { lower += 1 }
        while upper > lower, isBlank(text[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// "new york" in any case: the one part the reference never takes out as a repeat.
    static func isNewYork(_ part: ArraySlice<UInt8>) -> Bool {
        part.count == 8 && zip(part, "new york".utf8).allSatisfy { ($0 | 0x20) == $1 || ($0 == $1) }
    }

    /// The reference's first step after the template: the text's ", "-separated parts, each without white space at
    /// its start, each once (but "New York").
    static func distinctParts(_ text: inout [UInt8]) {
        var parts: [Range<Int>] = []
        var start = 0, i = 0
        while i + 1 < text.count {
            if text[i] == comma, text[i + 1] == space { parts.append(start..<i); start = i + 2; i += 2 } else { i += 1 }
        }
        guard !parts.isEmpty else { return }
        parts.append(start..<text.count)
        while let last = parts.last, last.isEmpty { parts.removeLast() }
        var out: [UInt8] = [], kept: [Range<Int>] = []
        out.reserveCapacity(text.count)
        for part in parts {
            var lower = part.lowerBound
            while lower < part.upperBound, isSpace(text[lower]) { lower += 1 }
            let piece = lower..<part.upperBound
            if !isNewYork(text[piece]), kept.contains(where: { text[$0].elementsEqual(text[piece]) }) { continue }
            if !kept.isEmpty { out += [comma, space] }
            kept.append(piece)
            out += text[piece]
        }
        text = out
    }
}
