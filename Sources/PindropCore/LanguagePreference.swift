/// The languages a person reads, best first, from the list an HTTP `Accept-Language` header, Nominatim's
/// `accept-language` parameter, `/v1`'s `lang` and the CLI's `--lang` give ("fo;q=0.8,en-ca;q=0.5,en;q=0.3"), read as
/// Nominatim reads it: each item a language tag with an optional weight, items that do not read skipped, the rest in
/// order of weight (ties in the order given), and after a regional tag ("en-ca") its language ("en") unless the list
/// names that language itself.
public enum LanguagePreference {
    /// Most languages kept from one list: a header can be long, and each language costs every answer a lookup.
    public static let maxLanguages = 16
    /// Longest language tag kept (BCP 47's longest registered tags are under 20 characters).
    public static let maxTagLength = 35

    /// The languages of `list`, best first; empty when nothing in it reads as a language ("*", "", "1,2").
    public static func languages(from list: String) -> [String] {
        var weighted: [(tag: String, weight: Double)] = []
        for item in list.split(separator: ",", omittingEmptySubsequences: false) where weighted.count < maxLanguages {
            if let entry = entry(item) { weighted.append(entry) }
        }
        // A stable sort by weight: Swift's sort is not stable, so ties keep their order by index.
        let ordered = weighted.enumerated().sorted { a, b in
            a.element.weight != b.element.weight ? a.element.weight > b.element.weight : a.offset < b.offset
        }.map(\.element.tag)
        var languages: [String] = []
        for tag in ordered {
            languages.append(tag)
            if let dash = tag.firstIndex(of: "-") {
                let base = String(tag[..<dash])
                if !ordered.contains(base) { languages.append(base) }
            }
        }
        return Array(languages.prefix(maxLanguages))
    }

    /// One item, "de-CH" or "en;q=0.5" (spaces allowed around each part): its tag and weight (1 when not given); nil
    /// for an item that is not a tag of letters, "-" and "_", or whose weight is not 0 … 1 as Nominatim writes it.
    static func entry(_ item: Substring) -> (tag: String, weight: Double)? {
        let parts = item.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)
        let tag = parts[0].trimmingSpaces()
        guard isTag(tag) else { return nil }
        guard parts.count == 2 else { return (String(tag), 1) }
        let weight = parts[1].trimmingSpaces()
        guard weight.first == "q" || weight.first == "Q" else { return nil }
        let value = weight.dropFirst().trimmingSpaces()
        guard value.first == "=" else { return nil }
        let number = value.dropFirst().trimmingSpaces()
        // Nominatim's pattern: "0" or "1", then optionally "." and digits.
        guard let first = number.first, first == "0" || first == "1",
              number.dropFirst().isEmpty || number.dropFirst().first == "." && number.dropFirst(2).allSatisfy(\.isASCIIDigit)
                  && !number.dropFirst(2).isEmpty,
              let q = Double(number)
        else { return nil }
        return (String(tag), q)
    }

    /// Whether `text` is a language tag as Nominatim accepts one: ASCII letters, "-" and "_", at most `maxTagLength`.
    public static func isTag(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.count <= maxTagLength
            && text.allSatisfy { $0.isASCII && ($0.isLetter || $0 == "-" || $0 == "_") }
    }
}

extension Character {
    /// "0" … "9" only (`isWholeNumber` is true for other scripts' digits too).
    var isASCIIDigit: Bool { isASCII && isWholeNumber }
}

extension Substring {
    /// Without white space at either end.
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
