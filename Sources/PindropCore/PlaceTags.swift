import Foundation

/// Which OpenStreetMap tags a place keeps beyond its name and address (`Place.tags`), and how they read: its names in
/// every language and form, and the extra tags Nominatim returns with `extratags=1`.
public enum PlaceTags {
    /// Name keys beside `name` and `name:<language>`: what a place is also called, searched as its other names.
    public static let otherNameKeys: Set<String> = ["alt_name", "old_name", "official_name", "short_name", "int_name", "loc_name",
                                                     "nat_name", "reg_name", "ref"]

    /// Whether `key` is one of a place's names: `name`, `name:<language>`, or one of `otherNameKeys` (and their
    /// `:<language>` forms, "alt_name:de").
    public static func isName(_ key: String) -> Bool {
        if key == "name" || key.hasPrefix("name:") { return true }
        return otherNameKeys.contains(String(base(of: key)))
    }

    /// The part of a tag key before its first `:` ("alt_name" of "alt_name:de"); the key itself when it has none.
    /// Read for every tag of every object an import reads: a slice, no array of parts.
    public static func base(of key: String) -> Substring {
        key.utf8.firstIndex(of: UInt8(ascii: ":")).map { key[..<$0] } ?? key[...]
    }

    /// The extra tags kept: what Nominatim's extratags most often carry and what a place card shows.
    public static let extraKeys: Set<String> = [
        "wikidata", "wikipedia", "website", "contact:website", "url", "phone", "contact:phone", "email", "contact:email",
        "opening_hours", "population", "capital", "ele", "cuisine", "wheelchair", "operator", "brand", "description",
        "internet_access", "fee", "start_date", "heritage", "architect", "denomination", "religion", "sport", "surface",
        "linked_place", "place", "admin_level",
    ]

    /// The name in `language` (an ISO 639 code, "de", or with a region, "zh-Hans"): `name:<language>`, else nil.
    public static func name(in tags: [String: String], language: String) -> String? {
        tags["name:\(language)"] ?? language.split(separator: "-").first.flatMap { tags["name:\($0)"] }
    }

    /// The tags as one text, for a store's column: a JSON object, its keys sorted; nil for none.
    public static func text(_ tags: [String: String]?) -> String? {
        guard let tags, !tags.isEmpty, let data = try? JSONEncoder.sortingKeys.encode(tags) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The tags `text` gives back; nil for none.
    public static func tags(text: String?) -> [String: String]? {
        text.flatMap { try? JSONDecoder().decode([String: String].self, from: Data($0.utf8)) }
    }
}

extension JSONEncoder {
    /// An encoder that writes object keys sorted, so equal values give equal texts.
    fileprivate static var sortingKeys: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

extension PlaceTags {
    /// The name a reader of `languages` (best first, as `LanguagePreference` lists them) sees, as Nominatim picks it:
    /// the first `name:<language>` the tags have; nil when none has one (the place's own `name` is the answer then).
    public static func name(in tags: [String: String], languages: [String]) -> String? {
        for language in languages {
            if let name = tags["name:\(language)"] { return name }
        }
        return nil
    }
}

extension Place {
    /// The place's name for a reader of `languages` (`PlaceTags.name(in:languages:)`), else its own `name`.
    public func name(for languages: [String]) -> String {
        guard !languages.isEmpty, let tags else { return name }
        return PlaceTags.name(in: tags, languages: languages) ?? name
    }
}
