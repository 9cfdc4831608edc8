import Foundation
import PindropCore
import Testing

@Suite("Text folding shared by indexing and queries")
struct TextFoldingTests {
    @Test("case, diacritics, ligatures and strokes fold to what people type", arguments: [
        ("Zürich", "zurich"), ("São Paulo", "sao paulo"), ("Straße", "strasse"), ("Ørsted", "orsted"),
        ("Łódź", "lodz"), ("Þingvellir", "thingvellir"), ("ÆRØSKØBING", "aeroskobing"), ("İstanbul", "istanbul"),
        ("Reykjavík", "reykjavik"), ("Ho Chi Minh City", "ho chi minh city"),
    ])
    func folds(input: String, expected: String) {
        #expect(TextFolding.fold(input) == expected)
    }

    @Test("punctuation separates words; apostrophes join; spaces collapse", arguments: [
        ("Aix-en-Provence", "aix en provence"), ("  St.  Louis ", "st louis"), ("Martha's Vineyard", "marthas vineyard"),
        ("Boneh-ye ‘Alvān", "boneh ye alvan"), ("Springfield,IL", "springfield il"), ("!!!", ""),
    ])
    func separators(input: String, expected: String) {
        #expect(TextFolding.fold(input) == expected)
    }

    @Test("other scripts keep their letters, lower-cased; full-width forms become ASCII")
    func otherScripts() {
        #expect(TextFolding.fold("Москва") == "москва")
        #expect(TextFolding.fold("東京") == "東京")
        #expect(TextFolding.fold("Ｔｏｋｙｏ") == "tokyo")
        #expect(TextFolding.fold("Αθήνα") == "αθηνα")
    }

    @Test("scalars of every UTF-8 length fold alike in a String and in a Substring of it")
    func everyEncodedLength() {
        // 1, 2, 3 and 4 bytes: ASCII, Latin with a mark, Sinhala, a mathematical letter (kept) and an emoji (a separator).
        let text = "xZoo Café කොළඹ 𝔸🏠b"
        #expect(TextFolding.fold(text) == "xzoo cafe කොළඹ 𝔸 b")
        #expect(TextFolding.fold(text.dropFirst()) == "zoo cafe කොළඹ 𝔸 b")
    }
}

@Suite("Coordinates and requests")
struct RequestValidationTests {
    @Test("coordinates off the globe are refused with the value in the message")
    func coordinateRange() throws {
        #expect(throws: PindropError.invalidInput("latitude 91.0 is outside -90...90")) {
            try Coordinate(validatingLatitude: 91, longitude: 0)
        }
        #expect(throws: PindropError.self) { try Coordinate(validatingLatitude: 0, longitude: -180.5) }
        #expect(throws: PindropError.self) { try Coordinate(validatingLatitude: .nan, longitude: 0) }
        let c = try Coordinate(parsing: "48.8584, 2.2945")
        #expect(c.latitude == 48.8584 && c.longitude == 2.2945)
        #expect(try Coordinate(parsing: "-33.9 151.2").longitude == 151.2)
        #expect(throws: PindropError.self) { try Coordinate(parsing: "north") }
    }

    @Test("great-circle distances match known city pairs")
    func distances() {
        let paris = Coordinate(latitude: 48.8566, longitude: 2.3522), london = Coordinate(latitude: 51.5074, longitude: -0.1278)
        #expect(abs(paris.distance(to: london) - 343_500) < 1_500)
        // Across the antimeridian: two points 0.2° apart at the equator are ~22 km apart, not 40,000 km.
        let a = Coordinate(latitude: 0, longitude: 179.9), b = Coordinate(latitude: 0, longitude: -179.9)
        #expect(abs(a.distance(to: b) - 22_239) < 50)
    }

    @Test("empty or oversized text, bad limits, bad radii and bad country codes are refused")
    func requestValidation() throws {
        #expect(throws: PindropError.invalidInput("the search text is empty")) { try SearchRequest(text: "   ") }
        #expect(throws: PindropError.self) { try SearchRequest(text: String(repeating: "a", count: 300)) }
        #expect(throws: PindropError.self) { try SearchRequest(text: "Paris", limit: 0) }
        #expect(throws: PindropError.self) { try SearchRequest(text: "Paris", countryCode: "France") }
        #expect(try SearchRequest(text: "Paris", countryCode: "fr").countryCode == "FR")
        let origin = Coordinate(latitude: 0, longitude: 0)
        #expect(throws: PindropError.self) { try NearbyRequest(coordinate: origin, radiusMeters: -5) }
        #expect(throws: PindropError.self) { try NearbyRequest(coordinate: origin, radiusMeters: 1e9) }
        #expect(throws: PindropError.self) { try NearbyRequest(coordinate: origin, radiusMeters: .infinity) }
        #expect(try SuggestRequest(text: "zu", minChars: 3).isBelowMinimum)
        #expect(try !SuggestRequest(text: "zur", minChars: 3).isBelowMinimum)
        // Characters, not bytes or scalars: "Zü" with a combining diaeresis is two.
        #expect(try SuggestRequest(text: "Zu\u{308}", minChars: 3).isBelowMinimum)
        #expect(try !SuggestRequest(text: "Zu\u{308}r", minChars: 3).isBelowMinimum)
    }

    @Test("a text is at most 256 characters, counted as Unicode scalars (as the OpenAPI maxLength counts them)")
    func textLength() throws {
        let most = RequestLimits.maxTextLength
        // "e" with a combining acute accent is two scalars.
        for (letter, scalars) in [("a", 1), ("й", 1), ("東", 1), ("😀", 1), ("e\u{301}", 2)] {
            #expect(try SuggestRequest(text: String(repeating: letter, count: most / scalars)).text.unicodeScalars.count == most)
            #expect(throws: PindropError.self) { try SuggestRequest(text: String(repeating: letter, count: most / scalars + 1)) }
            #expect(throws: PindropError.self) { try SearchRequest(text: String(repeating: letter, count: most / scalars + 1)) }
        }
        // One character of 10,000 combining marks.
        #expect(throws: PindropError.self) { try SuggestRequest(text: "a" + String(repeating: "\u{301}", count: 10_000)) }
        #expect(try SuggestRequest(text: "new ").text == "new ")
    }
}

@Suite("Wire encoding")
struct WireEncodingTests {
    let result = PlaceResult(
        place: Place(id: "geonames:1", name: "Quote \" <b>", displayName: "Quote \" <b>, Somewhere",
                     coordinate: Coordinate(latitude: 48.5, longitude: -2.25), countryCode: "FR", population: 12,
                     address: Address(street: "Rue\tX")),
        distanceMeters: 1234.56)

    @Test("JSON: query echo, results with every field, strings escaped")
    func json() throws {
        let doc = WireEncoding.document(query: [("text", .text("a\"b")), ("limit", .integer(5))], results: [result], format: .json)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(doc.bytes)) as? [String: Any])
        #expect((object["query"] as? [String: Any])?["text"] as? String == "a\"b")
        let first = try #require((object["results"] as? [[String: Any]])?.first)
        #expect(first["name"] as? String == "Quote \" <b>")
        #expect(first["latitude"] as? Double == 48.5 && first["longitude"] as? Double == -2.25)
        #expect(first["distanceMeters"] as? Double == 1234.6)
        #expect((first["address"] as? [String: Any])?["street"] as? String == "Rue\tX")
        #expect(first["admin1"] == nil)
        #expect(first["matchedName"] == nil)
    }

    @Test("a match through another name carries it, in JSON and GeoJSON, and in the result's label")
    func matchedName() throws {
        var matched = result
        matched.matchedName = "Helsingfors"
        #expect(matched.label == "Helsingfors → Quote \" <b>, Somewhere" && result.label == "Quote \" <b>, Somewhere")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(WireEncoding.document(query: [], results: [matched], format: .json).bytes)) as? [String: Any])
        #expect((json["results"] as? [[String: Any]])?.first?["matchedName"] as? String == "Helsingfors")
        let geojson = try #require(try JSONSerialization.jsonObject(with: Data(WireEncoding.document(query: [], results: [matched], format: .geojson).bytes)) as? [String: Any])
        #expect(((geojson["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["matchedName"] as? String == "Helsingfors")
    }

    @Test("GeoJSON: a FeatureCollection of Points with [longitude, latitude]")
    func geojson() throws {
        let doc = WireEncoding.document(query: [], results: [result], format: .geojson)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(doc.bytes)) as? [String: Any])
        #expect(object["type"] as? String == "FeatureCollection")
        let feature = try #require((object["features"] as? [[String: Any]])?.first)
        #expect(feature["type"] as? String == "Feature")
        let geometry = try #require(feature["geometry"] as? [String: Any])
        #expect(geometry["type"] as? String == "Point")
        #expect(geometry["coordinates"] as? [Double] == [-2.25, 48.5])
        #expect((feature["properties"] as? [String: Any])?["id"] as? String == "geonames:1")
    }

    @Test("above the precomputed table, a letter or number is kept as it is and anything else separates words")
    func scalarsBeyondTheTable() {
        // Every scalar from U+3000 on, against Unicode's own properties: folding answers some blocks of letters
        // (kana, CJK, Hangul) without asking, and this holds that shortcut to what asking would say.
        var wrong: [String] = []
        for v in UInt32(0x3000)...0x10FFFF where !(0xFF01...0xFF5E).contains(v) {
            guard let scalar = Unicode.Scalar(v) else { continue }
            let kept = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            if TextFolding.fold("a" + String(scalar) + "b") != (kept ? "a\(scalar)b" : "a b") { wrong.append(String(v, radix: 16)) }
        }
        #expect(wrong.isEmpty, "folded unlike their properties: \(wrong.prefix(20))")
    }

    @Test("trimming white space gives what Foundation's trimming gives, for every scalar at either end")
    func trimsAsFoundationDoes() {
        var wrong: [String] = []
        let scalars = (0...0x3000).compactMap(Unicode.Scalar.init) + ["\u{FEFF}", "\u{205F}", "\u{1680}"]
        for scalar in scalars {
            for text in ["\(scalar)Москва\(scalar)", "\(scalar)\(scalar)a b\(scalar)", "\(scalar)"] {
                for newlines in [false, true] {
                    let expected = text.trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
                    if text.trimmingWhitespace(newlines: newlines) != expected { wrong.append(String(format: "U+%04X", scalar.value)) }
                }
            }
        }
        #expect(wrong.isEmpty, "trimmed unlike Foundation: \(wrong.prefix(20))")
    }
}
