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
    /// `scratch` is room to write on (its bytes are not kept). Returns whether cleaning the result again would
    /// leave it as it is: for a text that had no commas (its steps leave no white space to collapse, no empty line
    /// and no line twice), when it now starts with no comma, "-" or white space, ends with no "}" (a line taken out
    /// as a repeat can leave one last) and holds no "&"; for another, as `isSettled` finds.
    @discardableResult
    static func clean(_ text: inout [UInt8], scratch: inout [UInt8]) -> Bool {
        let commas = tidy(&text)
        return finish(&text, commas: commas, scratch: &scratch)
    }

    /// The steps of `clean` before the de-duplication: entities, the ends, and the white space and commas where they
    /// stand together. Returns whether the text holds a comma.
    static func tidy(_ text: inout [UInt8]) -> Bool {
        if text.contains(UInt8(ascii: "&")) { rewrite(&text, apostropheEntity) }
        while let last = text.last, isSpace(last) || last == comma || last == UInt8(ascii: "}") { text.removeLast() }
        var lead = 0
        while lead < text.count, isSpace(text[lead]) || text[lead] == comma { lead += 1 }
        if lead > 0 { text.removeFirst(lead) }
        if text.count >= 2, text[0] == UInt8(ascii: "-"), text[1] == space { text.removeFirst(2) }
        let commas = text.contains(comma)
        if commas {
            // Each step runs only where the two bytes it starts on stand next to each other (most need two or three).
            var pairs = Pairs(text[...])
            if pairs.commas > 1, rewrite(&text, commaSpaceComma) { pairs = Pairs(text[...]) }
            if pairs.has(.blank, .comma), pairs.has(.comma, .blank), rewrite(&text, blanksAroundComma) { pairs = Pairs(text[...]) }
            if pairs.has(.blank, .blank), rewrite(&text, blankRun) { pairs = Pairs(text[...]) }
            if pairs.has(.blank, .newline),
               rewrite(&text, { t, i in isBlank(t[i]) && i + 1 < t.count && t[i + 1] == newline ? (1, .nothing) : nil }) { pairs = Pairs(text[...]) }
            if pairs.has(.newline, .comma),
               rewrite(&text, { t, i in t[i] == newline && i + 1 < t.count && t[i + 1] == comma ? (2, .one(newline)) : nil }) { pairs = Pairs(text[...]) }
            if pairs.has(.comma, .comma), rewrite(&text, commaRun) { pairs = Pairs(text[...]) }
            if pairs.has(.comma, .newline),
               rewrite(&text, { t, i in t[i] == comma && i + 1 < t.count && t[i + 1] == newline ? (1, .nothing) : nil }) { pairs = Pairs(text[...]) }
            if pairs.has(.newline, .blank), rewrite(&text, { t, i in run(after: newline, of: isBlank, in: t, at: i) }) { pairs = Pairs(text[...]) }
            if pairs.has(.newline, .newline) { rewrite(&text) { t, i in run(after: newline, of: { $0 == newline }, in: t, at: i) } }
        } else {
            // Without commas the comma steps do nothing, and the four white-space steps come to one, which has
            // something to do only where two blanks or newlines stand together.
            if hasWhiteSpacePair(text) { rewrite(&text, whiteSpaceRun) }
        }
        return commas
    }

    /// The rest of `clean` on a tidied text (`commas`: whether it holds one): each line and each line's parts once,
    /// the ends, the final newline; returns what `clean` returns.
    static func finish(_ text: inout [UInt8], commas: Bool, scratch: inout [UInt8]) -> Bool {
        if commas || hasRepeatedLine(text) {
            distinctLines(text, into: &scratch)
            swap(&text, &scratch)
        }
        while let last = text.last, isSpace(last) { text.removeLast() }
        var lead = 0
        while lead < text.count, isSpace(text[lead]) { lead += 1 }
        if lead > 0 { text.removeFirst(lead) }
        text.append(newline)
        if commas { return isSettled(text) }
        guard let first = text.first, text.count > 1 else { return text.count == 1 }
        let last = text[text.count - 2]
        return first != comma && first != UInt8(ascii: "-") && !isSpace(first) && last != UInt8(ascii: "}")
            && !text.contains(UInt8(ascii: "&"))
    }

    /// Whether `clean` would leave a cleaned text (ending in one newline) as it is: no step finds anything to do
    /// (no "&", no white space or comma at its ends or around a line break, no blanks or commas doubled, no blank
    /// before a comma, no "- " or "}" at its ends, no white space but blanks and newlines), and no line comes twice
    /// (a line whose parts were de-duplicated can come out like another).
    static func isSettled(_ text: [UInt8]) -> Bool {
        guard text.count > 1 else { return text.count == 1 }
        let first = text[0], last = text[text.count - 2]
        guard first != comma, first != UInt8(ascii: "-"), !isSpace(first), last != UInt8(ascii: "}"), last != comma,
              !isSpace(last) else { return false }
        let clear = text.withUnsafeBufferPointer { t in
            var previous: UInt8 = 0
            for b in t.dropLast() {
                if b == UInt8(ascii: "&") || (0x0B...0x0D).contains(b) { return false }
                let blank = isBlank(b)
                if blank || b == comma || b == newline {
                    // The pairs a step acts on: blank or newline then blank, comma or newline; comma then comma or
                    // newline; blank before a comma.
                    if previous != 0, previous != comma || b != space { return false }
                    previous = blank ? space : b
                } else {
                    previous = 0
                }
            }
            return true
        }
        return clear && !hasRepeatedLine(text)
    }

    /// Whether a blank or newline stands right after another.
    static func hasWhiteSpacePair(_ text: [UInt8]) -> Bool {
        text.withUnsafeBufferPointer { t in
            var previous = false
            for b in t {
                let white = isBlank(b) || b == newline
                if white && previous { return true }
                previous = white
            }
            return false
        }
    }

    /// What a step writes in place of what it takes: never more bytes than it takes (`same`: the bytes it took, a run
    /// it looked through and keeps, so that the next step starts after it).
    enum Written { case nothing, one(UInt8), two(UInt8, UInt8), same }

    /// A step: at byte `i`, nil to keep the byte, or how many bytes to take out and what to write instead. It reads
    /// only from `i` on (what lies before is already rewritten).
    typealias Step = (_ text: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (taken: Int, written: Written)?

    /// Which bytes stand next to which (blanks, newlines, commas, anything else), and how many commas there are.
    struct Pairs {
        enum Kind: Int { case other, blank, newline, comma }
        private var bits: UInt16 = 0
        private(set) var commas = 0

        init(_ text: ArraySlice<UInt8>) {
            var previous: UInt16 = 0
            for b in text {
                // other 0, blank 1, newline 2, comma 3
                let kind: UInt16 = (b == 0x20 || b == 0x09 ? 1 : 0) | (b == 0x0A ? 2 : 0) | (b == 0x2C ? 3 : 0)
                bits |= 1 << (previous &* 4 &+ kind)
                commas &+= kind == 3 ? 1 : 0
                previous = kind
            }
        }

        /// Whether a byte of kind `a` stands right before one of kind `b`.
        func has(_ a: Kind, _ b: Kind) -> Bool { bits & (1 << UInt16(a.rawValue * 4 + b.rawValue)) != 0 }
    }

    /// Applies a step left to right, without overlaps, as `s///g` does, copying down in place; whether it changed
    /// anything.
    @discardableResult @inline(__always)
    static func rewrite(_ text: inout [UInt8], _ step: Step) -> Bool {
        let count = text.count
        var changed = false
        let kept = text.withUnsafeMutableBufferPointer { t in
            var out = 0, i = 0
            while i < count {
                guard let (taken, written) = step(t, i) else {
                    t[out] = t[i]
                    out += 1
                    i += 1
                    continue
                }
                if case .same = written {} else { changed = true }
                switch written {
                case .nothing: break
                case .one(let a): t[out] = a; out += 1
                case .two(let a, let b): t[out] = a; t[out + 1] = b; out += 2
                case .same:
                    for k in i..<(i + taken) { t[out] = t[k]; out += 1 }
                }
                i += taken
            }
            return out
        }
        if kept < count { text.removeLast(count - kept) }
        return changed
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

    /// `s/\h\h+/ /g`, `s/\h\n/\n/g`, `s/\n\h+/\n/g` and `s/\n\n+/\n/g` in one: a run of blanks and newlines with a
    /// newline in it becomes one newline, a run of two blanks or more one space (in a text without commas, where
    /// the steps between them in the reference change nothing).
    @inline(__always)
    static func whiteSpaceRun(_ t: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (Int, Written)? {
        guard isBlank(t[i]) || t[i] == newline else { return nil }
        var j = i, newlines = false
        while j < t.count, isBlank(t[j]) || t[j] == newline {
            newlines = newlines || t[j] == newline
            j += 1
        }
        if newlines { return j - i > 1 ? (j - i, .one(newline)) : nil }
        return j - i > 1 ? (j - i, .one(space)) : nil
    }

    /// `s/,\s*,/, /g`.
    @inline(__always)
    static func commaSpaceComma(_ t: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (Int, Written)? {
        guard t[i] == comma else { return nil }
        var j = i + 1
        while j < t.count, isSpace(t[j]) { j += 1 }
        return j < t.count && t[j] == comma ? (j + 1 - i, .two(comma, space)) : nil
    }

    /// `s/\h+,\h+/, /g`.
    @inline(__always)
    static func blanksAroundComma(_ t: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (Int, Written)? {
        guard isBlank(t[i]) else { return nil }
        var j = i + 1
        while j < t.count, isBlank(t[j]) { j += 1 }
        guard j + 1 < t.count, t[j] == comma, isBlank(t[j + 1]) else { return (j - i, .same) }
        j += 2
        while j < t.count, isBlank(t[j]) { j += 1 }
        return (j - i, .two(comma, space))
    }

    /// `s/\h\h+/ /g`.
    @inline(__always)
    static func blankRun(_ t: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (Int, Written)? {
        guard isBlank(t[i]), i + 1 < t.count, isBlank(t[i + 1]) else { return nil }
        var j = i + 2
        while j < t.count, isBlank(t[j]) { j += 1 }
        return (j - i, .one(space))
    }

    /// `s/,,+/,/g`.
    @inline(__always)
    static func commaRun(_ t: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (Int, Written)? {
        guard t[i] == comma, i + 1 < t.count, t[i + 1] == comma else { return nil }
        var j = i + 2
        while j < t.count, t[j] == comma { j += 1 }
        return (j - i, .one(comma))
    }

    /// `s/&#39;/'/g`.
    @inline(__always)
    static func apostropheEntity(_ t: UnsafeMutableBufferPointer<UInt8>, _ i: Int) -> (Int, Written)? {
        let entity: StaticString = "&#39;"
        guard t[i] == UInt8(ascii: "&"), i + 5 <= t.count else { return nil }
        for k in 1..<5 where t[i + k] != entity.utf8Start[k] { return nil }
        return (5, .one(UInt8(ascii: "'")))
    }

    /// Each line once, without blanks at its ends, and within it each comma-separated part once, joined by ", ",
    /// written into `out`.
    static func distinctLines(_ text: [UInt8], into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(text.count)
        var end = text.count
        while end > 0, text[end - 1] == newline { end -= 1 }  // Perl's split leaves out trailing empty fields
        guard end > 0 else { return }
        let lineCount = text[..<end].count(where: { $0 == newline }) + 1
        SeenRanges.with(expected: lineCount) { seen in
            var start = 0, first = true
            while start <= end {
                var stop = start
                while stop < end, text[stop] != newline { stop += 1 }
                let line = trimmedBlanks(start..<stop, in: text)
                start = stop + 1
                guard seen.isNew(line, in: text) else { continue }
                if !first { out.append(newline) }
                first = false
                if text[line].contains(comma) { writeDistinctParts(of: line, in: text, into: &out) } else { out += text[line] }
            }
        }
    }

    /// Whether `distinctLines` could change a text without commas whose lines already have no blanks at their ends
    /// (as the steps above leave them): a line comes twice, or the first starts with a blank (left by "- "), or there
    /// are more lines than are worth comparing here.
    static func hasRepeatedLine(_ text: [UInt8]) -> Bool {
        let limit = 12
        return text.withUnsafeBufferPointer { t in
            if let first = t.first, isBlank(first) { return true }
            return withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: limit) { lines in
                var count = 0, start = 0
                while start < t.count {
                    var stop = start
                    while stop < t.count, t[stop] != newline { stop += 1 }
                    let length = stop - start
                    for k in 0..<count where lines[k].count == length {
                        if t[lines[k]].elementsEqual(t[start..<stop]) { return true }
                    }
                    if count == limit { return true }
                    lines[count] = start..<stop
                    count += 1
                    start = stop + 1
                }
                return false
            }
        }
    }

    /// A line's comma-separated parts (Perl's `split /,/`: trailing empty ones left out), each without blanks at its
    /// ends, each once but "New York", joined by ", ".
    static func writeDistinctParts(of line: Range<Int>, in text: [UInt8], into out: inout [UInt8]) {
        var end = line.upperBound
        while end > line.lowerBound, text[end - 1] == comma { end -= 1 }
        let partCount = text[line.lowerBound..<end].count(where: { $0 == comma }) + 1
        SeenRanges.with(expected: partCount) { seen in
            var start = line.lowerBound, first = true
            while start <= end, end > line.lowerBound {
                var stop = start
                while stop < end, text[stop] != comma { stop += 1 }
                let part = trimmedBlanks(start..<stop, in: text)
                start = stop + 1
                guard isNewYork(text[part]) || seen.isNew(part, in: text) else { continue }
                if !first { out.append(comma); out.append(space) }
                first = false
                out += text[part]
            }
        }
    }

    static func trimmedBlanks(_ range: Range<Int>, in text: [UInt8]) -> Range<Int> {
        var lower = range.lowerBound, upper = range.upperBound
        while lower < upper, isBlank(text[lower]) { lower += 1 }
        while upper > lower, isBlank(text[upper - 1]) { upper -= 1 }
        return lower..<upper
    }

    /// "new york" in any case: the one part the reference never takes out as a repeat.
    static func isNewYork(_ part: ArraySlice<UInt8>) -> Bool {
        part.count == 8 && zip(part, "new york".utf8).allSatisfy { $0 == $1 || ($0 | 0x20) == $1 }
    }

    /// The reference's first step after the template: the text's ", "-separated parts (trailing empty ones left
    /// out), each without white space at its start, each once (but "New York"). `scratch` is room to write on.
    @discardableResult
    static func distinctParts(_ text: inout [UInt8], scratch: inout [UInt8]) -> Bool {
        let separators = text.withUnsafeBufferPointer { t in
            var n = 0
            for i in t.indices.dropLast() where t[i] == comma && t[i + 1] == space { n += 1 }
            return n
        }
        guard separators > 0 else { return false }
        scratch.removeAll(keepingCapacity: true)
        scratch.reserveCapacity(text.count)
        var end = text.count
        while end >= 2, text[end - 2] == comma, text[end - 1] == space { end -= 2 }
        SeenRanges.with(expected: separators + 1) { seen in
            var start = 0, first = true
            while start <= end, end > 0 {
                var stop = start
                while stop < end, !(text[stop] == comma && stop + 1 < end && text[stop + 1] == space) { stop += 1 }
                var lower = start
                while lower < stop, isSpace(text[lower]) { lower += 1 }
                let piece = lower..<stop
                start = stop + 2
                guard isNewYork(text[piece]) || seen.isNew(piece, in: text) else { continue }
                if !first { scratch.append(comma); scratch.append(space) }
                first = false
                scratch += text[piece]
            }
        }
        guard scratch != text else { return false }
        swap(&text, &scratch)
        return true
    }
}
