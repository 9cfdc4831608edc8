import PindropCore
import Testing

/// The reader's languages as Nominatim reads them (docs/api/Search.md "Language of results"; its `Locales`).
@Suite("Languages of an Accept-Language list")
struct LanguagePreferenceTests {
    @Test("items in order of weight, ties in the order given; after a regional tag its language, unless listed",
          arguments: [
              ("zh,de", ["zh", "de"]),
              ("xx,fr,en,de", ["xx", "fr", "en", "de"]),
              // Nominatim's language scenarios: the header's weights put Faroese first.
              ("fo;q=0.8,en-ca;q=0.5,en;q=0.3", ["fo", "en-ca", "en"]),
              ("fr-ca,fr;q=0.8,en-ca;q=0.5,en;q=0.3", ["fr-ca", "fr", "en-ca", "en"]),
              ("fo-ca,en-ca;q=0.5", ["fo-ca", "fo", "en-ca", "en"]),
              ("fo-FR;q=0.8,en-ca;q=0.5", ["fo-FR", "fo", "en-ca", "en"]),
              ("de;q=0.5, fi , sv;q=0.9", ["fi", "sv", "de"]),
              ("en;q=0", ["en"]),
          ])
    func ordered(list: String, expected: [String]) {
        #expect(LanguagePreference.languages(from: list) == expected)
    }

    @Test("items that do not read are skipped; a list of none is empty",
          arguments: [
              ("*", [String]()), ("", []), ("1,2", []), ("de;q=2", []), ("de;q=x", []), ("de;x=1", []),
              ("*, de;q=0.5, zh-Hant-TW", ["zh-Hant-TW", "zh", "de"]), ("e n,fr", ["fr"]),
          ])
    func skipped(list: String, expected: [String]) {
        #expect(LanguagePreference.languages(from: list) == expected)
    }

    @Test("a long list keeps its first languages only")
    func bounded() {
        let list = (0..<100).map { "l\(String(UnicodeScalar(97 + $0 % 26)!))\(String(UnicodeScalar(97 + $0 / 26)!))" }.joined(separator: ",")
        #expect(LanguagePreference.languages(from: list).count == LanguagePreference.maxLanguages)
    }

    @Test("requests carry the languages and echo them; a language that is not a tag is refused")
    func requests() throws {
        let search = try SearchRequest(text: "Vaduz", languages: ["de", "en"])
        #expect(search.languages == ["de", "en"])
        #expect(search.echo.contains { $0.0 == "lang" && $0.1 == .text("de,en") })
        #expect(try SearchRequest(text: "Vaduz").echo.contains { $0.0 == "lang" } == false)
        #expect(try SuggestRequest(text: "Vad", languages: ["fo"]).languages == ["fo"])
        let reverse = try ReverseRequest(coordinate: Coordinate(latitude: 47.14, longitude: 9.52), languages: ["zh"])
        #expect(reverse.echo.contains { $0.0 == "lang" && $0.1 == .text("zh") })
        #expect(throws: PindropError.self) { try SearchRequest(text: "Vaduz", languages: ["de;q=1"]) }
        #expect(throws: PindropError.self) { try SearchRequest(text: "Vaduz", languages: Array(repeating: "de", count: 17)) }
    }

    @Test("a place's name for a reader: the first language its tags name it in, else its own name")
    func names() {
        var place = Place(id: "osm:relation/1155955", name: "Liechtenstein", displayName: "Liechtenstein",
                          coordinate: Coordinate(latitude: 47.14, longitude: 9.55))
        place.tags = ["name:zh": "列支敦士登", "name:fo": "Liktinstein", "name:de": "Liechtenstein", "wikidata": "Q347"]
        #expect(place.name(for: ["zh", "de"]) == "列支敦士登")
        #expect(place.name(for: ["xx", "fo"]) == "Liktinstein")
        #expect(place.name(for: ["xx"]) == "Liechtenstein")
        #expect(place.name(for: []) == "Liechtenstein")
        #expect(PlaceTags.name(in: place.tags ?? [:], languages: ["en"]) == nil)
    }
}
