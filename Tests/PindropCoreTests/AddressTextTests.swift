@testable import PindropCore
import Testing

/// The written text is tidied as OpenCage's reference formatter's `_clean` does (its substitutions, then each line
/// and each comma-separated part once): the expected texts are what those substitutions make of the inputs.
@Suite("address text tidying")
struct AddressTextTests {
    func cleaned(_ text: String) -> String {
        var bytes = Array(text.utf8), scratch: [UInt8] = []
        AddressText.clean(&bytes, scratch: &scratch)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("blanks, empty lines and stray commas go; a comma, empty lines and a comma join two lines", arguments: [
        (" Main St  5 ,\n\n, 00100  Helsinki ,\nHelsinki\n", "Main St 5, 00100 Helsinki\nHelsinki\n"),
        ("- Kamppi\n\tKamppi\n\nHelsinki}", "Kamppi\nHelsinki\n"),
        ("a, , b,\n,c", "a, b, c\n"),
    ])
    func tidied(input: String, expected: String) {
        #expect(cleaned(input) == expected)
    }

    @Test("a part or a line written twice is kept once, but New York, New York")
    func repeats() {
        #expect(cleaned("Berlin, Berlin\nGermany") == "Berlin\nGermany\n")
        #expect(cleaned("New York, New York, NY 10118") == "New York, New York, NY 10118\n")
        var parts = Array("Vaduz\nOberland, Vaduz\nOberland, Liechtenstein\n".utf8), scratch: [UInt8] = []
        #expect(AddressText.distinctParts(&parts, scratch: &scratch))
        // The ", "-separated pieces run across lines: "Vaduz\nOberland" twice.
        #expect(String(decoding: parts, as: UTF8.self) == "Vaduz\nOberland, Liechtenstein\n")
    }
}
