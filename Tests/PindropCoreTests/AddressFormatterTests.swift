import PindropCore
import Testing

/// Addresses written as their countries write them. The Helsinki and Liechtenstein addresses are real ones from
/// the shipped OpenStreetMap extracts (node ids beside them); the United States, British, Japanese and German
/// ones are OpenCage's own test cases (testcases/, abbreviations/), their expected text taken from there.
@Suite("address formatter")
struct AddressFormatterTests {
    /// OSM node 256199043: Hard Rock Cafe Helsinki, Aleksanterinkatu 21, 00100 Helsinki.
    @Test("Finland: street and number, then postcode and town, then the country; a place's name above")
    func finland() {
        var parts = AddressParts(["road": "Aleksanterinkatu", "house_number": "21", "postcode": "00100", "city": "Helsinki",
                                  "country": "Finland", "country_code": "fi"])
        #expect(AddressFormatter.format(parts) == "Aleksanterinkatu 21\n00100 Helsinki\nFinland")
        parts.name = "Hard Rock Cafe Helsinki"
        #expect(AddressFormatter.format(parts) == "Hard Rock Cafe Helsinki\nAleksanterinkatu 21\n00100 Helsinki\nFinland")
        #expect(AddressFormatter.format(parts, singleLine: true) == "Hard Rock Cafe Helsinki, Aleksanterinkatu 21, 00100 Helsinki, Finland")
        // OSM node 229174383 (Chaplin, Mannerheimintie 6), as the index holds it: no country boundary in the extract.
        let address = Address(houseNumber: "6", street: "Mannerheimintie", postcode: "00100", town: "Helsinki", suburb: "Kluuvi")
        #expect(AddressFormatter.format(AddressParts(address, countryCode: "FI")) == "Mannerheimintie 6\n00100 Helsinki")
    }

    /// OSM nodes 326058701 (Post Vaduz, Städtle 38, 9490 Vaduz) and 691245686 (domus, Landstrasse 19, 9494 Schaan).
    @Test("Liechtenstein is written as Switzerland writes: street and number, postcode and town, country")
    func liechtenstein() {
        var parts = AddressParts(["road": "Städtle", "house_number": "38", "postcode": "9490", "village": "Vaduz",
                                  "country": "Liechtenstein", "country_code": "LI"])
        parts.name = "Post Vaduz"
        #expect(AddressFormatter.format(parts) == "Post Vaduz\nStädtle 38\n9490 Vaduz\nLiechtenstein")
        let address = Address(houseNumber: "19", street: "Landstrasse", postcode: "9494", town: "Schaan", county: "Oberland",
                              country: "Liechtenstein")
        #expect(AddressFormatter.format(AddressParts(address, countryCode: "LI")) == "Landstrasse 19\n9494 Schaan\nLiechtenstein")
        #expect(AddressFormatter.format(AddressParts(address, countryCode: "LI"), singleLine: true) == "Landstrasse 19, 9494 Schaan, Liechtenstein")
    }

    /// OSM nodes 311750218 (Simonkatu 7, 00100 Helsinki) and 326058701 (Städtle 38, 9490 Vaduz); the London line
    /// is countries/gb.yaml's "Lokku office" without its other parts.
    @Test("an answer's one line: street, number, postcode and town as the country orders them, nothing else")
    func streetLine() {
        let simonkatu = Address(houseNumber: "7", street: "Simonkatu", postcode: "00100", town: "Helsinki", suburb: "Kamppi",
                                country: "Finland")
        #expect(AddressFormatter.streetLine(simonkatu, countryCode: "FI") == "Simonkatu 7, 00100 Helsinki")
        let post = Address(houseNumber: "38", street: "Städtle", postcode: "9490", town: "Vaduz", county: "Oberland")
        #expect(AddressFormatter.streetLine(post, countryCode: "LI") == "Städtle 38, 9490 Vaduz")
        // A street without a number, a town alone: what there is.
        #expect(AddressFormatter.streetLine(Address(street: "Narinkkatori", postcode: "00100", town: "Helsinki"), countryCode: "FI")
            == "Narinkkatori, 00100 Helsinki")
        #expect(AddressFormatter.streetLine(Address(town: "Vaduz"), countryCode: "LI") == "Vaduz")
        #expect(AddressFormatter.streetLine(Address(country: "Finland"), countryCode: "FI").isEmpty)
        // Where the country writes it otherwise: the number first, the British postcode after the town.
        let lokku = Address(houseNumber: "82", street: "Clerkenwell Road", postcode: "EC1M 5RF", town: "London")
        #expect(AddressFormatter.streetLine(lokku, countryCode: "GB") == "82 Clerkenwell Road, London, EC1M 5RF")
    }

    @Test("United States: number first, \"town, STATE postcode\" with the state's code; abbreviated on request")
    func unitedStates() {
        // abbreviations/en.yaml, "Augusta Lane".
        let pueblo = AddressParts(["city": "Pueblo", "country_code": "us", "house_number": "123", "postcode": "81001",
                                   "road": "Augusta Lane", "state": "Colorado", "state_code": "CO"])
        #expect(AddressFormatter.format(pueblo, abbreviate: true) == "123 Augusta Ln\nPueblo, CO 81001")
        #expect(AddressFormatter.format(pueblo) == "123 Augusta Lane\nPueblo, CO 81001")
        // The state's code comes from its name, and "United States" is written in full.
        let empireState = AddressParts(["house_number": "350", "road": "5th Avenue", "city": "New York", "state": "New York",
                                        "postcode": "10118", "country": "United States", "country_code": "US"])
        #expect(AddressFormatter.format(empireState, singleLine: true, abbreviate: true)
            == "350 5th Ave, New York, NY 10118, United States of America")
    }

    @Test("Britain: the town, then the postcode on its own line; Japan: the prefecture's line and a hyphenated postcode")
    func britainAndJapan() {
        // countries/gb.yaml, "Lokku office".
        let lokku = AddressParts(["city": "London", "city_district": "London Borough of Islington", "country": "United Kingdom",
                                  "country_code": "GB", "house": "Lokku Ltd", "house_number": "82", "postcode": "EC1M 5RF",
                                  "road": "Clerkenwell Road", "state": "England", "state_district": "Greater London",
                                  "suburb": "Clerkenwell"])
        #expect(AddressFormatter.format(lokku) == "Lokku Ltd\n82 Clerkenwell Road\nLondon\nEC1M 5RF\nUnited Kingdom")
        // countries/jp.yaml, "Restaurant in Hiroshima".
        let hiroshima = AddressParts(["city": "Hiroshima", "country": "Japan", "country_code": "jp", "county": "Aki County",
                                      "postcode": "7300846", "restaurant": "食辛房", "road": "舟入通り",
                                      "state": "Chugoku Region", "suburb": "Naka Ward"])
        #expect(AddressFormatter.format(hiroshima) == "食辛房\n舟入通り\nNaka Ward\nHiroshima, Chugoku Region 730-0846\nJapan")
    }

    @Test("Germany: aliases fill the road and town, a rewrite makes Alt-Berlin Berlin, and Berlin is written once")
    func germany() {
        // countries/de.yaml, "Alt-berlin" and "no repetition".
        let altBerlin = AddressParts(["city": "Alt-Berlin", "city_district": "Mitte", "country": "Germany", "country_code": "de",
                                      "house_number": "7", "neighbourhood": "Scheunenviertel", "pedestrian": "Gontardstraße",
                                      "postcode": "10178", "state": "Berlin", "suburb": "Mitte"])
        #expect(AddressFormatter.format(altBerlin) == "Gontardstraße 7\n10178 Berlin\nGermany")
        let berlin = AddressParts(["city": "Berlin", "country": "Germany", "country_code": "DE", "state": "Berlin"])
        #expect(AddressFormatter.format(berlin) == "Berlin\nGermany")
    }

    @Test("a territory takes its country's form and lines; an unknown code or none takes the default form")
    func territoriesAndDefaults() {
        // Puerto Rico is written as the United States, with its state line and the country's name.
        let sanJuan = AddressParts(["house_number": "100", "road": "Calle Fortaleza", "city": "San Juan", "postcode": "00901",
                                    "country_code": "pr"])
        #expect(AddressFormatter.format(sanJuan) == "100 Calle Fortaleza\nSan Juan, PR 00901\nUnited States of America")
        // testcases/other/xx.yaml: "generic format".
        let generic = AddressParts(["city": "City", "country": "Null Island", "country_code": "XX", "county": "County",
                                    "house_number": "123", "postcode": "PCPCPC", "road": "Main Street", "state": "State",
                                    "suburb": "The Hood"])
        #expect(AddressFormatter.format(generic) == "Main Street 123\nPCPCPC City\nNull Island")
        #expect(AddressFormatter.format(AddressParts(["island": "Null Island"])) == "Null Island")
        #expect(AddressFormatter.format(AddressParts()) == "")
    }

    @Test("parts that cannot be written are left out: no letter or digit, a web address, a postcode range")
    func sanityChecks() {
        let parts = AddressParts(["road": "Mannerheimintie", "house_number": "--", "postcode": "00100;00120",
                                  "city": "https://example.com/helsinki", "country_code": "fi"])
        #expect(AddressFormatter.format(parts) == "Mannerheimintie")
    }

    @Test("a part of 100,000 lines or commas is written in linear time, each line and part once",
          .timeLimit(.minutes(1)))
    func hostileParts() {
        let parts = AddressParts(["road": String(repeating: "x\n", count: 100_000),
                                  "city": String(repeating: "y, ", count: 100_000) + "z", "country_code": "fi"])
        #expect(AddressFormatter.format(parts) == "x\ny, z")
        let blanks = AddressParts(["road": "a" + String(repeating: " ", count: 200_000) + "b, c", "country_code": "fi"])
        #expect(AddressFormatter.format(blanks) == "a b, c")
    }

    @Test("JSON parts: text, numbers and null read; anything else is a clear error")
    func json() throws {
        let parts = try AddressParts(json: Array(#"{"road": "Städtle", "house_number": 38, "postcode": "9490", "town": "Vaduz", "state": null, "country_code": "li"}"#.utf8))
        #expect(parts.houseNumber == "38" && parts["town"] == "Vaduz" && parts.state == nil)
        #expect(AddressFormatter.format(parts) == "Städtle 38\n9490 Vaduz")
        #expect(throws: PindropError.invalidInput("not valid JSON")) { try AddressParts(json: Array("{road".utf8)) }
        #expect(throws: PindropError.invalidInput("not a JSON object of address parts")) { try AddressParts(json: Array("[1]".utf8)) }
        #expect(throws: PindropError.invalidInput("the value of \"road\" is not text, a number or null")) {
            try AddressParts(json: Array(#"{"road": ["a"]}"#.utf8))
        }
    }
}
