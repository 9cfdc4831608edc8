/// A regular expression in the part of Perl's syntax the address rules are written in (literals, `.`, classes,
/// `\d \w \s \b`, groups, `|`, `? * + {n,m}`, `^` and `$`), compiled once into instructions for a small
/// backtracking machine that reads UTF-8 bytes. Perl's meanings are kept: `$` also matches before a final newline,
/// `\w` and `\d` are Unicode's, and a replacement's `$1` is the first group's text. A class: the rules that hold one
/// are read in every call, and a reference is one retain where a struct of arrays was several.
final class TextPattern: Sendable {
    enum Instruction: Sendable, Equatable {
        /// This byte.
        case byte(UInt8)
        /// Any character but a newline.
        case any
        /// A character of `sets[n]`.
        case set(Int)
        /// Go on at the first target; when that fails, at the second.
        case split(Int, Int)
        case jump(Int)
        /// Note the position in capture slot n (group n / 2's start or end).
        case save(Int)
        case textStart
        /// The end, or before a newline that ends the text.
        case textEnd
        case wordBoundary
        case match
    }

    let program: [Instruction]
    let sets: [ScalarSet]
    /// Capture slots: two a group, group 0 being the whole match.
    let slotCount: Int
    /// Matches only at the start (`^...`).
    let anchored: Bool
    /// The bytes every match starts with (empty when it starts with a class, a choice or a repeat): other starts are
    /// skipped unread, and `BytePrefilter` tells from them which texts cannot match at all.
    let literalPrefix: [UInt8]

    /// At most this many steps a search: a pathological text gives up (no match) instead of running long.
    static let stepBudget = 100_000

    /// Compiles `pattern`; throws when it is outside the subset.
    init(_ pattern: String) throws(PindropError) {
        var parser = PatternParser(pattern)
        let node = try parser.parse()
        var emitter = PatternEmitter()
        emitter.emit(.group(node, capture: 0))
        emitter.program.append(.match)
        program = emitter.program
        sets = parser.sets
        slotCount = 2 * (parser.groupCount + 1)
        var prefix: [UInt8] = [], anchored = false
        walk: for instruction in emitter.program {
            switch instruction {
            case .save: continue
            case .textStart where prefix.isEmpty && !anchored: anchored = true
            case .byte(let b): prefix.append(b)
            default: break walk
            }
        }
        (self.anchored, literalPrefix) = (anchored, prefix)
    }

    /// Whether the literal start is at byte `i`.
    @inline(__always)
    private func prefixMatches(_ text: UnsafeBufferPointer<UInt8>, at i: Int) -> Bool {
        guard i + literalPrefix.count <= text.count else { return false }
        for k in literalPrefix.indices where text[i + k] != literalPrefix[k] { return false }
        return true
    }

    /// The first match's capture slots (byte offsets, -1 for a group that took no part), or nil.
    func firstMatch(in text: UnsafeBufferPointer<UInt8>) -> [Int]? {
        let last = anchored ? 0 : text.count
        // A quick look before any allocation: most rules do not apply to most texts.
        var first = 0
        if !literalPrefix.isEmpty {
            while first <= last, !prefixMatches(text, at: first) { first += 1 }
            guard first <= last else { return nil }
        }
        var captures = [Int](repeating: -1, count: slotCount)
        var stack: [Backtrack] = []
        var budget = Self.stepBudget
        var start = first
        while start <= last {
            defer { start += 1 }
            if start < text.count, text[start] & 0xC0 == 0x80 { continue }  // inside a character
            if !literalPrefix.isEmpty, !prefixMatches(text, at: start) { continue }
            if run(text, from: start, captures: &captures, stack: &stack, budget: &budget) { return captures }
            if budget <= 0 { return nil }
        }
        return nil
    }

    /// What the machine goes back to: a thread to try, or a capture slot's earlier value.
    enum Backtrack { case thread(pc: Int, at: Int), restore(slot: Int, value: Int) }

    private func run(_ text: UnsafeBufferPointer<UInt8>, from start: Int, captures: inout [Int], stack: inout [Backtrack],
                     budget: inout Int) -> Bool {
        for i in captures.indices { captures[i] = -1 }
        stack.removeAll(keepingCapacity: true)
        stack.append(.thread(pc: 0, at: start))
        while let entry = stack.popLast() {
            guard case .thread(var pc, var at) = entry else {
                if case .restore(let slot, let value) = entry { captures[slot] = value }
                continue
            }
            thread: while true {
                budget -= 1
                if budget <= 0 { return false }
                switch program[pc] {
                case .byte(let b):
                    guard at < text.count, text[at] == b else { break thread }
                    at += 1
                case .any:
                    guard at < text.count, text[at] != 0x0A else { break thread }
                    at += TextScalars.length(text[at])
                case .set(let n):
                    guard at < text.count else { break thread }
                    let (scalar, length) = TextScalars.decode(text, at: at)
                    guard sets[n].contains(scalar) else { break thread }
                    at += length
                case .split(let first, let second):
                    stack.append(.thread(pc: second, at: at))
                    pc = first
                    continue thread
                case .jump(let target):
                    pc = target
                    continue thread
                case .save(let slot):
                    stack.append(.restore(slot: slot, value: captures[slot]))
                    captures[slot] = at
                case .textStart:
                    guard at == 0 else { break thread }
                case .textEnd:
                    guard at == text.count || (at == text.count - 1 && text[at] == 0x0A) else { break thread }
                case .wordBoundary:
                    guard TextScalars.isWordBefore(text, at) != TextScalars.isWordAt(text, at) else { break thread }
                case .match:
                    return true
                }
                pc += 1
            }
        }
        return false
    }

    /// Replaces the first match in `bytes` by `replacement`; false when nothing matched.
    func replaceFirst(in bytes: inout [UInt8], with replacement: PatternReplacement) -> Bool {
        guard let captures = bytes.withUnsafeBufferPointer({ firstMatch(in: $0) }) else { return false }
        let written = replacement.bytes(captures: captures, in: bytes)
        bytes.replaceSubrange(captures[0]..<captures[1], with: written)
        return true
    }

    /// `value` with its first match replaced, or nil when nothing matched.
    func replacingFirst(in value: String, with replacement: PatternReplacement) -> String? {
        value.withUTF8Bytes { text in
            guard let captures = firstMatch(in: text) else { return nil }
            var bytes = Array(text[..<captures[0]])
            bytes += replacement.bytes(captures: captures, in: text)
            bytes += text[captures[1]...]
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
