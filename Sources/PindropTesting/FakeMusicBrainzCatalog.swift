import Foundation
import PindropCore

/// Deterministic, realistic MusicBrainz places for the fake server: the same query always yields the same
/// places in the same order. A query naming one of the catalogue's cities ("Copenhagen") yields places in
/// that city; any other query yields places spread over every city. Some places lack coordinates, some an
/// address, some a life-span, as in the real data; opening dates run from 1950 to the current year.
public struct FakeMusicBrainzCatalog: Sendable {
    /// Places a query matches unless `placeCounts` says otherwise.
    public var defaultPlaceCount: Int
    /// Places matched per query (compared case- and accent-insensitively).
    public var placeCounts: [String: Int]
    /// Changes every generated value.
    public var seed: UInt64
    /// Out of 100 places, how many come without coordinates / address / life-span.
    public var percentWithoutCoordinates = 12
    public var percentWithoutAddress = 15
    public var percentWithoutLifeSpan = 8

    /// Makes a catalogue.
    public init(defaultPlaceCount: Int = 250, placeCounts: [String: Int] = [:], seed: UInt64 = 1990) {
        self.defaultPlaceCount = max(0, defaultPlaceCount)
        self.placeCounts = Dictionary(placeCounts.map { (TextFolding.fold($0.key), max(0, $0.value)) }, uniquingKeysWith: { a, _ in a })
        self.seed = seed
    }

    /// How many places `query` matches.
    public func placeCount(for query: String) -> Int {
        placeCounts[TextFolding.fold(query)] ?? defaultPlaceCount
    }

    /// The places of one page.
    public func places(for query: String, offset: Int, limit: Int) -> [FakeMusicBrainzPlace] {
        let count = placeCount(for: query)
        guard offset < count, limit > 0 else { return [] }
        return (offset..<min(count, offset + limit)).map { place(for: query, at: $0) }
    }

    /// The place at `index` of the results for `query`.
    public func place(for query: String, at index: Int) -> FakeMusicBrainzPlace {
        let folded = TextFolding.fold(query)
        var random = SplitMix64(seed: seed ^ FakeMusicBrainzCatalog.stableHash(folded) ^ UInt64(index) &* 0x9E37_79B9_7F4A_7C15)
        let city = Self.cities.first { city in ([city.name] + city.aliases).contains { folded.contains(TextFolding.fold($0)) } }
            ?? Self.cities[random.below(Self.cities.count)]
        let type = Self.types[random.below(Self.types.count)]
        let word = Self.words[random.below(Self.words.count)]
        let name: String
        switch type {
        case "Studio": name = [ "\(word) Studios", "Studio \(word)", "\(word) Sound", "\(word) Recording"][random.below(4)]
        case "Venue": name = ["\(word) Club", "The \(word) Room", "Café \(word)", "\(word) Hall", "\(word) Bar"][random.below(5)]
        case "Stadium": name = ["\(city.name) Stadium", "\(word) Park"][random.below(2)]
        case "Indoor arena": name = ["\(city.name) Arena", "\(word) Arena"][random.below(2)]
        case "Religious building": name = ["St. \(Self.saints[random.below(Self.saints.count)])'s Church", "\(word) Chapel"][random.below(2)]
        case "Educational institution": name = ["\(city.name) Conservatory", "\(word) Music School"][random.below(2)]
        case "Pressing plant": name = "\(word) Pressing"
        default: name = "\(word) House"
        }

        let hasCoordinates = random.below(100) >= percentWithoutCoordinates
        let hasAddress = random.below(100) >= percentWithoutAddress
        let hasLifeSpan = random.below(100) >= percentWithoutLifeSpan
        let latitude = city.latitude + (random.unit() - 0.5) * 0.08
        let longitude = city.longitude + (random.unit() - 0.5) * 0.12
        let street = city.streets[random.below(city.streets.count)]
        let number = 1 + random.below(180)
        let streetLine = city.numberFirst ? "\(number) \(street)" : "\(street) \(number)"
        let address = "\(streetLine), \(city.localities[random.below(city.localities.count)])"

        let currentYear = Calendar(identifier: .gregorian).component(.year, from: Date())
        let beginYear = 1950 + random.below(currentYear - 1950 + 1)
        let month = 1 + random.below(12), day = 1 + random.below(28)
        let begin: String = switch random.below(4) {
        case 0, 1: String(format: "%04d", beginYear)
        case 2: String(format: "%04d-%02d", beginYear, month)
        default: String(format: "%04d-%02d-%02d", beginYear, month, day)
        }
        let ended = beginYear < currentYear - 1 && random.below(100) < 15
        let end = ended ? String(format: "%04d", beginYear + 1 + random.below(currentYear - beginYear)) : nil

        let count = max(placeCount(for: query), 1)
        return FakeMusicBrainzPlace(
            id: Self.mbid(&random), name: name, type: type, score: max(1, 100 - index * 99 / count),
            address: hasAddress ? address : nil,
            latitude: hasCoordinates ? latitude : nil, longitude: hasCoordinates ? longitude : nil,
            areaID: city.areaID, areaName: city.name,
            begin: hasLifeSpan ? begin : nil, end: hasLifeSpan ? end : nil, ended: hasLifeSpan && ended)
    }

    /// A search response body exactly as MusicBrainz writes it (`fmt=json`): `created`, `count`, `offset`,
    /// `places`, with coordinates as strings and empty parts left out.
    public func searchResponse(for query: String, offset: Int, limit: Int, created: Date = Date()) -> [UInt8] {
        let places = places(for: query, offset: offset, limit: limit)
        var w = JSONWriter(capacity: 256 + places.count * 480)
        w.beginObject()
        w.key("created"); w.string(Self.timestamp(created))
        w.key("count"); w.number(placeCount(for: query))
        w.key("offset"); w.number(offset)
        w.key("places")
        w.beginArray()
        for place in places { place.write(into: &w) }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    static func timestamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// A random version-4 UUID, lower case, as MBIDs are written.
    static func mbid(_ random: inout SplitMix64) -> String {
        let hex = Array("0123456789abcdef")
        var chars: [Character] = []
        for i in 0..<32 {
            var nibble = random.below(16)
            if i == 12 { nibble = 4 }
            if i == 16 { nibble = 8 + nibble % 4 }
            chars.append(hex[nibble])
            if [7, 11, 15, 19].contains(i) { chars.append("-") }
        }
        return String(chars)
    }

    /// FNV-1a: stable across runs (unlike `Hasher`).
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return hash
    }

    struct City: Sendable {
        var name: String
        var areaID: String
        var latitude: Double
        var longitude: Double
        var streets: [String]
        /// Postcode and town as the country writes them: "1620 København V", "London NW8 9AY".
        var localities: [String]
        /// "3 Abbey Road" rather than "Abbey Road 3".
        var numberFirst = false
        /// Other names a query may use ("København").
        var aliases: [String] = []
    }

    static let cities: [City] = [
        City(name: "Copenhagen", areaID: "e0fd1c9d-7d6e-4d8c-b0e3-0d6b1a0f9c11", latitude: 55.6761, longitude: 12.5683,
             streets: ["Vesterbrogade", "Nørrebrogade", "Istedgade", "Amagerbrogade", "Østerbrogade", "Gothersgade", "Enghavevej"],
             localities: ["1620 København V", "2200 København N", "1650 København V", "2300 København S", "2100 København Ø", "1123 København K"],
             aliases: ["København"]),
        City(name: "Berlin", areaID: "c9ac1239-e832-41bc-9930-e252a1fd1105", latitude: 52.5200, longitude: 13.4050,
             streets: ["Kastanienallee", "Oranienstraße", "Torstraße", "Warschauer Straße", "Skalitzer Straße", "Köpenicker Straße"],
             localities: ["10435 Berlin", "10999 Berlin", "10119 Berlin", "10243 Berlin", "10997 Berlin", "10179 Berlin"]),
        City(name: "London", areaID: "f03d09b3-39dc-4083-afd6-159e3f0d462f", latitude: 51.5074, longitude: -0.1278,
             streets: ["Abbey Road", "Camden High Street", "Denmark Street", "Brixton Road", "Holloway Road", "Kingsland Road"],
             localities: ["London NW8 9AY", "London NW1 7JE", "London WC2H 8LS", "London SW9 6LH", "London N7 8JL", "London E8 4AA"],
             numberFirst: true),
        City(name: "Helsinki", areaID: "4f0a2b9a-4a6c-4a43-9f1e-5b9b3f0e6c21", latitude: 60.1695, longitude: 24.9354,
             streets: ["Mannerheimintie", "Aleksanterinkatu", "Fredrikinkatu", "Hämeentie", "Sturenkatu"],
             localities: ["00100 Helsinki", "00120 Helsinki", "00530 Helsinki", "00510 Helsinki"]),
        City(name: "Nashville", areaID: "ab1b9f1b-6c7e-4b52-b7a5-fb1a1d3e2c40", latitude: 36.1627, longitude: -86.7816,
             streets: ["Music Square East", "Broadway", "Demonbreun Street", "Division Street", "Gallatin Avenue"],
             localities: ["Nashville, TN 37203", "Nashville, TN 37201", "Nashville, TN 37206"], numberFirst: true),
        City(name: "Paris", areaID: "dc10c22b-e510-4006-8b7f-fecb4f36436e", latitude: 48.8566, longitude: 2.3522,
             streets: ["Rue Oberkampf", "Boulevard de Clichy", "Rue de la Roquette", "Rue du Faubourg Saint-Denis", "Rue des Martyrs"],
             localities: ["75011 Paris", "75018 Paris", "75010 Paris", "75009 Paris"]),
        City(name: "Reykjavík", areaID: "1d1b1a2e-0e4c-4ef0-9c49-0d8b6d7b5a31", latitude: 64.1466, longitude: -21.9426,
             streets: ["Laugavegur", "Hverfisgata", "Skólavörðustígur", "Tryggvagata"],
             localities: ["101 Reykjavík", "105 Reykjavík", "107 Reykjavík"]),
        City(name: "Melbourne", areaID: "5a7b8f53-1e0a-4e2b-8d5c-3c2e3c7e9b52", latitude: -37.8136, longitude: 144.9631,
             streets: ["Brunswick Street", "Sydney Road", "Chapel Street", "Smith Street", "Swanston Street"],
             localities: ["Fitzroy VIC 3065", "Brunswick VIC 3056", "Prahran VIC 3181", "Melbourne VIC 3000"], numberFirst: true),
    ]

    static let types = ["Studio", "Studio", "Studio", "Venue", "Venue", "Venue", "Venue", "Stadium", "Indoor arena",
                        "Religious building", "Educational institution", "Pressing plant", "Other"]
    static let words = ["Blue", "Echo", "Northern", "Vinyl", "Velvet", "Harbour", "Copper", "Lighthouse", "Radio", "Signal",
                        "Orbit", "Meadow", "Fjord", "Crystal", "Golden", "Electric", "Paper", "Lantern", "Magnet", "Moon",
                        "Cobalt", "Amber", "Granite", "Mosaic", "Sparrow", "Tidal", "Neon", "Aurora", "Juniper", "Foghorn"]
    static let saints = ["Mary", "John", "Peter", "Paul", "Anne", "Michael", "Nicholas", "Luke"]
}

/// One generated place, written exactly as MusicBrainz's search writes a place.
public struct FakeMusicBrainzPlace: Sendable, Hashable {
    public var id: String
    public var name: String
    public var type: String
    public var score: Int
    public var address: String?
    public var latitude: Double?
    public var longitude: Double?
    public var areaID: String
    public var areaName: String
    /// `life-span.begin` ("1995", "1995-04", "1995-04-12"); nil when the place has no life-span.
    public var begin: String?
    public var end: String?
    public var ended: Bool

    /// The opening year, nil without a life-span.
    public var openYear: Int? { begin.flatMap { Int($0.prefix(4)) } }

    func write(into w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(id)
        w.key("type"); w.string(type)
        w.key("score"); w.number(score)
        w.key("name"); w.string(name)
        if let address { w.key("address"); w.string(address) }
        if let latitude, let longitude {
            w.key("coordinates")
            w.beginObject()
            w.key("latitude"); w.string(String(format: "%.6f", latitude))
            w.key("longitude"); w.string(String(format: "%.6f", longitude))
            w.endObject()
        }
        w.key("area")
        w.beginObject()
        w.key("id"); w.string(areaID)
        w.key("type"); w.string("City")
        w.key("name"); w.string(areaName)
        w.key("sort-name"); w.string(areaName)
        w.key("life-span"); w.beginObject(); w.key("ended"); w.null(); w.endObject()
        w.endObject()
        if let begin {
            w.key("life-span")
            w.beginObject()
            w.key("begin"); w.string(begin)
            w.field("end", end)
            w.key("ended"); if ended { w.bool(true) } else { w.null() }
            w.endObject()
        }
        w.endObject()
    }
}

/// A small, fast, seedable random generator (SplitMix64), so generated data is the same on every run.
public struct SplitMix64 {
    private var state: UInt64

    /// Makes a generator; one seed, one sequence.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<bound.
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(max(bound, 1))) }

    /// A value in 0..<1.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
