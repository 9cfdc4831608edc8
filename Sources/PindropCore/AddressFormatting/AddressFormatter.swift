/// Writes an address the way its country writes it: "350 5th Avenue\nNew York, NY 10118\nUnited States of
/// America", "Mannerheimintie 16\n00100 Helsinki\nFinland", the British postcode on its own line, a Japanese address
/// from the prefecture down. It follows OpenCage's address-formatting templates (251 countries and territories,
/// MIT; `address-formats.json` and its licence in PindropCore's resources): the country's template, the
/// components' aliases, its rewrites, state and county codes, the fallback form for an address with neither road
/// nor postcode, and the tidying of the written text. Every template and rule is compiled once, when the formatter
/// is first used; a call reads the compiled forms and writes bytes.
public struct AddressFormatter: Sendable {
    let components: AddressComponents
    let templates: [AddressTemplate]
    /// Per template: the slots whose values can still reach the text after the rewrites (the template's own, and the
    /// state and county the codes are read from). The other components are not rewritten: nothing would show it.
    let rewrittenSlots: [[Int]]
    let defaultFormat: CountryFormat
    /// Forms by the code's two letters, A-Z × A-Z; nil where no rule, code or language names the country.
    let countries: [CountryFormat?]
    /// By language: the abbreviations of each component ("Avenue" → "Ave" in a road).
    let abbreviations: [[Abbreviation]]
    let postcodeRange, postcodePair: TextPattern
    /// The templates as written for the sets of components met so far (see `AddressPlan`), and for the countries
    /// and sets of parts met so far (see `formatDirectly`).
    let plans = AddressPlans<AddressPlan>()
    let directPlans = AddressPlans<DirectPlan>()

    /// A component's abbreviations in one language.
    struct Abbreviation: Sendable {
        let slot: Int
        let rewrites: [TextRewrite]
        /// Which values hold one of the long words.
        let filter: BytePrefilter
    }

    /// The formatter of the templates shipped with PindropCore, made at first use.
    public static let shared: AddressFormatter = {
        do {
            return try AddressFormatter(data: AddressFormatData.bundled())
        } catch {
            fatalError("the address templates cannot be read: \((error as? PindropError)?.message ?? "\(error)")")
        }
    }()

    init(data: AddressFormatData) throws(PindropError) {
        let components = try AddressComponents(data.components)
        self.components = components
        templates = try data.templates.map { text throws(PindropError) in
            try AddressTemplate(text) { components.slotByName[$0] }
        }
        let codeSlots = [components.state, components.county, components.stateCode, components.countyCode]
        rewrittenSlots = templates.map { template in template.slots + codeSlots.filter { !template.slots.contains($0) } }
        let languages = data.abbreviations.keys.sorted()
        let languageIndex = Dictionary(uniqueKeysWithValues: languages.enumerated().map { ($1, $0) })
        abbreviations = try languages.map { language throws(PindropError) in
            try Self.abbreviations(data.abbreviations[language] ?? [], components: components)
        }
        guard let fallbackRules = data.countries["default"], fallbackRules.address != nil, fallbackRules.fallback != nil else {
            throw .invalidInput("address rules: the default form needs both templates")
        }
        defaultFormat = try CountryFormat(code: "", rules: fallbackRules, data: data, languageIndex: languageIndex,
                                          components: components)
        var countries = [CountryFormat?](repeating: nil, count: 26 * 26)
        let codes = Set(data.countries.keys).union(data.stateCodes.keys).union(data.countyCodes.keys).union(data.countryLanguages.keys)
        for code in codes {
            guard let n = Self.countryIndex(code) else { continue }
            countries[n] = try CountryFormat(code: code, rules: data.countries[code], data: data, languageIndex: languageIndex,
                                             components: components)
        }
        self.countries = countries
        postcodeRange = try TextPattern("\\d+;\\d+")
        postcodePair = try TextPattern("^(\\d{5}),\\d{5}")
    }

    /// One language's abbreviations, each a rewrite of the long word where it stands as a word: `(^|\s)Avenue\b`.
    static func abbreviations(_ entries: [AddressFormatData.ComponentAbbreviations],
                              components: AddressComponents) throws(PindropError) -> [Abbreviation] {
        var compiled: [Abbreviation] = []
        for entry in entries {
            guard let slot = components.slotByName[entry.component] else { continue }
            var rewrites: [TextRewrite] = [], filter = BytePrefilter()
            for pair in entry.pairs {
                guard pair.count == 2 else { throw .invalidInput("address abbreviations: not a [long, short] pair") }
                rewrites.append(TextRewrite(pattern: try TextPattern("(^|\\s)" + literalPattern(pair[0]) + "\\b"),
                                            replacement: PatternReplacement("$1" + pair[1])))
                filter.add(word: pair[0])
            }
            compiled.append(Abbreviation(slot: slot, rewrites: rewrites, filter: filter))
        }
        return compiled
    }

    /// `text` as a pattern that matches it literally.
    static func literalPattern(_ text: String) -> String {
        var out = ""
        for c in text.unicodeScalars {
            if "\\^$.|?*+()[]{}".unicodeScalars.contains(c) { out.append("\\") }
            out.unicodeScalars.append(c)
        }
        return out
    }

    /// Where a two-letter code's form is kept: A-Z × A-Z, any case; nil for anything else.
    static func countryIndex(_ code: String) -> Int? {
        var letters = code.utf8.makeIterator()
        guard let a = letters.next(), let b = letters.next(), letters.next() == nil else { return nil }
        let (x, y) = (Int(a | 0x20) - 0x61, Int(b | 0x20) - 0x61)
        guard (0..<26).contains(x), (0..<26).contains(y), a & 0x80 == 0, b & 0x80 == 0 else { return nil }
        return x * 26 + y
    }

    /// The form for a two-letter code, when the templates name the country.
    func country(_ code: String) -> CountryFormat? { Self.countryIndex(code).flatMap { countries[$0] } }

    /// `parts` written as their country writes them, one line under another (or, with `singleLine`, the lines
    /// joined by ", "); with `abbreviate`, common words shortened as the country's languages do ("Avenue" → "Ave").
    /// Empty when no part can be written.
    public static func format(_ parts: AddressParts, singleLine: Bool = false, abbreviate: Bool = false) -> String {
        shared.format(parts, singleLine: singleLine, abbreviate: abbreviate)
    }

    /// An answer's one display line for its address, as the country writes street, house number, postcode and
    /// town: "Simonkatu 7, 00100 Helsinki", "Städtle 32, 9490 Vaduz"; empty when the address has none of them.
    public static func streetLine(_ address: Address, countryCode: String?) -> String {
        shared.format(address, countryCode: countryCode, streetLine: true, singleLine: true)
    }

    /// A Pindrop address written as its country writes it: its parts as `AddressParts(address, countryCode:)` has
    /// them ("Mannerheimintie 16\n00100 Helsinki\nSuomi"); with `singleLine`, the lines joined by ", ".
    public static func format(_ address: Address, countryCode: String?, singleLine: Bool = false) -> String {
        shared.format(address, countryCode: countryCode, streetLine: false, singleLine: singleLine)
    }

    /// The two above: the direct way read from the address itself, else its parts made and written.
    func format(_ address: Address, countryCode: String?, streetLine: Bool, singleLine: Bool) -> String {
        if let countryCode, let text = formatDirectly(address, countryCode: countryCode, streetLine: streetLine, singleLine: singleLine) {
            return text
        }
        let parts = streetLine ? AddressParts(streetLine: address, countryCode: countryCode) : AddressParts(address, countryCode: countryCode)
        return formatFully(parts, singleLine: singleLine, abbreviate: false, planned: true)
    }

    /// `parts` written as their country writes them (see the static `format`).
    public func format(_ parts: AddressParts, singleLine: Bool = false, abbreviate: Bool = false) -> String {
        format(parts, singleLine: singleLine, abbreviate: abbreviate, planned: true)
    }

    /// `format`; with `planned` false, the template rendered and tidied in full even where a plan would do (what the
    /// plans are checked against).
    func format(_ parts: AddressParts, singleLine: Bool, abbreviate: Bool, planned: Bool) -> String {
        if planned, !abbreviate, let text = formatDirectly(parts, singleLine: singleLine) { return text }
        return formatFully(parts, singleLine: singleLine, abbreviate: abbreviate, planned: planned)
    }

    /// `format` by every step, the template written through a plan where `planned` and one does.
    private func formatFully(_ parts: AddressParts, singleLine: Bool, abbreviate: Bool, planned: Bool) -> String {
        // The working values, one per slot, filled from the parts: an array of them all went through the runtime's
        // generic witnesses slot by slot to be made and freed, and a temporary allocation of this size (past the
        // stack's 1 KiB) through an aligned allocation that cost as much as a Finnish address's template.
        let values = AddressValues.allocate(capacity: components.count)
        values.initialize(repeating: nil)
        defer {
            // Nil in every slot again: nothing left to release when the memory is freed.
            for slot in values.indices where values[slot] != nil { values[slot] = nil }
            values.deallocate()
        }
        for entry in parts.entries { values[entry.slot] = entry.value }
        return write(values, parts: parts, singleLine: singleLine, abbreviate: abbreviate, planned: planned)
    }

    /// The steps of `format` on the working values (every slot initialized; nil again when it returns).
    private func write(_ values: AddressValues, parts: AddressParts, singleLine: Bool, abbreviate: Bool, planned: Bool) -> String {
        var others = parts.others
        let resolved = resolveCountry(values)
        let form = resolved?.form ?? defaultFormat
        sanitize(values, given: parts.entries, &others)
        // Most addresses name their parts by the main names ("road", "city"): no alias to read then.
        if parts.entries.contains(where: { components.isAlias[$0.slot] }) {
            components.fillFromAliases(values, districtIsNeighbourhood: resolved?.form?.districtIsNeighbourhood ?? (resolved == nil))
        }
        let hasRoadOrPostcode = values[components.road] != nil || values[components.postcode] != nil
        let template = hasRoadOrPostcode ? form.address ?? defaultFormat.address! : form.fallback ?? defaultFormat.fallback!
        fixNumericCountry(values)
        rewrite(values, &others, by: form, slots: rewrittenSlots[template])
        if resolved != nil { addCodes(values, form: form) }
        if others.count == 1 {
            values[components.attention] = others.first?.value
        } else if !others.isEmpty {
            values[components.attention] = others.sorted { $0.key < $1.key }.map(\.value).joined(separator: ", ")
        }
        if abbreviate { self.abbreviate(values, languages: form.languages) }
        var text: [UInt8] = []
        text.reserveCapacity(256)
        // Room for the steps that write a copy; made when one does (most addresses need none).
        var scratch: [UInt8] = []
        let settled: Bool, plan = planned ? plan(template, values) : nil
        if let plan {
            plan.write(values, into: &text)
            settled = AddressText.finish(&text, commas: plan.commas, scratch: &scratch)
        } else {
            templates[template].render(values, into: &text)
            settled = AddressText.clean(&text, scratch: &scratch)
        }
        return finish(&text, scratch: &scratch, settled: settled, commas: plan?.commas ?? true, form: form, singleLine: singleLine)
    }

    /// The steps after the tidying (`settled`: what it returned; `commas`: false when the text is known to have no
    /// comma): the parts once, the country's rewrites of the text, the tidying again where needed; as a string.
    func finish(_ text: inout [UInt8], scratch: inout [UInt8], settled: Bool, commas: Bool, form: CountryFormat,
                singleLine: Bool) -> String {
        // A text without commas has no ", " to split at.
        var changed = commas ? AddressText.distinctParts(&text, scratch: &scratch) : false
        if !form.postformat.isEmpty, text.withUnsafeBufferPointer({ form.postformatFilter.mayMatch($0) }) {
            for rule in form.postformat {
                if rule.pattern.replaceFirst(in: &text, with: rule.replacement) { changed = true }
            }
        }
        // The tidying again, unless the text is one it would leave as it is.
        if changed || !settled { AddressText.clean(&text, scratch: &scratch) }
        return Self.string(text, singleLine: singleLine)
    }

    /// The cleaned text (which ends in a newline) as a string, without its last newline; with `singleLine`, the
    /// lines joined by ", ".
    static func string(_ text: [UInt8], singleLine: Bool) -> String {
        let length = text.last == AddressText.newline ? text.count - 1 : text.count
        let breaks = singleLine ? text[..<length].count(where: { $0 == AddressText.newline }) : 0
        guard breaks > 0 else { return String(decoding: text[..<length], as: UTF8.self) }
        return String(unsafeUninitializedCapacity: length + breaks) { out in
            var n = 0
            for b in text[..<length] {
                if b == AddressText.newline {
                    out[n] = AddressText.comma
                    out[n + 1] = AddressText.space
                    n += 2
                } else {
                    out[n] = b
                    n += 1
                }
            }
            return n
        }
    }
}
