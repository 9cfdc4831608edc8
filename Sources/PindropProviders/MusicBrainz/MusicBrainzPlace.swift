import PindropCore

/// A place as MusicBrainz's place search returns it (`/ws/2/place?fmt=json`). Parts MusicBrainz leaves out
/// when empty (`address`, `coordinates`, `life-span`, `type`, `area`) are nil.
public struct MusicBrainzPlace: Sendable, Hashable, Decodable {
    /// The MBID.
    public var id: String
    public var name: String
    /// "Studio", "Venue", "Stadium", "Indoor arena", "Religious building", ...
    public var type: String?
    /// Search relevance, 0...100.
    public var score: Int?
    public var address: String?
    /// Nil when absent or unreadable (search results write the numbers as strings, lookups as numbers).
    public var coordinates: Coordinate?
    public var area: Area?
    public var lifeSpan: LifeSpan?

    /// The city or country a place is in.
    public struct Area: Sendable, Hashable, Decodable {
        public var id: String?
        public var name: String
        public var sortName: String?

        enum CodingKeys: String, CodingKey { case id, name, sortName = "sort-name" }
    }

    /// When a place opened and closed: "YYYY", "YYYY-MM" or "YYYY-MM-DD".
    public struct LifeSpan: Sendable, Hashable, Decodable {
        public var begin: String?
        public var end: String?
        public var ended: Bool?
    }

    /// The opening year, read from `life-span.begin`; nil when unknown.
    public var openYear: Int? {
        guard let begin = lifeSpan?.begin, begin.count >= 4, let year = Int(begin.prefix(4)) else { return nil }
        return year
    }

    /// Makes a place (for tests and fixtures).
    public init(id: String, name: String, type: String? = nil, score: Int? = nil, address: String? = nil,
                coordinates: Coordinate? = nil, area: Area? = nil, lifeSpan: LifeSpan? = nil) {
        self.id = id; self.name = name; self.type = type; self.score = score; self.address = address
        self.coordinates = coordinates; self.area = area; self.lifeSpan = lifeSpan
    }

    enum CodingKeys: String, CodingKey {
        case id, name, type, score, address, coordinates, area
        case lifeSpan = "life-span"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
        type = try c.decodeIfPresent(String.self, forKey: .type)
        score = try? c.decodeIfPresent(FlexibleNumber.self, forKey: .score).map { Int($0.value) }
        address = try c.decodeIfPresent(String.self, forKey: .address).flatMap { $0.isEmpty ? nil : $0 }
        coordinates = (try? c.decodeIfPresent(FlexibleCoordinate.self, forKey: .coordinates))?.flatMap(\.coordinate)
        area = try? c.decodeIfPresent(Area.self, forKey: .area)
        lifeSpan = try? c.decodeIfPresent(LifeSpan.self, forKey: .lifeSpan)
    }
}

/// A number written either as a JSON number or as a string ("50.99508").
struct FlexibleNumber: Decodable {
    var value: Double

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let number = try? c.decode(Double.self) {
            value = number
        } else if let text = try? c.decode(String.self), let number = Double(text.trimmingCharacters(in: .whitespaces)) {
            value = number
        } else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected a number or a numeric string")
        }
    }
}

/// `{"latitude": ..., "longitude": ...}` with numbers or strings; nil when either is missing or off the globe.
struct FlexibleCoordinate: Decodable {
    var coordinate: Coordinate?

    enum CodingKeys: String, CodingKey { case latitude, longitude }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let latitude = try? c.decodeIfPresent(FlexibleNumber.self, forKey: .latitude)
        let longitude = try? c.decodeIfPresent(FlexibleNumber.self, forKey: .longitude)
        if let latitude = latitude ?? nil, let longitude = longitude ?? nil {
            coordinate = try? Coordinate(validatingLatitude: latitude.value, longitude: longitude.value)
        }
    }
}

/// The body of a place search: `{"created", "count", "offset", "places": [...]}`. A place that cannot be
/// read (no id or name) is kept as nil so it is counted as skipped rather than failing the page.
struct MusicBrainzPlaceSearchResponse: Decodable {
    var count: Int
    var offset: Int?
    var places: [MusicBrainzPlace?]

    enum CodingKeys: String, CodingKey { case count, offset, places }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        count = try c.decode(Int.self, forKey: .count)
        offset = try c.decodeIfPresent(Int.self, forKey: .offset)
        places = try c.decodeIfPresent([Lenient].self, forKey: .places)?.map(\.place) ?? []
    }

    private struct Lenient: Decodable {
        var place: MusicBrainzPlace?
        init(from decoder: any Decoder) throws { place = try? MusicBrainzPlace(from: decoder) }
    }
}

