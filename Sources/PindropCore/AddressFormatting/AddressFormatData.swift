import Foundation

/// OpenCage's address-formatting configuration as `scripts/make-address-formats.py` writes it
/// (`address-formats.json`, MIT: `address-formats.LICENSE.txt` beside it): the components and their aliases, the
/// templates, each country's rules, the state and county codes, and the abbreviations by language.
struct AddressFormatData: Decodable, Sendable {
    /// Where the configuration comes from: the repository, its commit and the licence.
    struct Source: Decodable, Sendable { var repository, commit, licence: String }

    /// One country's rules (or `default`'s). The templates are indexes into `templates`.
    struct Country: Decodable, Sendable {
        var address: Int?
        var fallback: Int?
        /// Rewrites of the components before the template: `[pattern, replacement]`, or `["state=Text", replacement]`
        /// for one component.
        var replace: [[String]]?
        /// Rewrites of the written text.
        var postformatReplace: [[String]]?
        /// A territory written as another country writes: its code ("AS" is written as "US").
        var useCountry: String?
        /// The country line a territory gets then; `$state` stands for the state.
        var changeCountry: String?
        /// A component a territory gets then: "state=American Samoa".
        var addComponent: String?
    }

    var source: Source
    /// Each component's name and aliases, smallest first (`components.yaml`).
    var components: [ComponentNames]
    var templates: [String]
    var countries: [String: Country]
    /// By country: each code with its names, the default name first.
    var stateCodes: [String: [CodeNames]]
    var countyCodes: [String: [CodeNames]]
    /// By country: the languages whose abbreviations apply.
    var countryLanguages: [String: [String]]
    /// By language: for each component, `[long, short]` pairs.
    var abbreviations: [String: [ComponentAbbreviations]]

    /// `["house_number", ["street_number", "housenumber"]]`.
    struct ComponentNames: Decodable, Sendable {
        var name: String
        var aliases: [String]
        init(from decoder: any Decoder) throws {
            var pair = try decoder.unkeyedContainer()
            name = try pair.decode(String.self)
            aliases = try pair.decode([String].self)
        }
    }

    /// `["CO", ["Colorado"]]`.
    struct CodeNames: Decodable, Sendable {
        var code: String
        var names: [String]
        init(from decoder: any Decoder) throws {
            var pair = try decoder.unkeyedContainer()
            code = try pair.decode(String.self)
            names = try pair.decode([String].self)
        }
    }

    /// `["road", [["Avenue", "Ave"], ...]]`.
    struct ComponentAbbreviations: Decodable, Sendable {
        var component: String
        var pairs: [[String]]
        init(from decoder: any Decoder) throws {
            var pair = try decoder.unkeyedContainer()
            component = try pair.decode(String.self)
            pairs = try pair.decode([[String]].self)
        }
    }

    /// The configuration shipped in PindropCore's resources.
    static func bundled() throws -> AddressFormatData {
        guard let url = Bundle.module.url(forResource: "address-formats", withExtension: "json") else {
            throw PindropError.unreadableData("address-formats.json is missing from PindropCore's resources")
        }
        return try JSONDecoder().decode(AddressFormatData.self, from: Data(contentsOf: url))
    }
}
