/// One country's form, compiled once: its templates (as indexes into the formatter's), the rewrites of its
/// components and of its written text, its state and county codes, the languages whose abbreviations apply, and
/// for a territory written as another country writes, which one and what it changes. A class: each call picks one,
/// and a reference is one retain where a copy of the struct was a dozen.
final class CountryFormat: Sendable {
    /// "DE"; empty for the default form.
    let code: String
    /// The template for an address with a road or a postcode, and the one for the rest; nil: the default's.
    let address, fallback: Int?
    let replacements: [ComponentRewrite]
    let postformat: [TextRewrite]
    /// Which values the rewrites may change: a component's that no rule names, each named one's, the written text.
    let rewriteFilter: BytePrefilter
    let namedRewriteFilters: [(slot: Int, filter: BytePrefilter)]
    /// Which values some rewrite may change as any component: all the filters above in one.
    let anyRewriteFilter: BytePrefilter
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
        let replacements = try (rules?.replace ?? []).map { pair throws(PindropError) in
            try ComponentRewrite(try Self.pair(pair), components: components)
        }
        let postformat = try (rules?.postformatReplace ?? []).map { pair throws(PindropError) in
            let (from, to) = try Self.pair(pair)
            return TextRewrite(pattern: try TextPattern(from), replacement: PatternReplacement(to))
        }
        (self.replacements, self.postformat) = (replacements, postformat)
        (rewriteFilter, namedRewriteFilters) = Self.filters(replacements)
        anyRewriteFilter = replacements.reduce(into: rewriteFilter) { filter, rewrite in
            if let pattern = rewrite.slotPattern, let exact = rewrite.exact {
                filter.add(pattern)
                filter.add(whole: exact)
            }
        }
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

    /// Whether some rewrite changes `value` as any component: a rule's pattern matches it, or it is a named rule's
    /// exact text. Exact where `anyRewriteFilter` only guesses, and dearer: for the values that filter lets through.
    func rewritesAny(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        replacements.contains { rule in
            if let exact = rule.exact, value.elementsEqual(exact.utf8) { return true }
            return rule.pattern.firstMatch(in: value) != nil || rule.slotPattern.map { $0.firstMatch(in: value) != nil } ?? false
        }
    }

    /// Whether a rewrite may change `value` as the component in `slot` (false: none can), read without copying the
    /// filter out.
    func mayRewrite(_ value: UnsafeBufferPointer<UInt8>, slot: Int) -> Bool {
        for named in namedRewriteFilters where named.slot == slot { return named.filter.mayMatch(value) }
        return rewriteFilter.mayMatch(value)
    }

    private static func pair(_ pair: [String]) throws(PindropError) -> (String, String) {
        guard pair.count == 2 else { throw .invalidInput("address rules: a replacement is not a [from, to] pair") }
        return (pair[0], pair[1])
    }
}
