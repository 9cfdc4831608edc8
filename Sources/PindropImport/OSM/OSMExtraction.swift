import PindropCore

/// One extraction in progress: nodes and relations first (in any order), then ways, then `finish()`.
/// What it keeps grows with the features found, plus 16 bytes a node for the node locations.
struct OSMExtraction {
    typealias Candidate = OSMFeatureExtractor.Candidate

    let extractor: OSMFeatureExtractor
    var locations = OSMNodeLocations()
    /// Objects that may be address points or places: they wait for the street relations.
    var nodeCandidates: [Candidate] = []
    var wayCandidates: [Candidate] = []
    /// Multipolygons (building outlines, places drawn as areas), boundaries, waterways and street relations.
    var relations: [OSMRelation] = []
    /// The ways relations are made of, known once the relations are.
    var memberWayIDs: Set<Int64>?
    var memberWays: [Int64: [Int64]] = [:]
    /// Each entrance node's place in `features.entrances`.
    var entranceIndex: [Int64: Int] = [:]
    /// Interpolation lines, until their numbered nodes' addresses are known.
    var interpolations: [PendingInterpolation] = []
    var features = OSMFeatures()

    /// An `addr:interpolation` way as read: its nodes in the file, their points, and the address parts it carries.
    struct PendingInterpolation {
        var id: String, key: OSMMemberKey, scheme: OSMInterpolation.Scheme
        var nodeIDs: [Int64], points: [Coordinate]
        var address: Address?
    }

    init(extractor: OSMFeatureExtractor) { self.extractor = extractor }

    mutating func add(nodes: [OSMNode]) {
        for node in nodes {
            locations.append(id: node.id, node.coordinate)
            guard !node.tags.isEmpty else { continue }
            if let kind = node.tags["entrance"] ?? node.tags["routing:entrance"] {
                entranceIndex[node.id] = features.entrances.count
                let kept = node.tags.filter { OSMFeatureExtractor.entranceKeys.contains($0.key) }.dictionary
                features.entrances.append(OSMEntrance(id: PlaceID.osm(.init(.node, node.id)).description, kind: kind,
                                                      coordinate: node.coordinate, tags: kept))
            }
            guard Self.mayBeCandidate(node.tags),
                  let candidate = Candidate(id: PlaceID.osm(.init(.node, node.id)).description, key: OSMMemberKey(type: .node, id: node.id),
                                            tags: node.tags, coordinate: node.coordinate) else { continue }
            nodeCandidates.append(candidate)
        }
    }

    /// Whether an object can be an address point or a place at all: it has a house number, a name, or a bridge's or a
    /// tunnel's name. Most tagged objects have none, and skip the main tags' rules.
    static func mayBeCandidate(_ tags: OSMTags) -> Bool {
        tags.contains { tag in
            tag.key == "addr:housenumber" || OSMMainTags.isMainName(tag.key) || tag.key.hasPrefix("bridge:name") || tag.key.hasPrefix("tunnel:name")
        }
    }

    mutating func add(relations more: [OSMRelation]) {
        relations += more.lazy.filter { Self.keeps(relationTags: $0.tags, areas: extractor.areas) }
    }

    /// Whether a relation with these tags is one the extraction uses: a multipolygon, a street, with `areas` a
    /// boundary of a level it knows, and a boundary or a waterway that is a place or carries an address.
    static func keeps(relationTags tags: OSMTags, areas: Bool) -> Bool {
        switch tags["type"] {
        case "multipolygon", "street", "associatedStreet": true
        case "boundary": (areas && AreaLevel.of(tags: tags) != nil) || isPlaceOrAddress(tags)
        case "waterway": isPlaceOrAddress(tags)
        default: false
        }
    }

    private static func isPlaceOrAddress(_ tags: OSMTags) -> Bool {
        tags["addr:housenumber"] != nil || (mayBeCandidate(tags) && OSMMainTags.place(of: tags, isNode: false) != nil)
    }

    /// The member ways a relation's shape is made of: the outer and unroled ways of a multipolygon or a boundary, every
    /// way of a waterway.
    static func shapeMembers(of relation: OSMRelation) -> [Int64] {
        let waterway = relation.tags["type"] == "waterway"
        return relation.members.filter { $0.type == .way && (waterway || $0.role == "outer" || $0.role.isEmpty) }.map(\.id)
    }

    /// Adds ways; every node and relation must have been added before the first call.
    mutating func add(ways: [OSMWay]) {
        if memberWayIDs == nil {
            locations.prepareForLookups()
            memberWayIDs = Set(relations.lazy.filter { ["multipolygon", "boundary", "waterway"].contains($0.tags["type"]) }
                .flatMap { $0.members.lazy.filter { $0.type == .way }.map(\.id) })
        }
        for way in ways {
            if memberWayIDs!.contains(way.id), memberWays[way.id] == nil { memberWays[way.id] = way.nodeIDs }
            guard !way.tags.isEmpty else { continue }
            add(way: way)
        }
    }

    private mutating func add(way: OSMWay) {
        let tags = way.tags
        let isStreet = tags["highway"] != nil && tags["name"] != nil
        let isBuilding = tags["building"].map { $0 != "no" } ?? false
        let mayBeCandidate = Self.mayBeCandidate(tags)
        let areaLevel = extractor.areas ? AreaLevel.of(tags: tags) : nil
        let scheme = tags["addr:housenumber"] == nil ? tags["addr:interpolation"].flatMap(OSMAddressTags.interpolationScheme) : nil
        let isClosed = way.nodeIDs.count >= 4 && way.nodeIDs.first == way.nodeIDs.last
        let isMapShape = OSMMapShapes.classify(tags, isClosed: isClosed, named: tags["name"] != nil) != nil
        guard isStreet || isBuilding || mayBeCandidate || areaLevel != nil || scheme != nil || isMapShape else { return }
        let id = PlaceID.osm(.init(.way, way.id)).description
        let points = locations.coordinates(of: way.nodeIDs)
        guard !points.isEmpty else { return }
        if isMapShape { addMapShape(id: id, tags: tags, points: points, isClosed: isClosed) }
        if let highway = tags["highway"], let name = tags["name"], points.count >= 2 {
            features.streets.append(OSMStreet(id: id, name: name, highway: highway, points: points))
        }
        if isClosed, isBuilding, let kind = tags["building"], let ring = OSMFeatureExtractor.ring(points) {
            features.buildings.append(OSMBuilding(id: id, kind: kind, name: tags["name"], outlines: [ring]))
        }
        if let areaLevel, isClosed {
            addArea(id: id, tags: tags, level: areaLevel, rings: [way.nodeIDs], memberWays: (1, 1), label: nil)
        }
        if let scheme { addInterpolation(way, id: id, scheme: scheme) }
        var isCandidate = false
        if mayBeCandidate, let coordinate = isClosed ? OSMGeometry.centroid(of: [points]) : OSMGeometry.midpoint(of: points),
           let candidate = Candidate(id: id, key: OSMMemberKey(type: .way, id: way.id), tags: tags, coordinate: coordinate,
                                     box: BoundingBox(covering: points)) {
            wayCandidates.append(candidate)
            isCandidate = true
        }
        if !entranceIndex.isEmpty, isBuilding || isCandidate { noteEntrances(on: way.nodeIDs, of: id) }
    }

    /// Records the way as holding the entrance nodes it has.
    private mutating func noteEntrances(on nodeIDs: [Int64], of way: String) {
        for node in nodeIDs {
            guard let index = entranceIndex[node], features.entrances[index].ways.last != way else { continue }
            features.entrances[index].ways.append(way)
        }
    }

    private mutating func addInterpolation(_ way: OSMWay, id: String, scheme: OSMInterpolation.Scheme) {
        var nodeIDs: [Int64] = [], points: [Coordinate] = []
        for node in way.nodeIDs {
            guard let point = locations.coordinate(of: node) else { continue }
            nodeIDs.append(node); points.append(point)
        }
        guard points.count >= 2 else { return }
        interpolations.append(PendingInterpolation(id: id, key: OSMMemberKey(type: .way, id: way.id), scheme: scheme, nodeIDs: nodeIDs,
                                                   points: points, address: OSMAddressTags.address(way.tags)))
    }

    /// Adds what the map draws of a way besides a named street or a building (`OSMMapShapes`).
    private mutating func addMapShape(id: String, tags: OSMTags, points: [Coordinate], isClosed: Bool) {
        if let shape = OSMMapShapes.shape(id: id, tags: tags, points: points, isClosed: isClosed) { features.mapShapes.append(shape) }
    }

    /// Adds what the map draws of a multipolygon besides a building: a lake, a river's surface, a park, land use,
    /// with its holes (`OSMMapShapes.area`).
    mutating func addMapShape(relation: OSMRelation, id: String) {
        let pieces = relation.members.filter { $0.type == .way && ["outer", "inner", ""].contains($0.role) }.compactMap { memberWays[$0.id] }
        let rings = OSMGeometry.assembleRings(pieces).map { locations.coordinates(of: $0) }
        if let shape = OSMMapShapes.area(id: id, tags: relation.tags, rings: rings) { features.mapShapes.append(shape) }
    }

    /// Adds a named area, or notes why it is left out: member ways or nodes missing from the file (an extract
    /// cuts the boundaries crossing its edge), or rings that do not close.
    mutating func addArea(id: String, tags: OSMTags, level: AreaLevel, rings: [[Int64]], memberWays: (count: Int, found: Int),
                          label: String?) {
        let name = level == .postcode ? tags["postal_code"] ?? tags["ref"] ?? tags["name"] : tags["name"]
        guard let name, !name.isEmpty else { return }  // unnamed boundary pieces name nothing
        let described = "\(id) (\(name))"
        guard memberWays.found == memberWays.count else {
            features.skippedAreas.append("\(described): \(memberWays.count - memberWays.found) of \(memberWays.count) member ways are not in the file")
            return
        }
        guard !rings.isEmpty else {
            features.skippedAreas.append("\(described): its ways do not join into closed rings")
            return
        }
        var coordinates: [[Coordinate]] = []
        for ring in rings {
            let points = locations.coordinates(of: ring)
            guard points.count == ring.count, points.count >= 4 else {
                features.skippedAreas.append("\(described): \(ring.count - points.count) nodes of its rings are not in the file")
                return
            }
            coordinates.append(points)
        }
        let localized = Dictionary(tags.compactMap { tag in
            tag.key.hasPrefix("name:") ? (String(tag.key.dropFirst(5)), tag.value) : nil
        }, uniquingKeysWith: { first, _ in first })
        var area = OSMArea(id: id, name: name, level: level, adminLevel: tags["admin_level"].flatMap { Int($0) },
                           localizedNames: localized, rings: coordinates, postcode: level == .postcode ? name : tags["postal_code"],
                           label: label, subdivisionCode: tags["ISO3166-2"]?.nonBlank)
        // Its other names ("official_name", "official_name:en", "alt_name"), not its `ref` (a code, not a name to search).
        for tag in tags where tag.key != "name" && !tag.key.hasPrefix("name:") && !tag.key.hasPrefix("ref") && PlaceTags.isName(tag.key) {
            area.otherNames[tag.key] = tag.value.nonBlank
        }
        features.areas.append(area)
    }
}
