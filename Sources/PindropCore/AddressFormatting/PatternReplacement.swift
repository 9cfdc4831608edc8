/// A rule's replacement text: literal bytes and `$1`-style references to a match's groups.
struct PatternReplacement: Sendable {
    enum Piece: Sendable { case text([UInt8]), group(Int) }
    let pieces: [Piece]

    /// Reads `$1` … `$9` as group references; everything else is literal.
    init(_ text: String) {
        var pieces: [Piece] = [], literal: [UInt8] = []
        let bytes = Array(text.utf8)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "$"), i + 1 < bytes.count, (0x31...0x39).contains(bytes[i + 1]) {
                if !literal.isEmpty { pieces.append(.text(literal)); literal = [] }
                pieces.append(.group(Int(bytes[i + 1] - 0x30)))
                i += 2
            } else {
                literal.append(bytes[i])
                i += 1
            }
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        self.pieces = pieces
    }

    /// The replacement for a match of `text` with these capture slots (a group that took no part is empty).
    func bytes<Text: RandomAccessCollection<UInt8>>(captures: [Int], in text: Text) -> [UInt8] where Text.Index == Int {
        var out: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .text(let bytes): out += bytes
            case .group(let n):
                guard 2 * n + 1 < captures.count, captures[2 * n] >= 0, captures[2 * n + 1] >= 0 else { continue }
                out += text[(text.startIndex + captures[2 * n])..<(text.startIndex + captures[2 * n + 1])]
            }
        }
        return out
    }
}
