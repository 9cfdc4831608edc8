/// One country's form, compiled once: its templates (as indexes into the formatter's), the rewrites of its
/// components and of its written text, its state and county codes, the languages whose abbreviations apply, and
/// for a territory written as another country writes, which one and what it changes.
struct CountryFormat: Sendable {
    /// "DE"; empty for the default form.
    let code: String
    /// The template for an address with a road or a postcode, and the one for the rest; nil: the default's.
    let address, fallback: Int?
    let replacements: [ComponentRewrite]
    let postformat: [TextRewrite]
    /// Which values the rewrites may change: a component's that no rule names, each named one's, the written text.
    let rewriteFilter: BytePrefilter
    let namedRewriteFilters: [(slot: Int, filter: BytePrefilter)]
    let postformatFilter: BytePrefilter
    let territory: Territory?
    let stateCodes, countyCodes: CodeTable?
    /// Indexes into the formatter's abbreviations.
    let languages: [Int]
    /// Whether an OSM `district` is a part of town here rather than a state's district.
    let districtIsNeighbourhood: Bool

    /// A territory written as another country: American Samoa as the United States, with its own state line.
    struct Territory: Sendable {
        /// The code whose form applies ("US").
        let country: String
        /// The country line it gets; `$name` in it stands for that component's value ("$state, United Kingdom").
        let countryLine: String?
        /// The state it gets ("American Samoa"); only `state=` is honoured, as in the reference.
        let state: String?
    }

    init(code: String, rules: AddressFormatData.Country?, data: AddressFormatData, languageIndex: [String: Int],
         components: AddressComponents) throws(PindropError) {
        self.code = code
        address = rules?.address
        fallback = rules?.fallback
        replacements = try (rules?.replace ?? []).map { pair throws(PindropError) in
            try ComponentRewrite(try Self.pair(pair), components: components)
        }
        postformat = try (rules?.postformatReplace ?? []).map { pair throws(PindropError) in
            let (from, to) = try Self.pair(pair)
            return TextRewrite(pattern: try TextPattern(from), replacement: PatternReplacement(to))
        }
        (rewriteFilter, namedRewriteFilters) = Self.filters(replacements)
        postformatFilter = postformat.reduce(into: BytePrefilter()) { $0.add($1.pattern) }
        territory = rules?.useCountry.map { target in
            let state = rules?.addComponent.flatMap { added -> String? in
                let parts = added.split(separator: "=", maxSplits: 1)
                return parts.count == 2 && parts[0] == "state" ? String(parts[1]) : nil
            }
            return Territory(country: target, countryLine: rules?.changeCountry, state: state)
        }
        stateCodes = data.stateCodes[code].map(CodeTable.init)
        countyCodes = data.countyCodes[code].map(CodeTable.init)
        languages = (data.countryLanguages[code] ?? []).compactMap { languageIndex[$0] }
        districtIsNeighbourhood = code.isEmpty || AddressComponents.smallDistrictCountries.contains(code)
    }

    /// The rewrites' filter for any component, and for each component a rule names (which also meets that rule's
    /// own text).
    private static func filters(_ rewrites: [ComponentRewrite]) -> (BytePrefilter, [(slot: Int, filter: BytePrefilter)]) {
        let any = rewrites.reduce(into: BytePrefilter()) { $0.add($1.pattern) }
        var named: [(slot: Int, filter: BytePrefilter)] = []
        for rewrite in rewrites {
            guard let slot = rewrite.slot, let exact = rewrite.exact, let pattern = rewrite.slotPattern else { continue }
            if !named.contains(where: { $0.slot == slot }) { named.append((slot, any)) }
            let n = named.firstIndex { $0.slot == slot }!
            named[n].filter.add(pattern)
            named[n].filter.add(whole: exact)
        }
        return (any, named)
    }

    /// The filter for the rewrites of the component in `slot`.
    func rewriteFilter(for slot: Int) -> BytePrefilter {
        namedRewriteFilters.first { $0.slot == slot }?.filter ?? rewriteFilter
    }

    private static func pair(_ pair: [String]) throws(PindropError) -> (String, String) {
        guard pair.count == 2 else { throw .invalidInput("address rules: a replacement is not a [from, to] pair") }
        return (pair[0], pair[1])
    }
}

/// A rewrite of the written text: the first match of `pattern` replaced.
struct TextRewrite: Sendable {
    let pattern: TextPattern
    let replacement: PatternReplacement
}

/// A rewrite of the components, before the template (`replace`): `["^Stadtteil ", ""]` rewrites any component's
/// first match; `["city=Alt-Berlin", "Berlin"]` replaces a `city` that is exactly "Alt-Berlin", and else rewrites
/// its first match of "Alt-Berlin" (the reference does both).
struct ComponentRewrite: Sendable {
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
