import Foundation

/// An address as its parts, named as OpenCage's address templates name them (`house_number`, `road`, `postcode`,
/// `city`, `state`, `country_code`, ... and their aliases: `street`, `town`, `village`, `suburb`, `province`, ...),
/// ready for `AddressFormatter`. A part under a name the templates do not know (a place's name, `restaurant`, ...)
/// is kept too: it is written first, as the line above the address.
public struct AddressParts: Sendable, Hashable {
    /// The parts there, each with its component's slot (`AddressComponents`), in the order they were set: an
    /// address has a handful of the 67 slots, and an array of them all cost more to make and free than to format.
    private(set) var entries: [Entry] = []
    /// Parts under names the templates do not know, by name.
    private(set) var others: [String: String] = [:]

    /// No parts.
    public init() {}

    /// The parts of a JSON object or a table: each key a component's name (unknown names are kept as other parts).
    public init(_ parts: [String: String]) {
        for (name, value) in parts { self[name] = value }
    }

    /// The part under a component's name or alias ("road", "street", "town", ...), or under any other name.
    public subscript(name: String) -> String? {
        get {
            guard let slot = Self.components.slotByName[name], slot != Self.components.attention else { return others[name] }
            return self[slot: slot]
        }
        set {
            guard let slot = Self.components.slotByName[name], slot != Self.components.attention else {
                others[name] = newValue
                return
            }
            self[slot: slot] = newValue
        }
    }

    /// A part and its component's slot.
    struct Entry: Sendable, Hashable {
        let slot: Int
        var value: String
    }

    subscript(slot slot: Int) -> String? {
        get { entries.first { $0.slot == slot }?.value }
        set {
            if let n = entries.firstIndex(where: { $0.slot == slot }) {
                if let newValue { entries[n].value = newValue } else { entries.remove(at: n) }
            } else if let newValue {
                entries.append(Entry(slot: slot, value: newValue))
            }
        }
    }

    /// `house_number`: "16".
    public var houseNumber: String? { get { self[slot: Self.components.houseNumber] } set { self[slot: Self.components.houseNumber] = newValue } }
    /// `road`: "Mannerheimintie".
    public var road: String? { get { self[slot: Self.components.road] } set { self[slot: Self.components.road] = newValue } }
    /// `neighbourhood`.
    public var neighbourhood: String? { get { self[slot: Self.components.neighbourhood] } set { self[slot: Self.components.neighbourhood] = newValue } }
    /// `suburb`: the part of town ("Kamppi").
    public var suburb: String? { get { self[slot: Self.components.suburb] } set { self[slot: Self.components.suburb] = newValue } }
    /// `city`: the city, town or village ("Helsinki").
    public var city: String? { get { self[slot: Self.components.city] } set { self[slot: Self.components.city] = newValue } }
    /// `county`.
    public var county: String? { get { self[slot: Self.components.county] } set { self[slot: Self.components.county] = newValue } }
    /// `state`: the state, province or region.
    public var state: String? { get { self[slot: Self.components.state] } set { self[slot: Self.components.state] = newValue } }
    /// `postcode`: "00100".
    public var postcode: String? { get { self[slot: Self.components.postcode] } set { self[slot: Self.components.postcode] = newValue } }
    /// `country`: the country's name as it should be written ("Finland", "Suomi").
    public var country: String? { get { self[slot: Self.components.country] } set { self[slot: Self.components.country] = newValue } }
    /// `country_code`: ISO 3166-1 alpha-2, any case ("FI"); it picks the country's form.
    public var countryCode: String? { get { self[slot: Self.components.countryCode] } set { self[slot: Self.components.countryCode] = newValue } }
    /// A place's own name ("Kunstmuseum Liechtenstein"), written on the line above its address.
    public var name: String? { get { others["name"] } set { others["name"] = newValue } }

    /// Whether no part is there.
    public var isEmpty: Bool { entries.isEmpty && others.isEmpty }

    /// The shared formatter's components (read once: a computed copy cost a struct's retains on every part set).
    private static let components = AddressFormatter.shared.components

    /// Equal when the same parts are there.
    public static func == (a: AddressParts, b: AddressParts) -> Bool {
        a.others == b.others && a.entries.count == b.entries.count && a.entries.allSatisfy { b[slot: $0.slot] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        for entry in entries.sorted(by: { $0.slot < $1.slot }) { hasher.combine(entry) }
        hasher.combine(others)
    }
}

extension AddressParts {
    /// The parts of a Pindrop address: its street as `road`, its town as `city`, and the place's country code.
    public init(_ address: Address, countryCode: String?) {
        self.init()
        houseNumber = address.houseNumber
        road = address.street
        postcode = address.postcode
        city = address.town
        suburb = address.suburb
        county = address.county
        state = address.state
        country = address.country
        self.countryCode = countryCode
    }
}

extension AddressParts {
    /// The parts of an address's one display line: house number, street, postcode and town, and the country code
    /// that picks how they are written: "Simonkatu 7, 00100 Helsinki" in Finland, "Städtle 32, 9490 Vaduz" in
    /// Liechtenstein.
    public init(streetLine address: Address, countryCode: String?) {
        let components = Self.components
        entries.reserveCapacity(5)
        func add(_ slot: Int, _ value: String?) { if let value { entries.append(Entry(slot: slot, value: value)) } }
        add(components.houseNumber, address.houseNumber)
        add(components.road, address.street)
        add(components.postcode, address.postcode)
        add(components.city, address.town)
        add(components.countryCode, countryCode)
    }
}

extension AddressParts {
    /// The parts a JSON object names: `{"road": "Mannerheimintie", "house_number": 16, "city": "Helsinki",
    /// "country_code": "fi"}`; values are text, numbers (12 is "12") or null (no part). `.invalidInput` saying what
    /// is wrong when the bytes are not such an object.
    public init<Bytes: Collection<UInt8>>(json: Bytes) throws(PindropError) {
        guard json.contains(where: { !AddressText.isSpace($0) }) else {
            throw .invalidInput("empty; expected a JSON object of address parts")
        }
        do {
            self.init(try JSONDecoder().decode([String: PartValue].self, from: Data(json)).compactMapValues(\.text))
        } catch DecodingError.typeMismatch(_, let context) where !context.codingPath.isEmpty {
            throw .invalidInput("the value of \"\(context.codingPath[0].stringValue)\" is not text, a number or null")
        } catch DecodingError.typeMismatch {
            throw .invalidInput("not a JSON object of address parts")
        } catch {
            throw .invalidInput("not valid JSON")
        }
    }

    /// A part's value in JSON: text, a number (12 → "12", 1.5 → "1.5"), or null.
    private struct PartValue: Decodable {
        let text: String?

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                text = nil
            } else if let string = try? value.decode(String.self) {
                text = string
            } else if let integer = try? value.decode(Int64.self) {
                text = String(integer)
            } else if let number = try? value.decode(Double.self) {
                text = String(number)
            } else {
                throw DecodingError.typeMismatch(String.self, .init(codingPath: decoder.codingPath, debugDescription: "not a part"))
            }
        }
    }
}
