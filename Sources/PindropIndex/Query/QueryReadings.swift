import PindropCore

/// The ways a typed text can be read, in the order they are tried: the first reading that finds anything answers.
/// A pure value, made from the text alone, so what a text means is tested with tables of texts and readings
/// (QueryReadingsTests) without an index.
///
/// Search reads "Springfield, IL" as a name and the qualifiers after each comma; "Paris France" (no comma) first as a
/// whole name, then as a name and a trailing qualifier, longest name first; "Postikuja 2, 2. krs." as a whole name
/// when the comma reading finds nothing (a comma inside a name); then as a name one or two typos away; and last with
/// its qualifiers naming parts of towns too ("Lochgass 5, Ebenholz"). Suggest
/// reads the text before the first comma as the start of a name (a trailing space ends the last word: "new " is not
/// "Newark"), then with typos; with a comma, the rest as qualifiers whose last one is still being typed.
/// A new kind of reading (a postcode, a category word) is a new case here, tried in its place in the order.
struct QueryReadings: Sequence {
    /// One way to read the text.
    struct Reading: Equatable, CustomStringConvertible {
        /// The folded name to look up.
        var key: [UInt8]
        /// Folded texts that must each name the place's country, admin1 division or town.
        var qualifiers: [String] = []
        /// Whether the last qualifier is still being typed (a prefix of what it names).
        var lastIsPrefix = false
        /// Which matches of the key count.
        var mode: Candidate.Mode
        /// Whether the key is matched one or two typos away instead of as typed.
        var typos = false
        /// Whether only streets answer: the text without a house number that no address has ("Bündaweg 555").
        var streetsOnly = false
        /// Whether a qualifier may also name a part of the town a street-level place lies in ("Lochgass 5, Ebenholz").
        var partsOfTown = false

        var description: String {
            let key = String(decoding: key, as: UTF8.self)
            let kind = typos ? "typos" : streetsOnly ? "streets" : partsOfTown ? "parts" : "\(mode)"
            return qualifiers.isEmpty ? "\(kind) \"\(key)\"" : "\(kind) \"\(key)\" in \(qualifiers)\(lastIsPrefix ? "…" : "")"
        }
    }

    /// The text as asked.
    let text: String
    /// The folded name the text is first read as (empty: the text has none, and no reading).
    let nameKey: [UInt8]
    /// The folded qualifiers after the name's comma.
    let qualifiers: [String]
    /// Whether these are a suggestion's readings.
    let suggesting: Bool
    /// Whether the text has a comma (a suggestion's qualifiers are being typed).
    let hasComma: Bool

    /// The readings of a search.
    init(search text: String) {
        let parts = text.split(separator: ",").map { TextFolding.fold($0) }
        self.text = text
        nameKey = Array((parts.first ?? "").utf8)
        qualifiers = Array(parts.dropFirst().filter { !$0.isEmpty })
        suggesting = false
        hasComma = !qualifiers.isEmpty
    }

    /// The readings of search as you type.
    init(suggest text: String) {
        self.text = text
        suggesting = true
        // The first comma found in the bytes: splitting the text by Characters costs more than folding it.
        let comma = text.utf8.firstIndex(of: UInt8(ascii: ","))
        hasComma = comma != nil
        var key: [UInt8] = []
        TextFolding.fold(text[..<(comma ?? text.endIndex)], into: &key)
        // A trailing space means the last word is complete: "new " should not suggest "Newark".
        if comma == nil, !key.isEmpty, text.utf8.last == 0x20 { key.append(0x20) }
        nameKey = key
        qualifiers = comma == nil ? [] : text.split(separator: ",", omittingEmptySubsequences: false).dropFirst()
            .map { TextFolding.fold($0) }.filter { !$0.isEmpty }
    }

    func makeIterator() -> Iterator { Iterator(readings: self) }

    /// The name when it is a postcode written with more than its postcode place's name: after a country's prefix of one
    /// to three letters ("fl 9490" → "9490"), or a ZIP+4 ("10118 0110", "us 10118 0110" → "10118"); else nil.
    var postcodeKey: [UInt8]? {
        var code = nameKey[...]
        if let space = code.firstIndex(of: 0x20), (1...3).contains(space), code[..<space].allSatisfy({ (0x61...0x7A).contains($0) }),
           let first = code.dropFirst(space + 1).first, (0x30...0x39).contains(first) {
            code = code[(space + 1)...]
        }
        if let zip = Postcode.fiveDigitZIP(of: String(decoding: code, as: UTF8.self)) { return Array(zip.utf8) }
        return code.count < nameKey.count ? Array(code) : nil
    }

    /// The name without its house number, when one word of it is one ("52 bodastr", "bundaweg 555a" → the street);
    /// nil otherwise, or when what is left is too short to name a street.
    var nameWithoutHouseNumber: [UInt8]? {
        let words = String(decoding: nameKey, as: UTF8.self).split(separator: " ")
        guard words.count >= 2 else { return nil }
        func isHouseNumber(_ word: Substring) -> Bool {
            let digits = word.prefix { $0.isASCII && $0.isNumber }
            return !digits.isEmpty && digits.count <= 5 && word.count - digits.count <= 1 && word.allSatisfy { $0.isASCII }
        }
        let rest = isHouseNumber(words[0]) ? words.dropFirst() : isHouseNumber(words[words.count - 1]) ? words.dropLast() : nil
        guard let rest, rest.joined().count >= 3, !rest.contains(where: isHouseNumber) else { return nil }
        return Array(rest.joined(separator: " ").utf8)
    }

    /// The readings one at a time, each made only when asked for (most texts are answered by the first).
    struct Iterator: IteratorProtocol {
        let readings: QueryReadings
        /// How many readings have been given.
        var given = 0
        /// A search's words, once its name is split into name and qualifier.
        var words: [Substring]?

        mutating func next() -> Reading? {
            guard !readings.nameKey.isEmpty else { return nil }
            given += 1
            return readings.suggesting ? nextSuggestion() : nextSearch()
        }

        private func nextSuggestion() -> Reading? {
            let r = readings
            if r.hasComma { return given == 1 ? Reading(key: r.nameKey, qualifiers: r.qualifiers, lastIsPrefix: true, mode: .search) : nil }
            switch given {
            case 1: return Reading(key: r.nameKey, mode: .suggest)
            case 2: return Reading(key: r.nameKey, mode: .suggest, typos: true)
            default: return nil
            }
        }

        private mutating func nextSearch() -> Reading? {
            let r = readings
            if given == 1 { return Reading(key: r.nameKey, qualifiers: r.qualifiers, mode: .search) }
            if r.hasComma {
                // A comma that is part of a name ("Postikuja 2, 2. krs.", "Salon X, parturi"): the whole text as a name.
                if given == 2 { return Reading(key: Array(TextFolding.fold(r.text).utf8), mode: .search) }
            } else {
                // "Paris France", "Portland Oregon": the last words as a qualifier, the longest name first.
                let words = self.words ?? String(decoding: r.nameKey, as: UTF8.self).split(separator: " ")
                self.words = words
                let split = words.count - (given - 1)
                if split >= 1 {
                    return Reading(key: Array(words[..<split].joined(separator: " ").utf8),
                                   qualifiers: [words[split...].joined(separator: " ")], mode: .exact)
                }
            }
            // A postcode written with its country's prefix ("FL-9490", "D 80331") or as a ZIP+4: its postcode place's name.
            let lastSplit = r.hasComma ? 2 : Swift.max(words?.count ?? 1, 1)
            if given == lastSplit + 1 {
                if let code = r.postcodeKey { return Reading(key: code, qualifiers: r.qualifiers, mode: .exact) }
                given += 1
            }
            // A house number no address has: the street, as Nominatim falls back to it.
            if given == lastSplit + 2 {
                if let street = r.nameWithoutHouseNumber { return Reading(key: street, qualifiers: r.qualifiers, mode: .search, streetsOnly: true) }
                given += 1
            }
            // Typos only when the text matches nothing as typed: exact and prefix matches always rank above typo
            // matches, so they would only trail behind.
            if given == lastSplit + 3 { return Reading(key: r.nameKey, qualifiers: r.qualifiers, mode: .search, typos: true) }
            // Last, qualifiers that name no town may name a part of one, as Nominatim matches any part of an address;
            // not earlier, or "Landstrasse, Triesen" could find another town's street in a quarter called Triesen.
            return given == lastSplit + 4 && !r.qualifiers.isEmpty
                ? Reading(key: r.nameKey, qualifiers: r.qualifiers, mode: .search, partsOfTown: true) : nil
        }
    }

    /// Letters in a folded key, spaces not counted: typo tolerance and corrections go by it.
    static func letterCount(_ key: [UInt8]) -> Int {
        // The key's scalars other than spaces: its UTF-8 bytes that start one.
        key.reduce(0) { $0 + ($1 & 0xC0 != 0x80 && $1 != 0x20 ? 1 : 0) }
    }
}
