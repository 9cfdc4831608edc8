/// The steps before the template, in the reference's order: the country, the parts that cannot be written left
/// out, the aliases, a numeric country, the rewrites, the codes, the abbreviations.
extension AddressFormatter {
    /// The country whose form applies, as the reference picks it from `country_code`: two characters in any case
    /// ("uk" is GB); a territory written as another country (`use_country`) takes that country's form and the
    /// country line and state it names; in the Netherlands' form, Curaçao, Sint Maarten and Aruba their own. The
    /// code goes back into `country_code`. Nil when there is no code of two characters.
    func resolveCountry(_ values: AddressValues) -> (code: String, form: CountryFormat?)? {
        // Two characters: two bytes (two letters in ASCII, as nearly always) or, past ASCII, two scalars.
        guard let given = values[components.countryCode],
              given.utf8.count == 2 && given.utf8.first! < 0x80 || (given.utf8.count > 2 && given.unicodeScalars.count == 2)
        else { return nil }
        var form = country(given)
        // The form's own code spares upper-casing the given one.
        var code = form?.code ?? given.uppercased()
        if code == "UK" {
            code = "GB"
            form = country(code)
        }
        if let territory = form?.territory {
            if let line = territory.countryLine { values[components.country] = substituted(line, values) }
            if let state = territory.state { values[components.state] = state }
            code = territory.country
            form = country(code)
        }
        if code == "NL", let state = values[components.state] {
            let islands: [(prefix: String, code: String, name: String)] = [
                ("curaçao", "CW", "Curaçao"), ("sint maarten", "SX", "Sint Maarten"), ("aruba", "AW", "Aruba"),
            ]
            let lowercased = state.lowercased()
            if let island = islands.first(where: { $0.code == "CW" ? state == $0.name : lowercased.hasPrefix($0.prefix) }) {
                code = island.code
                form = country(code)
                values[components.country] = island.name
            }
        }
        values[components.countryCode] = form?.code ?? code
        return (form?.code ?? code, form)
    }

    /// A territory's country line with `$name` replaced by that component's value (nothing when it has none).
    private func substituted(_ line: String, _ values: AddressValues) -> String {
        guard let dollar = line.firstIndex(of: "$") else { return line }
        let nameEnd = line[line.index(after: dollar)...].firstIndex { !$0.isLetter && !$0.isNumber && $0 != "_" } ?? line.endIndex
        let name = String(line[line.index(after: dollar)..<nameEnd])
        let value = components.slotByName[name].flatMap { values[$0] } ?? ""
        return String(line[..<dollar]) + value + String(line[nameEnd...])
    }

    /// Leaves out what cannot be written: a part without a letter or digit, a web address, a postcode longer than
    /// 20 characters or naming a range ("12345;12346"); of two postcodes ("12345,12346") keeps the first.
    func sanitize(_ values: AddressValues, given: [AddressParts.Entry], _ others: inout [String: String]) {
        if let postcode = values[components.postcode],
           postcode.utf8.count > 20 || postcode.withUTF8Bytes({ $0.contains { $0 == 0x3B || $0 == 0x2C } }) {
            values[components.postcode] = checkedPostcode(postcode)
        }
        // The given parts' slots: the others hold the country's own data (its code, a territory's lines).
        for entry in given {
            if let value = values[entry.slot], !Self.isWritable(value) { values[entry.slot] = nil }
        }
        guard !others.isEmpty else { return }
        for (key, value) in others where !Self.isWritable(value) { others[key] = nil }
    }

    private func checkedPostcode(_ postcode: String) -> String? {
        if postcode.unicodeScalars.count > 20 { return nil }
        return postcode.withUTF8Bytes { text -> String? in
            if postcodeRange.firstMatch(in: text) != nil { return nil }
            if let pair = postcodePair.firstMatch(in: text) { return String(decoding: text[pair[2]..<pair[3]], as: UTF8.self) }
            return postcode
        }
    }

    /// Holds a letter or digit, and no "http://" or "https://".
    static func isWritable(_ value: String) -> Bool {
        value.withUTF8Bytes { text in
            // Most values start with a letter or digit in ASCII: no need to look for one further.
            let startsWithWord = text.first.map { ($0 | 0x20) &- 0x61 < 26 || $0 &- 0x30 < 10 } ?? false
            guard startsWithWord || TextScalars.containsWord(text) else { return false }
            var i = 4
            while i + 2 < text.count {
                if text[i] == UInt8(ascii: ":"), text[i + 1] == UInt8(ascii: "/"), text[i + 2] == UInt8(ascii: "/") {
                    let scheme = UnsafeBufferPointer(rebasing: text[..<i])
                    if scheme.suffix(4).elementsEqual("http".utf8) || scheme.suffix(5).elementsEqual("https".utf8) { return false }
                }
                i += 1
            }
            return true
        }
    }

    /// A country that is a number, with a state beside it: the state is the country (the reference's repair of
    /// such data).
    func fixNumericCountry(_ values: AddressValues) {
        guard let country = values[components.country], let state = values[components.state], Self.isNumber(country) else { return }
        values[components.country] = state
        values[components.state] = nil
    }

    /// A decimal number, maybe signed, with white space around it (Perl's `looks_like_number` but for "Inf" and
    /// "NaN"); its first character is looked at before it is parsed: no country's name starts like a number.
    static func isNumber(_ text: String) -> Bool {
        guard let first = text.utf8.first(where: { !AddressText.isSpace($0) }),
              (0x30...0x39).contains(first) || first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
        else { return false }
        return Double(text.trimmingWhitespace(newlines: true)) != nil
    }

    /// The country's rewrites, each rule in order on each part that can reach the text.
    func rewrite(_ values: AddressValues, _ others: inout [String: String], by form: CountryFormat, slots: [Int]) {
        let rules = form.replacements
        guard !rules.isEmpty else { return }
        for slot in slots {
            guard var value = values[slot], value.withUTF8Bytes({ form.mayRewrite($0, slot: slot) }) else { continue }
            for rule in rules { value = rule.apply(to: value, slot: slot) }
            values[slot] = value
        }
        guard !others.isEmpty else { return }
        for (key, original) in others where original.withUTF8Bytes({ form.rewriteFilter.mayMatch($0) }) {
            var value = original
            for rule in rules { value = rule.apply(to: value, slot: nil) }
            if value != original { others[key] = value }
        }
    }

    /// The state's and county's codes where the country has them (`state_code`, `county_code`), the name where a
    /// code was given in its place; in the United States "Washington, D.C." is the District of Columbia.
    func addCodes(_ values: AddressValues, form: CountryFormat) {
        addCode(values, from: form.stateCodes, name: components.state, code: components.stateCode)
        addCode(values, from: form.countyCodes, name: components.county, code: components.countyCode)
        if form.code == "US", values[components.stateCode] == nil, let state = values[components.state], Self.isWashingtonDC(state) {
            values[components.stateCode] = "DC"
            values[components.state] = "District of Columbia"
            values[components.city] = "Washington"
        }
    }

    private func addCode(_ values: AddressValues, from table: CodeTable?, name: Int, code: Int) {
        guard let table, let text = values[name] else { return }
        if let given = values[code], !given.utf8.elementsEqual(text.utf8) { return }
        guard let (found, fullName) = table.lookUp(text) else { return }
        values[code] = found
        if let fullName { values[name] = fullName }
    }

    /// "Washington DC", "washington, d.c." ...: the reference's `^washington,? d\.?c\.?`, in any case.
    static func isWashingtonDC(_ state: String) -> Bool {
        var rest = Substring(state.lowercased())
        guard rest.hasPrefix("washington") else { return false }
        rest = rest.dropFirst(10)
        if rest.first == "," { rest = rest.dropFirst() }
        guard rest.first == " " else { return false }
        rest = rest.dropFirst()
        guard rest.first == "d" else { return false }
        rest = rest.dropFirst()
        if rest.first == "." { rest = rest.dropFirst() }
        return rest.first == "c"
    }

    /// Common words shortened in the languages of the country (`abbreviations/`): the first "Avenue" in a road
    /// that stands as a word becomes "Ave".
    func abbreviate(_ values: AddressValues, languages: [Int]) {
        for language in languages {
            for abbreviation in abbreviations[language] {
                guard var value = values[abbreviation.slot], value.withUTF8Bytes({ abbreviation.filter.mayMatch($0) }) else { continue }
                for rule in abbreviation.rewrites {
                    if let shorter = rule.pattern.replacingFirst(in: value, with: rule.replacement) { value = shorter }
                }
                values[abbreviation.slot] = value
            }
        }
    }
}
