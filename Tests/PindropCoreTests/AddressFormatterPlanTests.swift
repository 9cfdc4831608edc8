import Foundation
@testable import PindropCore
import PindropTesting
import Testing

/// The formatter's plans (a template written once for a set of present components, or for a country and a set of
/// given parts, then filled in) write what the full way (every step, the template rendered and tidied) writes, byte
/// for byte: over OpenCage's test cases and variants of them made to meet each step (parts left out one at a time;
/// values with commas, line breaks, doubled or edge blanks, "&", a leading "- ", a trailing "}", web addresses,
/// postcode ranges, numbers, state codes; values repeated; other country codes; parts the templates do not know).
@Suite("address formatter plans")
struct AddressFormatterPlanTests {
    static let testcases = AddressFormatCases.folder(
        besides: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path)

    /// Each way a value is changed to meet a step of the tidying (the value first).
    static let changes: [@Sendable (String) -> String] = [
        { $0 + "," }, { "," + $0 }, { $0 + ", x" }, { " " + $0 }, { $0 + " " }, { $0 + "  x" }, { $0 + "\tx" },
        { $0 + "\nx" }, { "\n" + $0 }, { $0 + " & co" }, { $0 + "&#39;s" }, { "- " + $0 }, { "-" + $0 }, { $0 + "}" },
        { $0 + " }" }, { _ in "" }, { _ in " " }, { _ in "," }, { _ in "new york" }, { $0 + ", " + $0 }, { $0 + "\n" + $0 },
        // Met by the steps before the template: a web address, a postcode range or pair, a long postcode, a number
        // (a country), no letter or digit, a first letter past ASCII, a state code of another state.
        { "https://" + $0 }, { $0 + ";12345" }, { $0 + ",12345" }, { $0 + String(repeating: "9", count: 20) },
        { _ in "12" }, { _ in "--" }, { "É" + $0 }, { _ in "ZZ" }, { _ in "Washington, D.C." }, { _ in "Washington DC" },
    ]

    /// Country codes whose steps differ: the United Kingdom as "uk", the Netherlands (islands by state), territories
    /// (Puerto Rico, American Samoa, Åland), countries with state or county codes, none known, not two letters.
    static let countryCodes = ["uk", "gb", "nl", "pr", "as", "ax", "us", "de", "it", "ca", "xx", "", "fin"]

    @Test("a plan writes what the full path writes, for every test case and thousands of variants",
          .enabled(if: testcases != nil, "../shared/address-formatting/testcases is not there: OpenCage's test cases are skipped"))
    func plansMatchFullPath() throws {
        let formatter = try AddressFormatter(data: AddressFormatData.bundled())
        let cases = try AddressFormatCases.load(from: try #require(Self.testcases))
        var compared = 0, differences: [String] = []
        func compare(_ components: [(name: String, value: String)], abbreviate: Bool, _ label: String) {
            let parts = AddressParts(Dictionary(components.map { ($0.name, $0.value) }) { first, _ in first })
            for singleLine in [false, true] {
                let planned = formatter.format(parts, singleLine: singleLine, abbreviate: abbreviate, planned: true)
                let full = formatter.format(parts, singleLine: singleLine, abbreviate: abbreviate, planned: false)
                compared += 1
                if planned != full, differences.count < 10 { differences.append("\(label): \(planned.debugDescription) ≠ \(full.debugDescription)") }
            }
        }
        for testCase in cases {
            let components = testCase.components
            compare(components, abbreviate: testCase.abbreviate, testCase.file)
            for n in components.indices {
                var fewer = components
                fewer.remove(at: n)
                compare(fewer, abbreviate: testCase.abbreviate, "\(testCase.file) without \(components[n].name)")
                for (c, change) in Self.changes.enumerated() {
                    var changed = components
                    changed[n].value = change(components[n].value)
                    compare(changed, abbreviate: testCase.abbreviate, "\(testCase.file), \(components[n].name) change \(c)")
                }
                // Another part's value in this one: lines and parts that come twice.
                var repeated = components
                repeated[n].value = components[(n + 1) % components.count].value
                compare(repeated, abbreviate: testCase.abbreviate, "\(testCase.file), \(components[n].name) repeated")
            }
            for code in Self.countryCodes {
                compare(components.filter { $0.name != "country_code" } + [("country_code", code)], abbreviate: testCase.abbreviate,
                        "\(testCase.file) as \(code)")
            }
            // Parts the templates do not know: one is written first, two are joined; a state code that is not the
            // state's.
            let extras: [[(name: String, value: String)]] = [[("name", "Café Nord")], [("name", "Café Nord"), ("shop", "bakery")],
                                                             [("state_code", "ZZ")], [("county_code", "ZZ")]]
            for extra in extras {
                compare(components + extra, abbreviate: testCase.abbreviate, "\(testCase.file) with \(extra.map(\.name))")
            }
        }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(compared > 20_000)
        // The plans were used: one per template or country and set of components met, many of them; of the test
        // cases, those without codes to look up or rewrites to make (about half) go the direct way.
        #expect(formatter.plans.count > 500 && formatter.directPlans.count > 500)
        let direct = cases.count { !$0.abbreviate && formatter.formatDirectly($0.parts, singleLine: false) != nil }
        #expect(direct * 3 > cases.count)
    }

    @Test("an address read in place writes what its parts write, whole and as a street line",
          .enabled(if: testcases != nil, "../shared/address-formatting/testcases is not there: OpenCage's test cases are skipped"))
    func addressesMatchTheirParts() throws {
        let formatter = try AddressFormatter(data: AddressFormatData.bundled())
        let cases = try AddressFormatCases.load(from: try #require(Self.testcases))
        var compared = 0, differences: [String] = []
        func compare(_ address: Address, _ code: String?, _ label: String) {
            for streetLine in [false, true] {
                let parts = streetLine ? AddressParts(streetLine: address, countryCode: code) : AddressParts(address, countryCode: code)
                for singleLine in [false, true] {
                    let read = formatter.format(address, countryCode: code, streetLine: streetLine, singleLine: singleLine)
                    let full = formatter.format(parts, singleLine: singleLine, abbreviate: false, planned: false)
                    compared += 1
                    if read != full, differences.count < 10 { differences.append("\(label): \(read.debugDescription) ≠ \(full.debugDescription)") }
                }
            }
        }
        let fields: [WritableKeyPath<Address, String?>] = [\.houseNumber, \.street, \.postcode, \.town, \.suburb, \.county, \.state, \.country]
        for testCase in cases where !testCase.abbreviate {
            let parts = testCase.parts
            func first(_ names: String...) -> String? { names.lazy.compactMap { parts[$0] }.first }
            let address = Address(houseNumber: first("house_number", "housenumber"), street: first("road", "street", "pedestrian"),
                                  postcode: first("postcode"), town: first("city", "town", "village"),
                                  suburb: first("suburb", "neighbourhood"), county: first("county"), state: first("state", "province"),
                                  country: first("country"))
            for code in [parts.countryCode, "li", "fi", "us", "gb", "nl", "pr", nil] { compare(address, code, "\(testCase.file) as \(code ?? "none")") }
            for field in fields where address[keyPath: field] != nil {
                var fewer = address
                fewer[keyPath: field] = nil
                compare(fewer, parts.countryCode, "\(testCase.file) without \(field)")
                for (c, change) in Self.changes.enumerated() {
                    var changed = address
                    changed[keyPath: field] = change(address[keyPath: field]!)
                    compare(changed, parts.countryCode, "\(testCase.file), \(field) change \(c)")
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(compared > 20_000)
    }

    @Test("a plain value holds nothing the tidying acts on")
    func plainValues() {
        for value in ["Mannerheimintie", "Städtle 38", "9490", "Saint-Denis", "{x", "x-"] {
            #expect(AddressPlan.isPlain(value), "\(value)")
        }
        for value in ["", " x", "x ", "x  y", "x\ty", "x\ny", "x,y", "a & b", "-x", "x}", "x\u{0B}"] {
            #expect(!AddressPlan.isPlain(value), "\(value.debugDescription)")
        }
    }

    @Test("the plans kept are bounded; past the bound a plan is still made")
    func boundedPlans() throws {
        let formatter = try AddressFormatter(data: AddressFormatData.bundled())
        let plans = AddressPlans<AddressPlan>(limit: 2)
        for mask: UInt32 in 0..<4 { #expect(plans.plan(0, formatter.templates[0], present: mask) != nil) }
        #expect(plans.count == 2)
    }
}
