import Testing
@testable import PindropIndex

/// What a typed text means, as readings tried in order: tables of texts and the readings they give, no index needed.
@Suite("Query readings")
struct QueryReadingsTests {
    static func readings(search text: String) -> [String] { QueryReadings(search: text).map(\.description) }
    static func readings(suggest text: String) -> [String] { QueryReadings(suggest: text).map(\.description) }

    @Test("a search reads a name, then its last words as qualifiers (longest name first), the street of a house number, then typos",
          arguments: [
        ("Helsinki", [#"search "helsinki""#, #"typos "helsinki""#]),
        ("Paris France", [#"search "paris france""#, #"exact "paris" in ["france"]"#, #"typos "paris france""#]),
        // A postcode after its country's prefix is also read as the code alone.
        ("FL-9490", [#"search "fl 9490""#, #"exact "fl" in ["9490"]"#, #"exact "9490""#, #"typos "fl 9490""#]),
        // A ZIP+4 is also read as its five digits, the code its postcode place is named by.
        ("10118-0110", [#"search "10118 0110""#, #"exact "10118" in ["0110"]"#, #"exact "10118""#, #"typos "10118 0110""#]),
        ("US 10118-0110", [#"search "us 10118 0110""#, #"exact "us 10118" in ["0110"]"#, #"exact "us" in ["10118 0110"]"#,
                           #"exact "10118""#, #"typos "us 10118 0110""#]),
        ("9490 Vaduz", [#"search "9490 vaduz""#, #"exact "9490" in ["vaduz"]"#, #"streets "vaduz""#, #"typos "9490 vaduz""#]),
        // A house number no address has: the street alone, streets only.
        ("Bündaweg 555", [#"search "bundaweg 555""#, #"exact "bundaweg" in ["555"]"#, #"streets "bundaweg""#, #"typos "bundaweg 555""#]),
        ("12a Main", [#"search "12a main""#, #"exact "12a" in ["main"]"#, #"streets "main""#, #"typos "12a main""#]),
        // Too short to name a street, or two numbers: no street reading.
        ("5 B", [#"search "5 b""#, #"exact "5" in ["b"]"#, #"typos "5 b""#]),
        ("Route 66 4", [#"search "route 66 4""#, #"exact "route 66" in ["4"]"#, #"exact "route" in ["66 4"]"#, #"typos "route 66 4""#]),
        ("New York City USA", [#"search "new york city usa""#, #"exact "new york city" in ["usa"]"#,
                               #"exact "new york" in ["city usa"]"#, #"exact "new" in ["york city usa"]"#, #"typos "new york city usa""#]),
        ("Zürich", [#"search "zurich""#, #"typos "zurich""#]),
    ])
    func searchReadings(text: String, expected: [String]) {
        #expect(Self.readings(search: text) == expected)
    }

    @Test("a comma reads qualifiers after the name, then the whole text as a name with its comma, last parts of towns", arguments: [
        ("Springfield, IL", [#"search "springfield" in ["il"]"#, #"search "springfield il""#, #"typos "springfield" in ["il"]"#,
                             #"parts "springfield" in ["il"]"#]),
        ("Postikuja 2, 2. krs.", [#"search "postikuja 2" in ["2 krs"]"#, #"search "postikuja 2 2 krs""#,
                                  #"streets "postikuja" in ["2 krs"]"#, #"typos "postikuja 2" in ["2 krs"]"#,
                                  #"parts "postikuja 2" in ["2 krs"]"#]),
        ("52 Bodastr, Triesenberg", [#"search "52 bodastr" in ["triesenberg"]"#, #"search "52 bodastr triesenberg""#,
                                     #"streets "bodastr" in ["triesenberg"]"#, #"typos "52 bodastr" in ["triesenberg"]"#,
                                     #"parts "52 bodastr" in ["triesenberg"]"#]),
        ("FL-9486, Mauren", [#"search "fl 9486" in ["mauren"]"#, #"search "fl 9486 mauren""#, #"exact "9486" in ["mauren"]"#,
                             #"typos "fl 9486" in ["mauren"]"#,
                             #"parts "fl 9486" in ["mauren"]"#]),
        ("Portland, Oregon, US", [#"search "portland" in ["oregon", "us"]"#, #"search "portland oregon us""#,
                                  #"typos "portland" in ["oregon", "us"]"#,
                                  #"parts "portland" in ["oregon", "us"]"#]),
        // Empty parts between commas are no qualifiers; a comma first leaves the next part as the name.
        ("Paris,, ", [#"search "paris""#, #"typos "paris""#]),
        (",Paris", [#"search "paris""#, #"typos "paris""#]),
    ])
    func commaReadings(text: String, expected: [String]) {
        #expect(Self.readings(search: text) == expected)
    }

    @Test("a text with no name in it has no reading", arguments: ["", "   ", ",", "!!!"])
    func noName(text: String) {
        #expect(Self.readings(search: text).isEmpty)
        #expect(Self.readings(suggest: text).isEmpty)
    }

    @Test("a suggestion reads the start of a name, then typos; a trailing space ends the last word", arguments: [
        ("hel", [#"suggest "hel""#, #"typos "hel""#]),
        ("new ", [#"suggest "new ""#, #"typos "new ""#]),
        ("Köln", [#"suggest "koln""#, #"typos "koln""#]),
    ])
    func suggestReadings(text: String, expected: [String]) {
        #expect(Self.readings(suggest: text) == expected)
    }

    @Test("a suggestion with a comma reads its qualifiers, the last still being typed, with no typo reading", arguments: [
        ("Portland, Or", [#"search "portland" in ["or"]…"#]),
        ("Portland, ", [#"search "portland""#]),
        ("Springfield, Illinois, U", [#"search "springfield" in ["illinois", "u"]…"#]),
    ])
    func suggestCommaReadings(text: String, expected: [String]) {
        #expect(Self.readings(suggest: text) == expected)
    }

    @Test("letters are counted as scalars, spaces not", arguments: [("helsinki", 8), ("new york", 7), ("zürich", 6), ("", 0)])
    func letters(key: String, count: Int) {
        #expect(QueryReadings.letterCount(Array(key.utf8)) == count)
    }
}
