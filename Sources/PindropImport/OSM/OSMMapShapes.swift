import PindropCore

/// What the offline map draws of an extract besides its named streets and buildings: unnamed roads and paths,
/// water areas, rivers and streams, parks and green land, other land use, and railways. Geometry for drawing only:
/// none of it becomes a place, an address or a venue.
enum OSMMapShapes {
    /// The tag keys the shapes are told apart by.
    static let tagKeys: Set<String> = ["natural", "waterway", "landuse", "leisure", "water", "railway", "tunnel", "area", "highway"]

    /// Roads and paths drawn without a name (the named ones are streets already): what a person can walk, cycle or
    /// drive on. Left out: roads being planned or built, platforms, stops and indoor corridors.
    static let roads: Set<String> = [
        "motorway", "trunk", "primary", "secondary", "tertiary", "motorway_link", "trunk_link", "primary_link",
        "secondary_link", "tertiary_link", "residential", "unclassified", "living_street", "pedestrian", "road", "service",
        "track", "busway", "footway", "path", "cycleway", "steps", "bridleway",
    ]
    static let waterways: Set<String> = ["river", "stream", "canal", "drain", "ditch"]
    /// Tracks a map shows; a subway runs under the streets and is left to the stations.
    static let railways: Set<String> = ["rail", "tram", "light_rail", "narrow_gauge", "funicular", "monorail", "preserved"]
    static let waterLanduse: Set<String> = ["reservoir", "basin"]
    static let green: [String: Set<String>] = [
        "leisure": ["park", "garden", "playground", "pitch", "golf_course", "nature_reserve", "dog_park", "common"],
        "landuse": ["forest", "grass", "meadow", "village_green", "recreation_ground", "allotments", "orchard", "vineyard",
                    "plant_nursery"],
        "natural": ["wood", "grassland", "scrub", "heath"],
    ]
    static let landuse: Set<String> = ["residential", "commercial", "retail", "industrial", "farmland", "farmyard", "cemetery",
                                       "railway", "construction", "military", "brownfield", "education", "religious"]

    /// The kind and category of an object with these tags, or nil when the map draws nothing of it. `isClosed`:
    /// a way whose ends meet (or a multipolygon), which may be an area; an open way can only be a line.
    static func classify(_ tags: OSMTags, isClosed: Bool, named: Bool) -> (kind: MapFeature.Kind, category: String)? {
        if let line = lineKind(tags, named: named) { return line }
        guard isClosed, tags["area"] != "no" else { return nil }
        if tags["natural"] == "water" { return (.water, tags["water"] ?? "water") }
        if tags["waterway"] == "riverbank" { return (.water, "riverbank") }
        if let value = tags["landuse"], waterLanduse.contains(value) { return (.water, value) }
        for (key, values) in green.sorted(by: { $0.key < $1.key }) {
            if let value = tags[key], values.contains(value) { return (.park, value) }
        }
        if let value = tags["landuse"], landuse.contains(value) { return (.landuse, value) }
        return nil
    }

    /// The line kinds: an unnamed road (a named one is a street), a waterway above ground, a railway track.
    private static func lineKind(_ tags: OSMTags, named: Bool) -> (kind: MapFeature.Kind, category: String)? {
        let underground = tags["tunnel"].map { $0 != "no" } ?? false
        if let highway = tags["highway"], !named, roads.contains(highway), tags["area"] != "yes" { return (.street, highway) }
        if let waterway = tags["waterway"], waterways.contains(waterway), !underground { return (.waterway, waterway) }
        if let railway = tags["railway"], railways.contains(railway), !underground { return (.railway, railway) }
        return nil
    }

    /// A way's shape: its line, or its ring when it is an area.
    static func shape(id: String, tags: OSMTags, points: [Coordinate], isClosed: Bool) -> MapFeature? {
        guard let (kind, category) = classify(tags, isClosed: isClosed, named: tags["name"] != nil) else { return nil }
        let feature = MapFeature(kind: kind, id: id, name: tags["name"], category: category, lines: [points])
        if feature.isArea { return OSMFeatureExtractor.ring(points).map { ring in with(feature, lines: [ring]) } }
        return points.count >= 2 ? feature : nil
    }

    /// A multipolygon's area: its outer and inner rings (even-odd), those that close; nil when none does (clipped at
    /// the extract's edge) or its tags make no area the map draws.
    static func area(id: String, tags: OSMTags, rings: [[Coordinate]]) -> MapFeature? {
        guard let (kind, category) = classify(tags, isClosed: true, named: tags["name"] != nil),
              MapDetail.areaKinds.contains(kind), kind != .building else { return nil }
        let closed = rings.compactMap(OSMFeatureExtractor.ring)
        return closed.isEmpty ? nil : MapFeature(kind: kind, id: id, name: tags["name"], category: category, lines: closed)
    }

    private static func with(_ feature: MapFeature, lines: [[Coordinate]]) -> MapFeature {
        var copy = feature
        copy.lines = lines
        return copy
    }
}
