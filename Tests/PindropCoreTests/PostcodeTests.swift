import Testing
import PindropCore

/// Postcodes as their country's postcode places know them: a United States ZIP+4 is its five-digit ZIP (USPS: the
/// ZIP+4 code is the five-digit ZIP, a hyphen, and four digits naming a delivery segment).
@Suite("Postcodes")
struct PostcodeTests {
    @Test("a ZIP+4 in a country of ZIP codes is its five digits", arguments: [
        ("10118-0110", "US", "10118"), ("10118 0110", "us", "10118"), ("00907-3211", "PR", "00907"), ("96910-1234", "GU", "96910"),
    ])
    func zipPlusFour(code: String, country: String, expected: String) {
        #expect(Postcode.placeCode(code, country: country) == expected)
    }

    @Test("any other code, or a ZIP+4's shape elsewhere, stays as given", arguments: [
        ("10118", "US"), ("10118-011", "US"), ("10118-01100", "US"), ("1011x-0110", "US"), ("01310-9000", "BR"),
        ("10118-0110", nil), ("9490", "LI"), ("SW1A 1AA", "GB"),
    ] as [(String, String?)])
    func unchanged(code: String, country: String?) {
        #expect(Postcode.placeCode(code, country: country) == code)
    }
}
