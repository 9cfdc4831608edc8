/// A line, polygon or point for drawing the offline street-level map: streets, buildings, water, parks, land use,
/// railways, and named venues (points of interest).
public struct MapFeature: Sendable, Hashable {
    /// What the feature is; its `category` says more (a street's `highway` value, a park's `leisure` value...).
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A road or path, named or not (`highway=*`): one line.
        case street
        /// A building footprint (`building=*`): its outer rings.
        case building
        /// A water area: a lake, a pond, a river's surface, a reservoir or basin; rings, outer and inner alike.
        case water
        /// A river, stream, canal or ditch: one line.
        case waterway
        /// A park, garden, pitch, forest, meadow or other green land; rings.
        case park
        /// Other land use: residential, commercial, industrial, farmland, cemetery...; rings.
        case landuse
        /// A railway, tram or light-rail track: one line.
        case railway
        /// A named venue (a café, a museum...): one point. Not stored with the shapes; the store's venues.
        case poi
    }

    public var kind: Kind
    /// "osm:way/123".
    public var id: String
    public var name: String?
    /// The tag value that says what exactly it is: a street's `highway` ("residential", "primary"), a building's
    /// `building`, a water area's or park's own tag ("water", "riverbank", "park", "forest"), a venue's category.
    public var category: String?
    /// A line: one. An area: its rings (even-odd: an inner ring is a hole). A point of interest: one line of one point.
    public var lines: [[Coordinate]]

    /// Makes a feature.
    public init(kind: Kind, id: String, name: String?, category: String?, lines: [[Coordinate]]) {
        self.kind = kind; self.id = id; self.name = name; self.category = category; self.lines = lines
    }

    /// Whether the feature is drawn as a filled area (else as a line, or a point).
    public var isArea: Bool { MapDetail.areaKinds.contains(kind) }

    /// The lowest web-map zoom it is drawn at (`MapDetail.minimumZoom`).
    public var minimumZoom: Int { MapDetail.minimumZoom(kind, category) }
}

/// What the offline street map draws at each web-map zoom, as a printed map of that scale would: main roads, water,
/// parks and land use from zoom 12, every residential street from 13, buildings and service roads from 14, paths
/// from 15 and named venues from 16. One policy for every store, so a zoom's answer is the same from each.
public enum MapDetail {
    /// The lowest zoom anything of the street map is drawn at: a 256-pixel tile there is under 0.1° across.
    public static let firstZoom = 12
    /// Named venues are drawn from this zoom: a block is then ~200 pixels across, room for a few names.
    public static let poiZoom = 16
    /// The kinds drawn as filled areas.
    public static let areaKinds: Set<MapFeature.Kind> = [.building, .water, .park, .landuse]

    /// The lowest zoom a feature of this kind and category is drawn at.
    public static func minimumZoom(_ kind: MapFeature.Kind, _ category: String?) -> Int {
        switch kind {
        case .street: streetZoom(category ?? "")
        case .building: 14
        case .water, .park, .landuse: firstZoom
        case .waterway: ["river", "canal"].contains(category ?? "") ? firstZoom : category == "stream" ? 13 : 15
        case .railway: category == "rail" ? firstZoom : 13
        case .poi: poiZoom
        }
    }

    /// Roads by class: the network a driver reads first, then the streets of a district, then the lanes and paths.
    private static func streetZoom(_ highway: String) -> Int {
        switch highway {
        case "motorway", "trunk", "primary", "secondary", "tertiary": firstZoom
        case "motorway_link", "trunk_link", "primary_link", "secondary_link", "tertiary_link",
             "residential", "unclassified", "living_street", "pedestrian", "road": 13
        case "service", "track", "busway", "raceway": 14
        default: 15
        }
    }

    /// Degrees of longitude one pixel spans at `zoom` (256-pixel tiles).
    public static func pixelDegrees(zoom: Int) -> Double {
        360 / (256 * Double(1 << max(0, min(30, zoom))))
    }

    /// Whether a feature with this box is drawn at `zoom`: from its minimum zoom, and an area only once its box is at
    /// least half a pixel across (a pond at zoom 12 is not; a degree of latitude spans more pixels than one of
    /// longitude away from the equator, so comparing both to a longitude pixel errs on the side of drawing).
    public static func isDrawn(_ kind: MapFeature.Kind, _ category: String?, box: BoundingBox, zoom: Int) -> Bool {
        guard zoom >= minimumZoom(kind, category) else { return false }
        guard areaKinds.contains(kind) else { return true }
        return max(box.north - box.south, box.east - box.west) >= pixelDegrees(zoom: zoom) / 2
    }
}

/// A store that can hand out what the street-level map draws inside a box (for the web map at street zoom).
public protocol StreetMapping: Sendable {
    /// The features intersecting `box`, at most `limit` of them (streets first). With a `zoom`, only what the map draws
    /// at that zoom (`MapDetail.isDrawn`), named venues (kind `.poi`) included from `MapDetail.poiZoom`; without one,
    /// every stored shape and no venues.
    func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) async throws -> [MapFeature]
    /// Credits the street data requires ("© OpenStreetMap contributors"); empty when there is none.
    var streetAttribution: [String] { get }
}
