/// A country's template, parsed once into what it writes: literal text (line breaks included), a component's
/// value (`{{{road}}}`), or the first alternative that writes something (`{{#first}} a || b {{/first}}`, each
/// alternative read with the white space at its ends left out). Kept as plain instructions over one pool of bytes,
/// so that writing it touches no reference but the values'.
final class AddressTemplate: Sendable {
    /// An instruction: `pool[start..<start + count]` when `count` is 0 or more, else what `count` names. Two
    /// integers rather than an enum: telling them apart takes a test or two, where an enum's switch took an indirect
    /// branch to a different place at nearly every instruction, mispredicted at most of them.
    struct Op: Sendable {
        let start, count: Int32

        static let valueCount: Int32 = -1, firstStartCount: Int32 = -2, endOfAlternativeCount: Int32 = -3

        /// `pool[start..<start + count]`.
        static func text(start: Int32, count: Int32) -> Op { Op(start: start, count: count) }
        /// The value in this component slot, when there is one.
        static func value(_ slot: Int32) -> Op { Op(start: slot, count: valueCount) }
        /// A `{{#first}}` block starts: its alternatives follow, each ended by `endOfAlternative`.
        static let firstStart = Op(start: 0, count: firstStartCount)
        /// An alternative ends; `blockEnd` is the index of the block's last instruction (the last alternative's end).
        static func endOfAlternative(blockEnd: Int32) -> Op { Op(start: blockEnd, count: endOfAlternativeCount) }
    }

    let ops: [Op]
    let pool: [UInt8]
    /// The component slots it writes, once each.
    let slots: [Int]

    /// Parses a template's text; `slot` names each component's slot (nil: a name the formatter does not know).
    init(_ text: String, slot: (String) -> Int?) throws(PindropError) {
        var ops: [Op] = [], pool: [UInt8] = [], slots: [Int] = []
        func plain(_ text: Substring) throws(PindropError) {
            var rest = text
            while let open = rest.range(of: "{{") {
                guard rest[open.lowerBound...].hasPrefix("{{{"), let close = rest[open.upperBound...].range(of: "}}}") else {
                    throw PindropError.invalidInput("address template: only {{{name}}} and {{#first}} are understood")
                }
                literal(rest[..<open.lowerBound])
                let name = String(rest[rest.index(open.lowerBound, offsetBy: 3)..<close.lowerBound])
                guard let n = slot(name) else { throw PindropError.invalidInput("address template: unknown component \(name)") }
                ops.append(.value(Int32(n)))
                if !slots.contains(n) { slots.append(n) }
                rest = rest[close.upperBound...]
            }
            literal(rest)
        }
        func literal(_ text: Substring) {
            guard !text.isEmpty else { return }
            if let last = ops.last, last.count >= 0, Int(last.start + last.count) == pool.count {
                ops[ops.count - 1] = .text(start: last.start, count: last.count + Int32(text.utf8.count))
            } else {
                ops.append(.text(start: Int32(pool.count), count: Int32(text.utf8.count)))
            }
            pool += text.utf8
        }
        var rest = Substring(text)
        while let open = rest.range(of: "{{#first}}") {
            try plain(rest[..<open.lowerBound])
            guard let close = rest[open.upperBound...].range(of: "{{/first}}"),
                  !rest[open.upperBound..<close.lowerBound].contains("\n") else {
                throw PindropError.invalidInput("address template: {{#first}} without {{/first}} on its line")
            }
            ops.append(.firstStart)
            var ends: [Int] = []
            for alternative in rest[open.upperBound..<close.lowerBound].split(separator: "||", omittingEmptySubsequences: false) {
                // The white space at the alternative's ends is left out when it is written: not kept at all.
                var trimmed = alternative.drop { $0 == " " || $0 == "\t" }
                while trimmed.last == " " || trimmed.last == "\t" { trimmed.removeLast() }
                try plain(trimmed)
                ends.append(ops.count)
                ops.append(.endOfAlternative(blockEnd: 0))
            }
            for end in ends { ops[end] = .endOfAlternative(blockEnd: Int32(ends.last!)) }
            rest = rest[close.upperBound...]
        }
        try plain(rest)
        (self.ops, self.pool, self.slots) = (ops, pool, slots)
    }

    /// Writes the template with `values` (by slot) at the end of `out`.
    func render(_ values: AddressValues, into out: inout [UInt8]) {
        ops.withUnsafeBufferPointer { ops in
            pool.withUnsafeBufferPointer { pool in render(ops: ops, pool: pool, values, into: &out) }
        }
    }

    private func render(ops: UnsafeBufferPointer<Op>, pool: UnsafeBufferPointer<UInt8>, _ values: AddressValues,
                        into out: inout [UInt8]) {
        var i = 0, blockStart = 0
        while i < ops.count {
            let op = ops[i]
            if op.count >= 0 {
                if op.count == 1 {
                    out.append(pool[Int(op.start)])
                } else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: pool[Int(op.start)..<Int(op.start + op.count)]))
                }
            } else if op.count == Op.valueCount {
                if let value = values[Int(op.start)] { value.withUTF8Bytes { out.append(contentsOf: $0) } }
            } else if op.count == Op.firstStartCount {
                blockStart = out.count
            } else {
                // The alternative just written, without white space at its ends: kept if something is left.
                var end = out.count
                while end > blockStart, AddressText.isSpace(out[end - 1]) { end -= 1 }
                if end < out.count { out.removeLast(out.count - end) }
                var from = blockStart
                while from < end, AddressText.isSpace(out[from]) { from += 1 }
                if from < end {
                    if from > blockStart { out.removeSubrange(blockStart..<from) }
                    i = Int(op.start)
                }
            }
            i += 1
        }
    }
}
