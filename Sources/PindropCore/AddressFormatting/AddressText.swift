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
    /// `scratch` is room to write on (its bytes are not kept).
    static func clean(_ text: inout [UInt8], scratch: inout [UInt8]) {
        if text.contains(UInt8(ascii: "&")) { rewrite(&text, apostropheEntity) }
        while let last = text.last, isSpace(last) || last == comma || last == UInt8(ascii: "}") { text.removeLast() }
        var lead = 0
        while lead < text.count, isSpace(text[lead]) || text[lead] == comma { lead += 1 }
        text.removeFirst(lead)
        if text.starts(with: [UInt8(ascii: "-"), space]) { text.removeFirst(2) }
        if text.contains(comma) {
            rewrite(&text, commaSpaceComma)
            rewrite(&text, blanksAroundComma)
            rewrite(&text, blankRun)
            rewrite(&text) { t, i in isBlank(t[i]) && i + 1 < t.count && t[i + 1] == newline ? (1, .nothing) : nil }
            rewrite(&text) { t, i in t[i] == newline && i + 1 < t.count && t[i + 1] == comma ? (2, .one(newline)) : nil }
            rewrite(&text, commaRun)
            rewrite(&text) { t, i in t[i] == comma && i + 1 < t.count && t[i + 1] == newline ? (1, .nothing) : nil }
            rewrite(&text) { t, i in run(after: newline, of: isBlank, in: t, at: i) }
            rewrite(&text) { t, i in run(after: newline, of: { $0 == newline }, in: t, at: i) }
        } else {
            // Without commas the comma steps do nothing, and the four white-space steps come to one.
            rewrite(&text, whiteSpaceRun)
        }
        distinctLines(text, into: &scratch)
        swap(&text, &scratch)
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

    /// `s/\h\h+/ /g`, `s/\h\n/\n/g`, `s/\n\h+/\n/g` and `s/\n\n+/\n/g` in one: a run of blanks and newlines with a
    /// newline in it becomes one newline, a run of two blanks or more one space (in a text without commas, where
    /// the steps between them in the reference change nothing).
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

    /// Each line once, without blanks at its ends, and within it each comma-separated part once, joined by ", ",
    /// written into `out`.
    static func distinctLines(_ text: [UInt8], into out: inout [UInt8]) {
        out.removeAll(keepingCapacity: true)
        var end = text.count
        while end > 0, text[end - 1] == newline { end -= 1 }  // Perl's split leaves out trailing empty fields
        guard end > 0 else { return }
        let lineCount = text[..<end].count(where: { $0 == newline }) + 1
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: lineCount) { kept in
            var keptCount = 0, start = 0
            while start <= end {
                var stop = start
                while stop < end, text[stop] != newline { stop += 1 }
                let line = trimmedBlanks(start..<stop, in: text)
                start = stop + 1
                if kept[..<keptCount].contains(where: { text[$0].elementsEqual(text[line]) }) { continue }
                kept[keptCount] = line
                keptCount += 1
                if keptCount > 1 { out.append(newline) }
                if text[line].contains(comma) { writeDistinctParts(of: line, in: text, into: &out) } else { out += text[line] }
            }
        }
    }

    /// A line's comma-separated parts (Perl's `split /,/`: trailing empty ones left out), each without blanks at its
    /// ends, each once but "New York", joined by ", ".
    static func writeDistinctParts(of line: Range<Int>, in text: [UInt8], into out: inout [UInt8]) {
        var end = line.upperBound
        while end > line.lowerBound, text[end - 1] == comma { end -= 1 }
        let partCount = text[line.lowerBound..<end].count(where: { $0 == comma }) + 1
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: partCount) { kept in
            var keptCount = 0, start = line.lowerBound
            while start <= end, end > line.lowerBound {
                var stop = start
                while stop < end, text[stop] != comma { stop += 1 }
                let part = trimmedBlanks(start..<stop, in: text)
                start = stop + 1
                if !isNewYork(text[part]), kept[..<keptCount].contains(where: { text[$0].elementsEqual(text[part]) }) { continue }
                kept[keptCount] = part
                keptCount += 1
                if keptCount > 1 { out += [comma, space] }
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
    static func distinctParts(_ text: inout [UInt8], scratch: inout [UInt8]) {
        let separators = text.indices.dropLast().count(where: { text[$0] == comma && text[$0 + 1] == space })
        guard separators > 0 else { return }
        scratch.removeAll(keepingCapacity: true)
        var end = text.count
        while end >= 2, text[end - 2] == comma, text[end - 1] == space { end -= 2 }
        withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: separators + 1) { kept in
            var keptCount = 0, start = 0
            while start <= end, end > 0 {
                var stop = start
                while stop < end, !(text[stop] == comma && stop + 1 < end && text[stop + 1] == space) { stop += 1 }
                var lower = start
                while lower < stop, isSpace(text[lower]) { lower += 1 }
                let piece = lower..<stop
                start = stop + 2
                if !isNewYork(text[piece]), kept[..<keptCount].contains(where: { text[$0].elementsEqual(text[piece]) }) { continue }
                kept[keptCount] = piece
                keptCount += 1
                if keptCount > 1 { scratch += [comma, space] }
                scratch += text[piece]
            }
        }
        swap(&text, &scratch)
    }
}
