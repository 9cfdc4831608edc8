/// A country's template, parsed once into what it writes: literal text (line breaks included), a component's
/// value (`{{{road}}}`), or the first alternative that writes something (`{{#first}} a || b {{/first}}`, each
/// alternative read with the white space at its ends left out). Kept as plain instructions over one pool of bytes,
/// so that writing it touches no reference but the values'.
final class AddressTemplate: Sendable {
    enum Op: Sendable {
        /// `pool[start..<start + count]`.
        case text(start: Int32, count: Int32)
        /// The value in this component slot, when there is one.
        case value(Int32)
        /// A `{{#first}}` block starts: its alternatives follow, each ended by `endOfAlternative`.
        case firstStart
        /// An alternative ends; `blockEnd` is the index of the block's last instruction (the last alternative's end).
        case endOfAlternative(blockEnd: Int32)
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
            if case .text(let start, let count) = ops.last, Int(start + count) == pool.count {
                ops[ops.count - 1] = .text(start: start, count: count + Int32(text.utf8.count))
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
            switch ops[i] {
            case .text(let start, let count):
                if count == 1 {
                    out.append(pool[Int(start)])
                } else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: pool[Int(start)..<Int(start + count)]))
                }
            case .value(let n):
                if let value = values[Int(n)] { value.withUTF8Bytes { out.append(contentsOf: $0) } }
            case .firstStart:
                blockStart = out.count
            case .endOfAlternative(let blockEnd):
                // The alternative just written, without white space at its ends: kept if something is left.
                var end = out.count
                while end > blockStart, AddressText.isSpace(out[end - 1]) { end -= 1 }
                if end < out.count { out.removeLast(out.count - end) }
                var from = blockStart
                while from < end, AddressText.isSpace(out[from]) { from += 1 }
                if from < end {
                    if from > blockStart { out.removeSubrange(blockStart..<from) }
                    i = Int(blockEnd)
                }
            }
            i += 1
        }
    }
}
