import Testing
@testable import PindropIndex

/// How a text reads as a search for a category of places, with the shipped list of words.
@Suite("Category phrases")
struct CategoryPhrasesTests {
    static let phrases = CategoryPhrases.shipped

    static func read(_ text: String) -> String? {
        guard let q = phrases.query(text) else { return nil }
        let tags = q.tags.map { "\($0.key)=\($0.value)" }.joined(separator: "|")
        return "\(tags) \(q.near ? "near" : "in") \"\(q.place)\"\(q.explicit ? "" : " ?")"
    }

    @Test("a category, a word tying it to a place, and the place: in English, German and French", arguments: [
        ("restaurants in Vaduz", #"amenity=restaurant in "Vaduz""#),
        ("Hotel in Triesen", #"tourism=hotel in "Triesen""#),
        ("pub near Schaan", #"amenity=pub near "Schaan""#),
        ("Apotheken in Vaduz", #"amenity=pharmacy in "Vaduz""#),
        ("Restaurant in der Nähe von Balzers", #"amenity=restaurant near "Balzers""#),
        ("musées à Paris", #"tourism=museum in "Paris""#),
        ("pharmacie près de Lyon", #"amenity=pharmacy near "Lyon""#),
        ("bars in ebenholz", #"amenity=bar in "ebenholz""#),
        ("coffee shops near Kamppi", #"amenity=cafe near "Kamppi""#),
    ])
    func categoryAndPlace(text: String, reading: String) {
        #expect(Self.read(text) == reading)
    }

    @Test("near the user, and a category alone", arguments: [
        ("cafés near me", #"amenity=cafe near """#),
        ("Cafés bei mir", #"amenity=cafe near """#),
        ("restaurants nearby", #"amenity=restaurant near """#),
        ("restaurants", #"amenity=restaurant in "" ?"#),
        ("Post", #"amenity=post_office in "" ?"#),
    ])
    func nearUserAndAlone(text: String, reading: String) {
        #expect(Self.read(text) == reading)
    }

    @Test("a tag in brackets, by key and value or by value alone", arguments: [
        ("[amenity=pub] Vaduz", #"amenity=pub in "Vaduz""#),
        ("[leisure=firepit]   47.150° N 9.5340493° E", #"leisure=firepit in "47.150° N 9.5340493° E""#),
        ("[restaurant] Vaduz", #"amenity=restaurant in "Vaduz""#),
        ("[club=scout]", #"club=scout in """#),
    ])
    func bracketed(text: String, reading: String) {
        #expect(Self.read(text) == reading)
    }

    @Test("words that may be a name are read as a name first", arguments: [
        ("Schloss Vaduz", #"historic=castle in "Vaduz" ?"#), ("Hotel Real", #"tourism=hotel in "Real" ?"#),
    ])
    func maybeName(text: String, reading: String) {
        #expect(Self.read(text) == reading)
    }

    @Test("names that start with no category word are no category query", arguments: ["Vaduz", "Mannerheimintie 5", "Städtle", "[]", "[=]"])
    func notACategory(text: String) {
        #expect(Self.read(text) == nil)
    }

    @Test("every word of the list reads as its tag, in each of its languages")
    func everyWord() {
        #expect(Self.phrases.tags.count > 300)
        #expect(Self.phrases.tags[["apotheke"]] == [CategoryPhrases.Tag(key: "amenity", value: "pharmacy")])
        #expect(Self.phrases.tags[["bank"]] == [CategoryPhrases.Tag(key: "amenity", value: "bank")])
        #expect(Self.phrases.tags[["musees"]] == [CategoryPhrases.Tag(key: "tourism", value: "museum")])
    }
}
