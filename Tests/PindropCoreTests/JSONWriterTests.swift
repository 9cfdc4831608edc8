import Foundation
import Testing
@testable import PindropCore

/// The JSON every front end writes: numbers as `description` reads them, strings escaped exactly where needed.
@Suite("JSONWriter")
struct JSONWriterTests {
    /// The text `number` writes for `value`, alone in a document.
    static func written(_ value: Double) -> String {
        var w = JSONWriter(capacity: 0)
        w.number(value)
        return w.string
    }

    /// The text as `description` writes it (the writer's fast path must give the same bytes).
    static func described(_ value: Double) -> String {
        var bytes: [UInt8] = []
        JSONWriter.appendNumber(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("Coordinates, distances and any other double are written as description writes them")
    func numbersAsDescribed() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0.001, 0.0009999, 0.00123, 0.1, 0.5, 1.5, -0.1, 179.99999999, -179.9999999, 1e9 - 0.5,
                                999_999_999.9, 1e9 + 0.5, 123_456_789.123, 0.1 + 0.2, 1.0 / 3, -2.0 / 3, .pi, 60.16952, 24.93545,
                                -0.0, 1e-5, 1e15 + 0.5, 4_503_599_627_370_497.0, .nan, .infinity, -.infinity]
        for decimals in 0...10 {
            let scale = pow(10.0, Double(decimals))
            for _ in 0..<2_000 {
                let coordinate = (Double.random(in: -180...180, using: &generator) * scale).rounded() / scale
                values += [coordinate, coordinate.nextUp, coordinate.nextDown]
            }
        }
        for _ in 0..<5_000 {
            values.append(Double.random(in: -1e9...1e9, using: &generator))
            values.append((Double.random(in: 0...20_000_000, using: &generator) * 10).rounded() / 10)   // a distance
            values.append(Double.random(in: 0...0.01, using: &generator))
        }
        var differing: [String] = []
        for value in values where Self.written(value) != Self.described(value) {
            differing.append("\(value): \(Self.written(value)) against \(Self.described(value))")
        }
        #expect(differing.isEmpty, "\(differing.count) of \(values.count) differ: \(differing.prefix(5))")
    }

    /// The escaping of `text` as JSON asks it, written plainly: the reference the writer is held to.
    static func escaped(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    @Test("Strings with quotes, backslashes and control characters at every place in a word are escaped, others copied")
    func stringsEscaped() throws {
        let plain = Array("abcdefghij klmnop Zürich Москва 東京 ".unicodeScalars)
        let special: [Unicode.Scalar] = ["\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}", "\u{00}"]
        var texts: [String] = ["", "a", "plain text longer than sixteen bytes", "\u{7F}", "é\u{1F}"]
        var generator = SystemRandomNumberGenerator()
        for length in 0..<40 {
            for _ in 0..<40 {
                var scalars = (0..<length).map { _ in plain.randomElement(using: &generator)! }
                // A special character at a random place (the word-at-a-time check must see it at any offset).
                if length > 0, Bool.random(using: &generator) {
                    scalars[Int.random(in: 0..<length, using: &generator)] = special.randomElement(using: &generator)!
                }
                var text = ""
                text.unicodeScalars.append(contentsOf: scalars)
                texts.append(text)
            }
        }
        for text in texts {
            var w = JSONWriter(capacity: 0)
            w.beginObject()
            w.key(named: text)
            w.string(text)
            w.key("#")
            w.number(1)
            w.endObject()
            #expect(w.string == "{" + Self.escaped(text) + ":" + Self.escaped(text) + ",\"#\":1}")
            let parsed = try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any]
            #expect(parsed?[text] as? String == text)
        }
    }

    @Test("A document far past its starting room is whole, and its bytes read in place are the same")
    func growsWhole() throws {
        var w = JSONWriter(capacity: 0)
        w.beginArray()
        for i in 0..<20_000 {
            w.beginObject()
            w.field("id", "geonames:\(i)")
            w.field("latitude", Double(i) / 1000 + 0.5)
            w.field("population", i)
            w.field("capital", i % 2 == 0)
            w.key("extra")
            w.null()
            w.endObject()
        }
        w.raw(Array("{\"raw\":true}".utf8))
        w.endArray()
        let list = try #require(try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [[String: Any]])
        #expect(list.count == 20_001)
        #expect(list[12_345]["id"] as? String == "geonames:12345")
        #expect(list[12_345]["latitude"] as? Double == 12.845)
        #expect(list[19_999]["population"] as? Int == 19_999)
        #expect(list[20_000]["raw"] as? Bool == true)
        #expect(w.withUnsafeBytes { Array($0) } == w.bytes)
    }

    @Test("A place's id and list line kept as parts are written into a document, and read, as the text they make")
    func placeTextAsWritten() throws {
        let special = ["Zürich", "Saint \"Quote\"", "Back\\slash", "Tab\there", "東京", "", "a, b"]
        let ids: [Int32] = [0, 7, 2_988_507, 999_999_999, .max, -1, .min]
        var texts = ids.map { PlaceText.geonamesID($0) }
        for first in special {
            for second in [nil] + special.map(Optional.some) {
                for third in [nil, "Switzerland", "C\u{01}ntrol"] { texts.append(.joined(first, second, third)) }
            }
        }
        for text in texts {
            let expected = switch text {
            case .geonamesID(let id): "geonames:\(id)"
            case .joined(let first, let second, let third): ([first] + [second, third].compactMap { $0 }).joined(separator: ", ")
            case .written(let written): written
            }
            #expect(text.string == expected)
            #expect(text.withUTF8 { Array($0) } == Array(expected.utf8))
            var parts = JSONWriter(capacity: 0), whole = JSONWriter(capacity: 0)
            parts.beginArray(); parts.string(text); parts.string(text); parts.endArray()
            whole.beginArray(); whole.string(expected); whole.string(expected); whole.endArray()
            #expect(parts.string == whole.string, "\(text)")
            // Equal to, and hashed as, the same text written out: a place from the index equals one built by hand.
            #expect(text == .written(expected) && text.hashValue == PlaceText.written(expected).hashValue)
        }
        #expect(PlaceText.joined("Zürich", "Zurich", nil) != .written("Zürich, Zurich, Switzerland"))
        let place = Place(id: .geonamesID(2_657_896), name: "Zürich", displayName: .joined("Zürich", "Zurich", "Switzerland"),
                          coordinate: Coordinate(latitude: 47.36667, longitude: 8.55), countryCode: "CH")
        #expect(place == Place(id: "geonames:2657896", name: "Zürich", displayName: "Zürich, Zurich, Switzerland",
                               coordinate: Coordinate(latitude: 47.36667, longitude: 8.55), countryCode: "CH"))
        // Encoded under the keys every client reads, as text.
        let encoded = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(place)) as? [String: Any])
        #expect(encoded["id"] as? String == "geonames:2657896" && encoded["displayName"] as? String == "Zürich, Zurich, Switzerland")
        #expect(try JSONDecoder().decode(Place.self, from: JSONEncoder().encode(place)) == place)
        var renamed = place
        renamed.displayName = "Zürich (Kreis 1)"
        #expect(renamed.displayName == "Zürich (Kreis 1)" && renamed.id == "geonames:2657896")
    }
}
