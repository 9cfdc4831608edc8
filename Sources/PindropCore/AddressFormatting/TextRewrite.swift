/// A rewrite of the written text: the first match of `pattern` replaced.
final class TextRewrite: Sendable {
    let pattern: TextPattern
    let replacement: PatternReplacement

    init(pattern: TextPattern, replacement: PatternReplacement) {
        (self.pattern, self.replacement) = (pattern, replacement)
    }
}
