/// Postcodes as their country's postcode places know them.
public enum Postcode {
    /// The countries and territories whose mail is addressed with United States ZIP codes.
    static let zipCountries: Set<String> = ["US", "PR", "VI", "GU", "AS", "MP", "UM", "FM", "MH", "PW"]

    /// The five digits of a ZIP+4 ("10118-0110", "10118 0110"); nil for any other text.
    public static func fiveDigitZIP(of code: some StringProtocol) -> String? {
        guard code.utf8.count == 10 else { return nil }
        let bytes = Array(code.utf8)
        guard bytes[5] == UInt8(ascii: "-") || bytes[5] == UInt8(ascii: " "),
              bytes.enumerated().allSatisfy({ $0.offset == 5 || (0x30...0x39).contains($0.element) }) else { return nil }
        return String(decoding: bytes[..<5], as: UTF8.self)
    }

    /// The code as the country's postcode places know it: a ZIP+4 in a country of ZIP codes is its five-digit ZIP (the
    /// extra four name a block or a building, which no open data places); any other code as given.
    public static func placeCode(_ code: String, country: String?) -> String {
        guard let country, zipCountries.contains(country.uppercased()), let zip = fiveDigitZIP(of: code) else { return code }
        return zip
    }
}
