/// A country's template, parsed once into what it writes: literal text (line breaks included), a component's
/// value (`{{{road}}}`), or the first alternative that writes something (`{{#first}} a || b {{/first}}`, each
/// alternative read with the white space at its ends left out).
struct AddressTemplate: Sendable {
    enum Piece: Sendable {
        case text([UInt8])
        /// The value in this component slot, when there is one.
        case value(Int)
        /// The first of these that writes more than white space.
        case first([[Piece]])
    }

    let pieces: [Piece]
    /// The component slots it writes, once each.
    let slots: [Int]

    /// Parses a template's text; `slot` names each component's slot (nil: a name the formatter does not know).
    init(_ text: String, slot: (String) -> Int?) throws(PindropError) {
        var pieces: [Piece] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{#first}}") {
            pieces += try Self.plain(rest[..<open.lowerBound], slot: slot)
            guard let close = rest[open.upperBound...].range(of: "{{/first}}"),
                  !rest[open.upperBound..<close.lowerBound].contains("\n") else {
                throw PindropError.invalidInput("address template: {{#first}} without {{/first}} on its line")
            }
            let inside = rest[open.upperBound..<close.lowerBound]
            var alternatives: [[Piece]] = []
            for alternative in inside.split(separator: "||", omittingEmptySubsequences: false) {
                alternatives.append(try Self.plain(alternative, slot: slot))
            }
            pieces.append(.first(alternatives))
            rest = rest[close.upperBound...]
        }
        pieces += try Self.plain(rest, slot: slot)
        self.pieces = pieces
        var slots: [Int] = []
        func collect(_ pieces: [Piece]) {
            for piece in pieces {
                switch piece {
                case .text: break
                case .value(let n): if !slots.contains(n) { slots.append(n) }
                case .first(let alternatives): alternatives.forEach(collect)
                }
            }
        }
        collect(pieces)
        self.slots = slots
    }

    /// Literal text and `{{{name}}}` values.
    private static func plain(_ text: Substring, slot: (String) -> Int?) throws(PindropError) -> [Piece] {
        var pieces: [Piece] = []
        var rest = text
        while let open = rest.range(of: "{{") {
            guard rest[open.lowerBound...].hasPrefix("{{{"), let close = rest[open.upperBound...].range(of: "}}}") else {
                throw PindropError.invalidInput("address template: only {{{name}}} and {{#first}} are understood")
            }
            if open.lowerBound > rest.startIndex { pieces.append(.text(Array(rest[..<open.lowerBound].utf8))) }
            let name = String(rest[rest.index(open.lowerBound, offsetBy: 3)..<close.lowerBound])
            guard let n = slot(name) else { throw PindropError.invalidInput("address template: unknown component \(name)") }
            pieces.append(.value(n))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { pieces.append(.text(Array(rest.utf8))) }
        return pieces
    }

    /// Writes the template with `values` (by slot) at the end of `out`.
    func render(_ values: [String?], into out: inout [UInt8]) {
        Self.write(pieces, values, into: &out)
    }

    private static func write(_ pieces: [Piece], _ values: [String?], into out: inout [UInt8]) {
        for piece in pieces {
            switch piece {
            case .text(let bytes): out += bytes
            case .value(let n): if let value = values[n] { out += value.utf8 }
            case .first(let alternatives):
                for alternative in alternatives {
                    let start = out.count
                    write(alternative, values, into: &out)
                    var end = out.count
                    while end > start, AddressText.isSpace(out[end - 1]) { end -= 1 }
                    out.removeLast(out.count - end)
                    guard end > start else { continue }
                    var from = start
                    while AddressText.isSpace(out[from]) { from += 1 }
                    out.removeSubrange(start..<from)
                    break
                }
            }
        }
    }
}
