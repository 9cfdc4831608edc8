/// The direct way through the formatter. For most addresses the steps before the template (the country, the parts
/// left out, the aliases, a numeric country, the rewrites) change nothing but which template is used and which
/// slot holds which given value, and that depends only on the country and the set of parts given: a plan made once
/// for that pair (`DirectPlan`) writes such an address from its parts as they are, with the state's and county's
/// codes looked up as the full way looks them up.
extension AddressFormatter {
    /// `parts` written through the plan of its country and its set of parts, where the steps before the template
    /// would change no value; nil where one might (the full way then). Each check is the condition under which a
    /// step leaves the values as they are: a country code of two ASCII letters whose form `directForm` finds; each
    /// value plain, writable
    /// (starting with an ASCII letter or digit, or past ASCII and holding a letter or digit), without ":" (no web
    /// address) or ";" (no postcode range), and met by none of the country's rewrites; a postcode of at most 20
    /// bytes; at most one part the templates do not know; beside a state, a country that does not start with a
    /// digit; codes and names found that are plain; not the United States' "Washington, D.C.".
    func formatDirectly(_ parts: AddressParts, singleLine: Bool) -> String? {
        let entries = parts.entries
        guard entries.count < AddressPlan.marks.count, parts.others.count <= 1,
              let countryCode = entries.first(where: { $0.slot == components.countryCode })?.value,
              let (form, scope) = directForm(countryCode) else { return nil }
        var given = GivenSlots()
        for entry in entries { guard given.insert(entry.slot), isDirect(entry.value, slot: entry.slot, form) else { return nil } }
        let attention = parts.others.first?.value
        if let attention {
            guard isDirect(attention, form) else { return nil }
            given.high |= 1 << 63
        }
        return formatDirectly(form, scope: scope, given: given, attention: attention, singleLine: singleLine) { slot in
            entries.first { $0.slot == slot }?.value
        }
    }

    /// `formatDirectly` for a Pindrop address: the parts of `AddressParts(address, countryCode:)`, or with
    /// `streetLine` those of `AddressParts(streetLine:countryCode:)`, read from the address where they are (no
    /// parts made: making them cost a fifth of a street line).
    func formatDirectly(_ address: Address, countryCode: String, streetLine: Bool, singleLine: Bool) -> String? {
        guard let (form, scope) = directForm(countryCode) else { return nil }
        // The slots and values as plain locals: the closure below read them through copies of the components and
        // of the address, a third of a street line.
        let (countryCodeSlot, houseNumberSlot, roadSlot) = (components.countryCode, components.houseNumber, components.road)
        let (postcodeSlot, citySlot, suburbSlot) = (components.postcode, components.city, components.suburb)
        let (countySlot, stateSlot, countrySlot) = (components.county, components.state, components.country)
        let (houseNumber, street, postcode, town) = (address.houseNumber, address.street, address.postcode, address.town)
        let (suburb, county, state, country) = streetLine ? (nil, nil, nil, nil) : (address.suburb, address.county, address.state, address.country)
        var given = GivenSlots()
        /// Whether `value` (when there is one) can go the direct way; its slot counted as given.
        func add(_ slot: Int, _ value: String?) -> Bool {
            guard let value else { return true }
            _ = given.insert(slot)
            return isDirect(value, slot: slot, form)
        }
        guard add(countryCodeSlot, countryCode), add(houseNumberSlot, houseNumber), add(roadSlot, street),
              add(postcodeSlot, postcode), add(citySlot, town), add(suburbSlot, suburb), add(countySlot, county),
              add(stateSlot, state), add(countrySlot, country) else { return nil }
        return formatDirectly(form, scope: scope, given: given, attention: nil, singleLine: singleLine) { slot in
            switch slot {
            case countryCodeSlot: countryCode
            case houseNumberSlot: houseNumber
            case roadSlot: street
            case postcodeSlot: postcode
            case citySlot: town
            case suburbSlot: suburb
            case countySlot: county
            case stateSlot: state
            case countrySlot: country
            default: nil
            }
        }
    }

    /// The direct way in `form` (kept under `scope`) for the parts given, each checked (`isDirect`): `given`, each
    /// one's value as `givenValue` has it, and `attention`, the one part the templates do not know.
    private func formatDirectly(_ form: CountryFormat, scope: Int, given: GivenSlots, attention: String?, singleLine: Bool,
                                value givenValue: (Int) -> String?) -> String? {
        let (low, high) = (given.low, given.high)
        guard let plan = directPlans.plan(PlanKey(scope: Int32(scope), low: low, high: high),
                                          make: { directPlan(form, low: low, high: high) }) else { return nil }
        func value(_ slot: Int) -> String? {
            let source = Int(plan.sources[slot])
            return source < 0 ? nil : givenValue(source)
        }
        if plan.numberCheck, let first = value(components.country)?.utf8.first, first &- 0x30 < 10 { return nil }
        guard let state = code(form.stateCodes, name: components.state, code: components.stateCode, value),
              let county = code(form.countyCodes, name: components.county, code: components.countyCode, value) else { return nil }
        let stateName = state.name ?? value(components.state)
        if form.code == "US", state.code == nil, let stateName, Self.isWashingtonDC(stateName) { return nil }
        guard let skeleton = plan.variants[(state.code != nil ? 1 : 0) | (county.code != nil ? 2 : 0)] else { return nil }
        var text: [UInt8] = []
        text.reserveCapacity(256)
        skeleton.write(into: &text) { slot in
            switch slot {
            case components.countryCode: form.code
            case components.attention: attention
            case components.state: stateName
            case components.stateCode: state.code
            case components.county: county.name ?? value(slot)
            case components.countyCode: county.code
            default: value(slot)
            }
        }
        var scratch: [UInt8] = []
        let settled = AddressText.finish(&text, commas: skeleton.commas, scratch: &scratch)
        return finish(&text, scratch: &scratch, settled: settled, commas: skeleton.commas, form: form, singleLine: singleLine)
    }

    /// The form a country code's address is written in, where the direct way can take it: the country's own, or
    /// for a territory written wholly as another country (Liechtenstein as Switzerland: no country line or state of
    /// its own), that country's. Nil for the rest: other territories, "UK" (read as GB), the Netherlands (whose
    /// islands are told by the state), a form whose code is not plain; with the index its plans are kept under.
    private func directForm(_ countryCode: String) -> (form: CountryFormat, scope: Int)? {
        guard let n = Self.countryIndex(countryCode), var form = countries[n] else { return nil }
        if let territory = form.territory {
            guard territory.countryLine == nil, territory.state == nil, let target = country(territory.country),
                  target.territory == nil else { return nil }
            form = target
        }
        guard form.code != "UK", form.code != "NL", let scope = Self.countryIndex(form.code), isDirect(form.code, form) else { return nil }
        return (form, scope)
    }

    /// A state's or county's code and name after `addCode` (the code there, given or found; the full name found);
    /// nil where the code or name found is not plain.
    private func code(_ table: CodeTable?, name: Int, code: Int, _ given: (Int) -> String?) -> (code: String?, name: String?)? {
        let givenCode = given(code)
        guard let table, let text = given(name), givenCode == nil || givenCode == text, let (found, fullName) = table.lookUp(text)
        else { return (givenCode, nil) }
        guard AddressPlan.isPlain(found), fullName.map(AddressPlan.isPlain) ?? true else { return nil }
        return (found, fullName)
    }

    /// Plain (`AddressPlan.isPlain`), writable (starting with an ASCII letter or digit, or past ASCII and holding a
    /// letter or digit: `isWritable` without a web address), without ":" or ";", and met by none of the country's
    /// rewrites.
    private func isDirect(_ value: String, _ form: CountryFormat) -> Bool {
        value.withUTF8Bytes { t in
            guard let first = t.first, (first | 0x20) &- 0x61 < 26 || first &- 0x30 < 10 || (first >= 0x80 && TextScalars.containsWord(t)),
                  AddressPlan.isPlain(t, refusing: UInt8(ascii: ":"), UInt8(ascii: ";")) else { return false }
            return form.replacements.isEmpty || !form.anyRewriteFilter.mayMatch(t) || !form.rewritesAny(t)
        }
    }

    /// `isDirect` for a value given in `slot`, and a postcode of at most 20 bytes.
    private func isDirect(_ value: String, slot: Int, _ form: CountryFormat) -> Bool {
        isDirect(value, form) && (slot != components.postcode || value.utf8.count <= 20)
    }

    /// The plan for `form` and the slots given (bits of `low` and `high` as in `PlanKey`; the last bit of `high`: a
    /// part the templates do not know, written as `attention`): the aliases read and the template chosen as the
    /// full way does.
    private func directPlan(_ form: CountryFormat, low: UInt64, high: UInt64) -> DirectPlan? {
        let values = AddressValues.allocate(capacity: components.count)
        values.initialize(repeating: nil)
        defer {
            for slot in values.indices { values[slot] = nil }
            values.deallocate()
        }
        var given: [Int] = []
        for slot in 0..<min(components.count, 127) where (slot < 64 ? low >> slot : high >> (slot - 64)) & 1 != 0 {
            values[slot] = AddressPlan.mark(given.count)
            given.append(slot)
        }
        if high >> 63 != 0 {
            values[components.attention] = AddressPlan.mark(given.count)
            given.append(components.attention)
        }
        components.fillFromAliases(values, districtIsNeighbourhood: form.districtIsNeighbourhood)
        let sources = values.map { value in value.flatMap { $0.utf8.first }.flatMap { AddressPlan.marks.firstIndex(of: $0) }.map { Int32(given[$0]) } ?? -1 }
        let hasRoadOrPostcode = values[components.road] != nil || values[components.postcode] != nil
        let template = templates[hasRoadOrPostcode ? form.address ?? defaultFormat.address! : form.fallback ?? defaultFormat.fallback!]
        guard template.slots.count <= AddressPlan.marks.count else { return nil }
        // One skeleton for each way the codes may come out: a state code there or not, a county code there or not.
        let variants = (0..<4).map { variant -> AddressPlan? in
            for slot in values.indices { values[slot] = nil }
            for (k, slot) in template.slots.enumerated() {
                let there = slot == components.stateCode ? variant & 1 != 0
                    : slot == components.countyCode ? variant & 2 != 0 : sources[slot] >= 0 || slot == components.countryCode
                if there { values[slot] = AddressPlan.mark(k) }
            }
            return AddressPlan(template, marked: values, sources: template.slots)
        }
        let numberCheck = sources[components.state] >= 0 && sources[components.country] >= 0
        return DirectPlan(sources: sources, variants: variants, numberCheck: numberCheck)
    }
}

/// The slots of the parts given, below 127 (bit n of `low`, then of `high`: slot n, 64 + n; the last bit of `high`
/// is kept for a part the templates do not know).
struct GivenSlots {
    var low: UInt64 = 0, high: UInt64 = 0

    /// Adds `slot`; false when it is past the slots kept.
    mutating func insert(_ slot: Int) -> Bool {
        guard slot < 127 else { return false }
        if slot < 64 { low |= 1 << slot } else { high |= 1 << (slot - 64) }
        return true
    }
}

/// A country's plan for a set of given parts (`formatDirectly`).
final class DirectPlan: Sendable {
    /// By slot: the given slot whose value it holds once the aliases are read; -1 for none.
    let sources: [Int32]
    /// The template's plan with no state or county code (0), a state code (1), a county code (2), both (3).
    let variants: [AddressPlan?]
    /// Whether the country's value must not look like a number (it is beside a state: `fixNumericCountry`).
    let numberCheck: Bool

    init(sources: [Int32], variants: [AddressPlan?], numberCheck: Bool) {
        (self.sources, self.variants, self.numberCheck) = (sources, variants, numberCheck)
    }
}
