/// A parsed pattern, before it becomes `TextPattern`'s instructions.
indirect enum PatternNode: Sendable {
    case literal(Unicode.Scalar)
    case any
    /// A character of the parser's `sets[n]`.
    case set(Int)
    case textStart, textEnd, wordBoundary
    case sequence([PatternNode])
    case alternation([PatternNode])
    /// A group; `capture` is its number when it captures.
    case group(PatternNode, capture: Int?)
    /// `max` nil: no upper bound.
    case repeated(PatternNode, min: Int, max: Int?, greedy: Bool)
}
