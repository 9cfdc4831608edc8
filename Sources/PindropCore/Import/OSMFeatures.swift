/// A point carrying a full address (`addr:housenumber` with `addr:street` or `addr:place`), for reverse geocoding
/// and address search.
public struct OSMAddressPoint: Sendable, Hashable {
    /// The OSM object it comes from: "osm:node/123", "osm:way/456", "osm:relation/789".
    public var id: String
    /// The node, or the centroid of the building's outline.
    public var coordinate: Coordinate
    /// The house number as tagged (a list, "1;3", is one point: `Address.houseNumbers` reads it) and a street or, for a
    /// house without one, the place it belongs to (`addr:place`); the other parts as tagged (`addr:postcode`,
    /// `addr:city`, `addr:suburb`...).
    public var address: Address
    /// The country's ISO 3166-1 code as tagged (`addr:country`), upper case; nil when not tagged.
    public var countryCode: String?

    /// Makes an address point.
    public init(id: String, coordinate: Coordinate, address: Address, countryCode: String? = nil) {
        self.id = id; self.coordinate = coordinate; self.address = address; self.countryCode = countryCode
    }
}

/// A named street (`highway=*` with `name`): one OSM way, so one street is usually several of these.
public struct OSMStreet: Sendable, Hashable {
    /// The way: "osm:way/456".
    public var id: String
    /// The street's name ("Mannerheimintie") and its `highway` value ("primary", "residential", "footway", ...).
    public var name: String, highway: String
    /// The way's line, in order (closed for pedestrian areas); nodes missing from the extract are left out.
    public var points: [Coordinate]

    /// Makes a street.
    public init(id: String, name: String, highway: String, points: [Coordinate]) {
        self.id = id; self.name = name; self.highway = highway; self.points = points
    }
}

/// A named object that is a place of its own: a venue people visit (a cafe, a shop, a museum, an office), and every
/// other named feature OSM draws (a peak, a lake, a stream, a wood, a park, a railway station, a bridge, a named
/// building), and the place nodes of settlements (`place=village`: `categoryKey` "place").
public struct OSMVenue: Sendable, Hashable {
    /// The OSM object: "osm:node/123", "osm:way/456", "osm:relation/789".
    public var id: String
    /// The `name` tag.
    public var name: String
    /// What it is: the tag value ("cafe", "department_store", "museum", "peak"), or the key when the value is
    /// just "yes" ("shop", "office").
    public var category: String
    /// The tag key the category comes from: Nominatim's class ("amenity", "shop", "tourism", "natural", "place"...).
    public var categoryKey: String
    /// The object's other names and extra tags (`PlaceTags`): "name:de", "alt_name", "website", "opening_hours"...
    public var tags: [String: String] = [:]
    /// The object's extent, for a way or a relation (nil for a node).
    public var box: BoundingBox?
    /// The node, or the centroid of the way or multipolygon.
    public var coordinate: Coordinate
    /// The tagged address, else the address of the building it is in, else the nearest address point's (within the
    /// extractor's radius), else whatever address parts it has tagged, else nil.
    public var address: Address?
    /// Whether `address` comes from the venue's own tags rather than from a nearby address point.
    public var addressIsTagged: Bool
    /// The country's ISO 3166-1 code as tagged (`addr:country`), upper case; nil when not tagged.
    public var countryCode: String?

    /// Makes a venue.
    public init(id: String, name: String, category: String, categoryKey: String, coordinate: Coordinate,
                address: Address?, addressIsTagged: Bool, tags: [String: String] = [:], box: BoundingBox? = nil,
                countryCode: String? = nil) {
        self.id = id; self.name = name; self.category = category; self.categoryKey = categoryKey
        self.coordinate = coordinate; self.address = address; self.addressIsTagged = addressIsTagged
        self.tags = tags; self.box = box; self.countryCode = countryCode
    }
}

/// A house-number interpolation line (`addr:interpolation` on a way): the numbers between the tagged ones along it
/// are where the line puts them.
public struct OSMInterpolation: Sendable, Hashable {
    /// Which numbers the line holds: every second odd or even one, all, every `step`-th, or letters ("12a" … "12f").
    public enum Scheme: Sendable, Hashable {
        case odd, even, all, step(Int), alphabetic

        /// The `addr:interpolation` value that says it: "odd", "even", "all", "alphabetic" or the step ("3").
        public var tagValue: String {
            switch self {
            case .odd: "odd"
            case .even: "even"
            case .all: "all"
            case .alphabetic: "alphabetic"
            case .step(let step): String(step)
            }
        }
    }

    /// The way: "osm:way/456".
    public var id: String
    public var scheme: Scheme
    /// The line, in order.
    public var points: [Coordinate]
    /// The numbered nodes on the line, in order: the index of each in `points` and its address (house number, street
    /// or place, postcode, town as tagged on the node, else on the way).
    public var stops: [(point: Int, address: Address)]

    /// Makes an interpolation line.
    public init(id: String, scheme: Scheme, points: [Coordinate], stops: [(point: Int, address: Address)]) {
        self.id = id; self.scheme = scheme; self.points = points; self.stops = stops
    }

    public static func == (a: OSMInterpolation, b: OSMInterpolation) -> Bool {
        a.id == b.id && a.scheme == b.scheme && a.points == b.points && a.stops.elementsEqual(b.stops) { $0.point == $1.point && $0.address == $1.address }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// An entrance (`entrance=*`, else `routing:entrance=*` on a node), with the ways it is a node of.
public struct OSMEntrance: Sendable, Hashable {
    /// The node: "osm:node/123".
    public var id: String
    /// The `entrance` value: "main", "yes", "service", "emergency"...
    public var kind: String
    public var coordinate: Coordinate
    /// A few other tags of the node, as Nominatim returns them: "ref", "wheelchair", "access", "door", "level"...
    public var tags: [String: String]
    /// The buildings, places and addressed ways it is a node of: "osm:way/456".
    public var ways: [String]

    /// Makes an entrance.
    public init(id: String, kind: String, coordinate: Coordinate, tags: [String: String] = [:], ways: [String] = []) {
        self.id = id; self.kind = kind; self.coordinate = coordinate; self.tags = tags; self.ways = ways
    }
}

/// A building footprint (`building=*`), for drawing a basemap at street zoom.
public struct OSMBuilding: Sendable, Hashable {
    /// The way or multipolygon: "osm:way/456", "osm:relation/789".
    public var id: String
    /// The `building` value ("yes", "retail", "apartments", ...), and the `name` tag when there is one.
    public var kind: String, name: String?
    /// The outer rings, each closed (first point repeated at the end); one ring for a plain way.
    public var outlines: [[Coordinate]]

    /// Makes a building.
    public init(id: String, kind: String, name: String?, outlines: [[Coordinate]]) {
        self.id = id; self.kind = kind; self.name = name; self.outlines = outlines
    }
}

/// How far down the address hierarchy an area sits, coarse to fine; also the levels `reverse` can answer at.
public enum AreaLevel: Int, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// A country (`admin_level` 2).
    case country = 2
    /// A state, region or province (`admin_level` 3–4).
    case state = 4
    /// A county or district (`admin_level` 5–6).
    case county = 6
    /// A municipality: a city, town or village (`admin_level` 7–8, `place=city|town|village|hamlet`).
    case city = 8
    /// A part of a town (`admin_level` 9–10, `place=suburb|quarter|borough`).
    case suburb = 10
    /// A neighbourhood (`admin_level` 11 and finer, `place=neighbourhood`).
    case neighbourhood = 11
    /// A postcode area (`boundary=postal_code`), beside the others rather than inside them.
    case postcode = 20

    public static func < (a: AreaLevel, b: AreaLevel) -> Bool { a.rawValue < b.rawValue }

    /// The level of an OSM object's tags, or nil when they do not make it an area this index keeps.
    public static func of(tags: OSMTags) -> AreaLevel? {
        switch tags["boundary"] {
        case "administrative":
            guard let level = tags["admin_level"].flatMap({ Int($0) }) else { return nil }
            switch level {
            case ...2: return .country
            case 3...4: return .state
            case 5...6: return .county
            case 7...8: return .city
            case 9...10: return .suburb
            default: return .neighbourhood
            }
        case "postal_code": return .postcode
        default: break
        }
        switch tags["place"] {
        case "city", "town", "village", "hamlet", "municipality": return .city
        case "suburb", "quarter", "borough", "city_district": return .suburb
        case "neighbourhood": return .neighbourhood
        default: return nil
        }
    }
}

/// A named area from OSM: an administrative boundary, a postcode area, or a place drawn as a polygon.
public struct OSMArea: Sendable, Hashable {
    /// "osm:relation/123" or "osm:way/456".
    public var id: String
    /// The `name` tag; for a postcode area, its postcode.
    public var name: String
    /// Where it sits in the hierarchy, and its `admin_level` when it has one (finer than `level`: 7 or 8).
    public var level: AreaLevel, adminLevel: Int?
    /// The names in other languages: `name:de` → "de": "Liechtenstein".
    public var localizedNames: [String: String]
    /// Closed rings (first point repeated at the end), outer and inner alike: a point is inside when an odd
    /// number of them surround it, so holes and exclaves need no flag.
    public var rings: [[Coordinate]]
    /// The postcode a boundary carries (`postal_code`, as on a municipality); for a postcode area, its postcode.
    public var postcode: String?
    /// The place node the boundary is drawn around: its member with role `label`, else `admin_centre` ("osm:node/123").
    public var label: String?
    /// Its ISO 3166-2 code (`ISO3166-2`: "LI-10"); nil when it has none.
    public var subdivisionCode: String?
    /// Its other names by key (`official_name`: "Fürstentum Liechtenstein", `alt_name`, `short_name`…: `PlaceTags.otherNameKeys`).
    public var otherNames: [String: String] = [:]

    /// Makes an area.
    public init(id: String, name: String, level: AreaLevel, adminLevel: Int? = nil, localizedNames: [String: String] = [:],
                rings: [[Coordinate]], postcode: String? = nil, label: String? = nil, subdivisionCode: String? = nil) {
        self.id = id; self.name = name; self.level = level; self.adminLevel = adminLevel
        self.localizedNames = localizedNames; self.rings = rings; self.postcode = postcode; self.label = label
        self.subdivisionCode = subdivisionCode
    }
}

/// Everything the street-level index takes from an OSM extract.
public struct OSMFeatures: Sendable {
    /// Points with a house number and a street or a place (`addr:place`).
    public var addressPoints: [OSMAddressPoint]
    /// Named street ways.
    public var streets: [OSMStreet]
    /// Named objects that are places of their own: venues, natural features, place nodes... (`OSMVenue`); those drawn
    /// as areas first, then points, each in the file's order.
    public var venues: [OSMVenue]
    /// Building footprints.
    public var buildings: [OSMBuilding]
    /// What else the map draws: unnamed roads, water areas, waterways, parks, land use and railways (never `.street`
    /// with a name, `.building` or `.poi`: those are the named streets, the buildings and the venues above).
    public var mapShapes: [MapFeature] = []
    /// Administrative, postcode and place areas.
    public var areas: [OSMArea] = []
    /// House-number interpolation lines.
    public var interpolations: [OSMInterpolation] = []
    /// Entrance nodes.
    public var entrances: [OSMEntrance] = []
    /// Areas left out because their rings could not be closed: "osm:relation/51701 (Schweiz): 3 of 41 member
    /// ways are not in the file".
    public var skippedAreas: [String] = []

    /// Makes a feature set.
    public init(addressPoints: [OSMAddressPoint] = [], streets: [OSMStreet] = [], venues: [OSMVenue] = [],
                buildings: [OSMBuilding] = []) {
        self.addressPoints = addressPoints; self.streets = streets; self.venues = venues; self.buildings = buildings
    }
}
