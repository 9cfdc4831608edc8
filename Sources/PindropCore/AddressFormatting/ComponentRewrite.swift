/// A rewrite of the components, before the template (`replace`): `["^Stadtteil ", ""]` rewrites any component's
/// first match; `["city=Alt-Berlin", "Berlin"]` replaces a `city` that is exactly "Alt-Berlin", and else rewrites
/// its first match of "Alt-Berlin" (the reference does both).
final class ComponentRewrite: Sendable {
    /// Any component but `slot`'s: the whole rule's text as a pattern.
    let pattern: TextPattern
    /// For a rule that names a component: its slot, the exact text, and that text as a pattern.
    let slot: Int?
    let exact: String?
    let slotPattern: TextPattern?
    let replacement: PatternReplacement
    /// The replacement as text, for an exact match (the reference writes it as it stands).
    let replacementText: String

    init(_ rule: (from: String, to: String), components: AddressComponents) throws(PindropError) {
        pattern = try TextPattern(rule.from)
        replacement = PatternReplacement(rule.to)
        replacementText = rule.to
        if let equals = rule.from.firstIndex(of: "="), let slot = components.slotByName[String(rule.from[..<equals])] {
            self.slot = slot
            let text = String(rule.from[rule.from.index(after: equals)...])
            exact = text
            slotPattern = try TextPattern(text)
        } else {
            (slot, exact, slotPattern) = (nil, nil, nil)
        }
    }

    /// `value` rewritten as the component in `slot` (nil: a part the templates do not know).
    func apply(to value: String, slot: Int?) -> String {
        if let ownSlot = self.slot, ownSlot == slot, let exact, let slotPattern {
            if value.utf8.elementsEqual(exact.utf8) { return replacementText }
            return slotPattern.replacingFirst(in: value, with: replacement) ?? value
        }
        return pattern.replacingFirst(in: value, with: replacement) ?? value
    }
}
