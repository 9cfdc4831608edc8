import Foundation
import PindropCore

/// The words people search categories of places by ("restaurants", "Apotheke", "musées"), in English, German and
/// French, each meaning an OpenStreetMap tag (amenity=restaurant), read from the shipped list
/// (Resources/category-phrases.tsv); and the reading of a text as a category query: "restaurants in Vaduz", "Hotel in
/// Triesen", "pub near Schaan", "cafés near me", "[amenity=pub] Vaduz", "[restaurant] Vaduz", or a category alone.
struct CategoryPhrases: Sendable {
    /// A tag a phrase means.
    struct Tag: Hashable, Sendable { var key: String, value: String }

    /// Folded phrase, as words → the tags it means.
    let tags: [[String]: [Tag]]
    /// The longest phrase, in words.
    let longest: Int
    /// Every phrase's first word, folded: a text whose first word is none of these is no category query, told without
    /// parsing it.
    let firstWords: Set<[UInt8]>

    /// The shipped list, read once.
    static let shipped: CategoryPhrases = {
        guard let url = Bundle.module.url(forResource: "category-phrases", withExtension: "tsv"),
              let text = try? String(contentsOf: url, encoding: .utf8) else { return CategoryPhrases(rows: "") }
        return CategoryPhrases(rows: text)
    }()

    /// From the list's rows: language, word, plural, key, value, tab-separated; "#" starts a comment.
    init(rows: String) {
        var tags: [[String]: [Tag]] = [:]
        for line in rows.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5 else { continue }
            let tag = Tag(key: fields[3], value: fields[4])
            for phrase in [fields[1], fields[2]] {
                let words = Self.words(phrase)
                if !words.isEmpty, !(tags[words]?.contains(tag) ?? false) { tags[words, default: []].append(tag) }
            }
        }
        self.tags = tags
        longest = tags.keys.map(\.count).max() ?? 0
        firstWords = Set(tags.keys.compactMap { $0.first.map { Array($0.utf8) } })
    }

    /// The folded words of a text.
    static func words(_ text: some StringProtocol) -> [String] {
        TextFolding.fold(text).split(separator: " ").map(String.init)
    }

    /// Words that tie a category to what follows it: "in", "near"…, longest first.
    static let operators: [(words: [String], near: Bool)] = [
        (["in", "der", "nahe", "von"], true), (["in", "der", "nahe"], true), (["pres", "de"], true), (["autour", "de"], true),
        (["near"], true), (["around"], true), (["nearby"], true), (["bei"], true), (["nahe"], true), (["close", "to"], true),
        (["in"], false), (["within"], false), (["dans"], false), (["a"], false), (["en"], false),
    ]

    /// The user's own position named after an operator ("near me", "bei mir", "près de moi").
    static let userWords: Set<String> = ["me", "mir", "mich", "moi", "here", "hier", "ici", "you"]

    /// Whether a text may be a category query: it starts with "[", or its folded first word starts a phrase.
    func mayStart(_ text: String, folded key: [UInt8]) -> Bool {
        if text.utf8.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "[") { return true }
        let end = key.firstIndex(of: 0x20) ?? key.endIndex
        return firstWords.contains(Array(key[..<end]))
    }

    /// The text as a category query, or nil when it does not start with a category (bracketed or a phrase).
    func query(_ text: String) -> CategoryQuery? {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") {
            let inside = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
            let tags = bracketed(inside)
            guard !tags.isEmpty else { return nil }
            return finish(tags, rest: Array(trimmed[trimmed.index(after: close)...].split(whereSeparator: \.isWhitespace)), explicit: true)
        }
        let original = trimmed.split(whereSeparator: \.isWhitespace)
        let folded = original.map { TextFolding.fold($0) }
        for n in stride(from: min(longest, folded.count), through: 1, by: -1) {
            if let tags = tags[Array(folded[..<n])] { return finish(tags, rest: Array(original[n...]), explicit: false) }
        }
        return nil
    }

    /// "[amenity=pub]" → amenity=pub; "[restaurant]" → every tag of that value the list knows, else amenity=restaurant.
    private func bracketed(_ inside: Substring) -> [Tag] {
        let parts = inside.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty { return [Tag(key: parts[0], value: parts[1])] }
        guard parts.count == 1, !parts[0].isEmpty else { return [] }
        let known = Set(tags.values.joined().filter { $0.value == parts[0] })
        return known.isEmpty ? [Tag(key: "amenity", value: parts[0])] : known.sorted { $0.key < $1.key }
    }

    /// The query of `tags` with the words after them: an operator, then where (a place's name, or the user's position).
    private func finish(_ tags: [Tag], rest: [Substring], explicit: Bool) -> CategoryQuery {
        let folded = rest.map { TextFolding.fold($0) }
        for op in Self.operators where folded.starts(with: op.words) {
            let place = rest.dropFirst(op.words.count)
            let atUser = place.count == 1 && Self.userWords.contains(TextFolding.fold(place[place.startIndex]))
            return CategoryQuery(tags: tags, near: op.near || atUser, place: atUser ? "" : place.joined(separator: " "), explicit: true)
        }
        return CategoryQuery(tags: tags, near: false, place: rest.joined(separator: " "), explicit: explicit)
    }
}

/// A search for places of a category: its tags, and where — in or near a named place, near the user or in the view
/// when `place` is empty.
struct CategoryQuery: Equatable {
    var tags: [CategoryPhrases.Tag]
    /// Whether the places are wanted near `place` (nearest first) rather than in it.
    var near: Bool
    /// The place named after the category ("Vaduz"), as typed; empty for none.
    var place: String
    /// Whether the text is plainly a category query (brackets, or an operator: "in", "near") rather than words that may
    /// also be a name ("Post", "Schloss Vaduz", "Hotel Real"), which are read as a name first.
    var explicit: Bool
}
