/// The one edit that turns a name into what was typed, as a slip of the fingers: ranking weighs likely slips
/// (a swap, a doubled or dropped letter, a key next to the right one) above arbitrary changes of one letter.
public enum TypoEdit: UInt8, Sendable, CaseIterable {
    /// Two neighbouring letters swapped: "Stcokholm".
    case transposed
    /// A letter typed twice: "Barcelonna".
    case doubled
    /// A letter left out, also one of a double letter: "Helsnki", "Misisippi".
    case dropped
    /// A letter replaced by a key next to it on a QWERTY keyboard: "Helsinko".
    case neighbourKey
    /// An extra letter whose key is next to a letter beside it: "Helsinkji".
    case strayKey
    /// Any other letter in place of the right one.
    case substituted
    /// Any other extra letter.
    case inserted

    /// Whether people make this slip often: a swap, a doubled or dropped letter, a neighbouring key.
    public var isLikelySlip: Bool { self != .substituted && self != .inserted }

    /// The edit turning folded `name` into folded `typed`; nil unless they differ by exactly one edit.
    public static func between(typed: some Collection<UInt8>, name: some Collection<UInt8>) -> TypoEdit? {
        let t = Array(typed), n = Array(name)
        var i = 0
        while i < min(t.count, n.count), t[i] == n[i] { i += 1 }
        switch t.count - n.count {
        case 0:
            guard i < t.count else { return nil }
            if i + 1 < t.count, t[i] == n[i + 1], t[i + 1] == n[i], t[(i + 2)...] == n[(i + 2)...] { return .transposed }
            guard t[(i + 1)...] == n[(i + 1)...] else { return nil }
            return QWERTY.areNeighbours(t[i], n[i]) ? .neighbourKey : .substituted
        case 1:
            // t[i] is the extra letter (the first of a run, when it doubles one).
            guard t[(i + 1)...] == n[i...] else { return nil }
            let before = i > 0 ? t[i - 1] : nil, after = i + 1 < t.count ? t[i + 1] : nil
            if t[i] == after || t[i] == before { return .doubled }
            let stray = [before, after].contains { $0.map { QWERTY.areNeighbours(t[i], $0) } ?? false }
            return stray ? .strayKey : .inserted
        case -1:
            return t[i...] == n[(i + 1)...] ? .dropped : nil
        default:
            return nil
        }
    }
}

/// Which letter keys touch on a QWERTY keyboard (rows staggered as on a real one).
public enum QWERTY {
    static let rows: [[UInt8]] = ["qwertyuiop", "asdfghjkl", "zxcvbnm"].map { Array($0.utf8) }

    /// Where each letter sits: (row, column), with each row shifted half a key right of the one above.
    static let position: [UInt8: (row: Int, column: Int)] = {
        var p: [UInt8: (row: Int, column: Int)] = [:]
        for (r, keys) in rows.enumerated() { for (c, k) in keys.enumerated() { p[k] = (r, c) } }
        return p
    }()

    /// Whether two lower-case ASCII letters' keys touch: beside each other in a row, or diagonally in the
    /// next row ("g" touches f, h, t, y, v, b).
    public static func areNeighbours(_ a: UInt8, _ b: UInt8) -> Bool {
        guard a != b, let p = position[a], let q = position[b] else { return false }
        switch q.row - p.row {
        case 0: return abs(q.column - p.column) == 1
        case 1: return q.column == p.column || q.column == p.column - 1
        case -1: return q.column == p.column || q.column == p.column + 1
        default: return false
        }
    }

    /// The letters whose keys touch `a`'s.
    public static func neighbours(of a: UInt8) -> [UInt8] {
        rows.joined().filter { areNeighbours(a, $0) }
    }
}
