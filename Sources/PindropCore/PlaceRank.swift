/// Where a place stands in Nominatim's two orders (docs/customize/Ranking.md): its search rank (`place_rank`: 4 a
/// country … 16 a city … 26 a street, 30 a house or a venue; lower ranks before higher among equals) and its address
/// rank (which part of an address it can be: 0 none, 4 country … 16 city … 26 street). Given by its main tag, as
/// Nominatim's default rank table assigns them (settings/address-levels.json, without its per-country changes).
public struct PlaceRank: Sendable, Hashable {
    public var search: Int
    public var address: Int

    /// Makes a rank.
    public init(search: Int, address: Int) { self.search = search; self.address = address }

    /// The `place` values of a node that labels a whole country, state or county: the boundary (or GeoNames' country)
    /// answers for it, as Nominatim links such a node to its boundary, so it is no place of its own.
    public static let boundaryLabels: Set<String> = ["continent", "country", "state", "region", "province", "county"]

    /// The ranks of an object tagged `key=value`; `adminLevel` for `boundary=administrative`.
    public static func of(key: String, value: String, adminLevel: Int? = nil) -> PlaceRank {
        if key == "boundary", value == "administrative", let level = adminLevel, (2...12).contains(level) {
            let rank = 2 * level
            return PlaceRank(search: rank, address: rank)
        }
        let table = tables[key]
        guard let rank = table?[value] ?? table?[""] else { return PlaceRank(search: 30, address: 30) }
        return rank
    }

    /// A rank given as `[search, address]` or as one number for both.
    private static func r(_ search: Int, _ address: Int? = nil) -> PlaceRank { PlaceRank(search: search, address: address ?? search) }

    /// key → value → rank; the value "" stands for the key's other values. A key not listed ranks 30 (a venue).
    private static let tables: [String: [String: PlaceRank]] = [
        "place": [
            "sea": r(2, 0), "island": r(17, 0), "islet": r(20, 0), "continent": r(2, 0), "country": r(4, 0), "state": r(8, 0),
            "province": r(8, 0), "region": r(18, 0), "county": r(12), "district": r(12), "municipality": r(14), "city": r(16),
            "town": r(18, 16), "borough": r(18), "village": r(19, 16), "suburb": r(19, 20), "hamlet": r(20), "croft": r(20),
            "subdivision": r(22), "allotments": r(22), "neighbourhood": r(24), "quarter": r(20, 22), "isolated_dwelling": r(22, 25),
            "farm": r(22, 25), "city_block": r(25), "mountain_pass": r(25), "square": r(25), "locality": r(25), "houses": r(28, 0),
            "house": r(30), "postcode": r(21, 0), "": r(22, 0),
        ],
        "boundary": ["postal_code": r(21, 0), "": r(25, 0)],
        "landuse": [
            "residential": r(24), "farm": r(24), "farmyard": r(24), "industrial": r(24), "commercial": r(24), "allotments": r(24),
            "retail": r(24), "": r(24, 0),
        ],
        "leisure": ["park": r(24, 0), "nature_reserve": r(24, 0), "garden": r(25, 0), "common": r(25, 0)],
        "natural": [
            "peak": r(18, 0), "volcano": r(18, 0), "mountain_range": r(18, 0), "sea": r(4, 0), "tree": r(30), "spring": r(30),
            "cave_entrance": r(30), "geyser": r(30), "hot_spring": r(30), "rock": r(30), "stone": r(30), "": r(22, 0),
        ],
        "water": ["lake": r(20, 0), "reservoir": r(20, 0), "wastewater": r(24, 0), "pond": r(24, 0), "fountain": r(24, 0), "": r(22, 0)],
        "waterway": ["river": r(19, 0), "stream": r(22, 0), "ditch": r(22, 0), "drain": r(22, 0), "": r(20, 0)],
        "highway": [
            "": r(30), "service": r(27), "cycleway": r(27), "path": r(27), "footway": r(27), "steps": r(27), "bridleway": r(27),
            "motorway_link": r(27), "primary_link": r(27), "trunk_link": r(27), "secondary_link": r(27), "tertiary_link": r(27),
            "residential": r(26), "track": r(26), "unclassified": r(26), "tertiary": r(26), "secondary": r(26), "primary": r(26),
            "living_street": r(26), "trunk": r(26), "motorway": r(26), "pedestrian": r(26), "road": r(26), "construction": r(26),
        ],
        "mountain_pass": ["": r(20, 0)],
        "historic": ["neighbourhood": r(22, 0)],
    ]

}
