/// A point carrying a full street address (`addr:housenumber` + `addr:street`), for reverse geocoding
/// and address search.
public struct OSMAddressPoint: Sendable, Hashable {
    /// The OSM object it comes from: "osm:node/123", "osm:way/456", "osm:relation/789".
    public var id: String
    /// The node, or the centroid of the building's outline.
    public var coordinate: Coordinate
    /// House number and street always; postcode and town when tagged (`addr:postcode`, `addr:city`).
    public var address: Address

    /// Makes an address point.
    public init(id: String, coordinate: Coordinate, address: Address) {
        self.id = id; self.coordinate = coordinate; self.address = address
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

/// A named place people visit: a cafe, a shop, a museum, an office...
public struct OSMVenue: Sendable, Hashable {
    /// The OSM object: "osm:node/123", "osm:way/456", "osm:relation/789".
    public var id: String
    /// The `name` tag.
    public var name: String
    /// What it is: the tag value ("cafe", "department_store", "museum"), or the key when the value is
    /// just "yes" ("shop", "office").
    public var category: String
    /// The tag key the category comes from ("amenity", "shop", "tourism", ...).
    public var categoryKey: String
    /// The node, or the centroid of the way or multipolygon.
    public var coordinate: Coordinate
    /// The tagged address, else the nearest address point's (within the extractor's radius), else nil.
    public var address: Address?
    /// Whether `address` comes from the venue's own tags rather than from a nearby address point.
    public var addressIsTagged: Bool

    /// Makes a venue.
    public init(id: String, name: String, category: String, categoryKey: String, coordinate: Coordinate,
                address: Address?, addressIsTagged: Bool) {
        self.id = id; self.name = name; self.category = category; self.categoryKey = categoryKey
        self.coordinate = coordinate; self.address = address; self.addressIsTagged = addressIsTagged
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

/// Everything the street-level index takes from an OSM extract.
public struct OSMFeatures: Sendable {
    /// Points with a house number and a street.
    public var addressPoints: [OSMAddressPoint]
    /// Named street ways.
    public var streets: [OSMStreet]
    /// Named venues with a category.
    public var venues: [OSMVenue]
    /// Building footprints.
    public var buildings: [OSMBuilding]

    /// Makes a feature set.
    public init(addressPoints: [OSMAddressPoint] = [], streets: [OSMStreet] = [], venues: [OSMVenue] = [],
                buildings: [OSMBuilding] = []) {
        self.addressPoints = addressPoints; self.streets = streets; self.venues = venues; self.buildings = buildings
    }
}
