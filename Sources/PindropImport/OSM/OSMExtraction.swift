import PindropCore

/// One extraction in progress: nodes and relations first (in any order), then ways, then `finish()`.
/// What it keeps grows with the features found, plus 16 bytes a node for the node locations.
struct OSMExtraction {
    let extractor: OSMFeatureExtractor
    private var locations = OSMNodeLocations()
    /// Objects that may be address points or venues: they wait for the street relations.
    private var nodeCandidates: [OSMFeatureExtractor.Candidate] = []
    private var wayCandidates: [OSMFeatureExtractor.Candidate] = []
    /// Multipolygons (building outlines, venues drawn as areas) and street relations.
    private var relations: [OSMRelation] = []
    /// The ways multipolygons are made of, known once the relations are.
    private var memberWayIDs: Set<Int64>?
    private var memberWays: [Int64: [Int64]] = [:]
    private var features = OSMFeatures()

    init(extractor: OSMFeatureExtractor) { self.extractor = extractor }

    mutating func add(nodes: [OSMNode]) {
        for node in nodes {
            locations.append(id: node.id, node.coordinate)
            guard !node.tags.isEmpty, OSMFeatureExtractor.mayBeAddressOrVenue(node.tags) else { continue }
            nodeCandidates.append(.init(id: PlaceID.osm(.init(.node, node.id)).description, key: OSMMemberKey(type: .node, id: node.id),
                                        tags: node.tags, coordinate: node.coordinate))
        }
    }

    mutating func add(relations more: [OSMRelation]) {
        relations += more.lazy.filter { Self.keeps(relationTags: $0.tags, areas: extractor.areas) }
    }

    /// Whether a relation with these tags is one the extraction uses: a multipolygon, a street, or with `areas` a
    /// boundary of a level it knows.
    static func keeps(relationTags tags: OSMTags, areas: Bool) -> Bool {
        switch tags["type"] {
        case "multipolygon", "street", "associatedStreet": true
        case "boundary": areas && AreaLevel.of(tags: tags) != nil
        default: false
        }
    }

    /// Adds ways; every node and relation must have been added before the first call.
    mutating func add(ways: [OSMWay]) {
        if memberWayIDs == nil {
            locations.prepareForLookups()
            memberWayIDs = Set(relations.lazy.filter { $0.tags["type"] == "multipolygon" || $0.tags["type"] == "boundary" }
                .flatMap { $0.members.lazy.filter { $0.type == .way }.map(\.id) })
        }
        for way in ways {
            if memberWayIDs!.contains(way.id), memberWays[way.id] == nil { memberWays[way.id] = way.nodeIDs }
            guard !way.tags.isEmpty else { continue }
            let isStreet = way.tags["highway"] != nil && way.tags["name"] != nil
            let isBuilding = way.tags["building"].map { $0 != "no" } ?? false
            let isCandidate = OSMFeatureExtractor.mayBeAddressOrVenue(way.tags)
            let areaLevel = extractor.areas ? AreaLevel.of(tags: way.tags) : nil
            let isClosed = way.nodeIDs.count >= 4 && way.nodeIDs.first == way.nodeIDs.last
            let isMapShape = OSMMapShapes.classify(way.tags, isClosed: isClosed, named: way.tags["name"] != nil) != nil
            guard isStreet || isBuilding || isCandidate || areaLevel != nil || isMapShape else { continue }
            let id = PlaceID.osm(.init(.way, way.id)).description
            let points = locations.coordinates(of: way.nodeIDs)
            guard !points.isEmpty else { continue }
            if isMapShape { addMapShape(id: id, tags: way.tags, points: points, isClosed: isClosed) }
            if let highway = way.tags["highway"], let name = way.tags["name"], points.count >= 2 {
                features.streets.append(OSMStreet(id: id, name: name, highway: highway, points: points))
            }
            if isClosed, let kind = way.tags["building"], kind != "no", let ring = OSMFeatureExtractor.ring(points) {
                features.buildings.append(OSMBuilding(id: id, kind: kind, name: way.tags["name"], outlines: [ring]))
            }
            if let areaLevel, isClosed {
                addArea(id: id, tags: way.tags, level: areaLevel, rings: [way.nodeIDs], memberWays: (1, 1))
            }
            if isCandidate, let coordinate = isClosed ? OSMGeometry.centroid(of: [points]) : OSMGeometry.meanOfVertices([points]) {
                wayCandidates.append(.init(id: id, key: OSMMemberKey(type: .way, id: way.id), tags: way.tags, coordinate: coordinate))
            }
        }
    }

    /// Adds what the map draws of a way besides a named street or a building (`OSMMapShapes`).
    private mutating func addMapShape(id: String, tags: OSMTags, points: [Coordinate], isClosed: Bool) {
        if let shape = OSMMapShapes.shape(id: id, tags: tags, points: points, isClosed: isClosed) { features.mapShapes.append(shape) }
    }

    /// Adds what the map draws of a multipolygon besides a building: a lake, a river's surface, a park, land use,
    /// with its holes (`OSMMapShapes.area`).
    private mutating func addMapShape(relation: OSMRelation, id: String) {
        let pieces = relation.members.filter { $0.type == .way && ["outer", "inner", ""].contains($0.role) }.compactMap { memberWays[$0.id] }
        let rings = OSMGeometry.assembleRings(pieces).map { locations.coordinates(of: $0) }
        if let shape = OSMMapShapes.area(id: id, tags: relation.tags, rings: rings) { features.mapShapes.append(shape) }
    }

    /// Adds a named area, or notes why it is left out: member ways or nodes missing from the file (an extract
    /// cuts the boundaries crossing its edge), or rings that do not close.
    private mutating func addArea(id: String, tags: OSMTags, level: AreaLevel, rings: [[Int64]],
                                  memberWays: (count: Int, found: Int)) {
        let name = level == .postcode ? tags["postal_code"] ?? tags["ref"] ?? tags["name"] : tags["name"]
        guard let name, !name.isEmpty else { return }  // unnamed boundary pieces name nothing
        let label = "\(id) (\(name))"
        guard memberWays.found == memberWays.count else {
            features.skippedAreas.append("\(label): \(memberWays.count - memberWays.found) of \(memberWays.count) member ways are not in the file")
            return
        }
        guard !rings.isEmpty else {
            features.skippedAreas.append("\(label): its ways do not join into closed rings")
            return
        }
        var coordinates: [[Coordinate]] = []
        for ring in rings {
            let points = locations.coordinates(of: ring)
            guard points.count == ring.count, points.count >= 4 else {
                features.skippedAreas.append("\(label): \(ring.count - points.count) nodes of its rings are not in the file")
                return
            }
            coordinates.append(points)
        }
        let localized = Dictionary(tags.compactMap { tag in
            tag.key.hasPrefix("name:") ? (String(tag.key.dropFirst(5)), tag.value) : nil
        }, uniquingKeysWith: { first, _ in first })
        features.areas.append(OSMArea(id: id, name: name, level: level, adminLevel: tags["admin_level"].flatMap { Int($0) },
                                      localizedNames: localized, rings: coordinates))
    }

    /// The features: address points and venues from nodes, then ways, then relations, as the file orders them.
    mutating func finish() -> OSMFeatures {
        if memberWayIDs == nil { add(ways: []) }
        var relationCandidates: [OSMFeatureExtractor.Candidate] = []
        for relation in relations where relation.tags["type"] == "multipolygon" {
            let id = PlaceID.osm(.init(.relation, relation.id)).description
            let outerWays = relation.members
                .filter { $0.type == .way && ($0.role == "outer" || $0.role.isEmpty) }
                .compactMap { memberWays[$0.id] }
            let rings = OSMGeometry.assembleRings(outerWays)
                .compactMap { OSMFeatureExtractor.ring(locations.coordinates(of: $0)) }
            if let kind = relation.tags["building"], kind != "no", !rings.isEmpty {
                features.buildings.append(OSMBuilding(id: id, kind: kind, name: relation.tags["name"], outlines: rings))
            }
            addMapShape(relation: relation, id: id)
            guard OSMFeatureExtractor.mayBeAddressOrVenue(relation.tags) else { continue }
            // Clipped at the extract's edge, the rings may not close: use what is there.
            guard let coordinate = OSMGeometry.centroid(of: rings)
                ?? OSMGeometry.meanOfVertices(outerWays.map { locations.coordinates(of: $0) }) else { continue }
            relationCandidates.append(.init(id: id, key: OSMMemberKey(type: .relation, id: relation.id),
                                            tags: relation.tags, coordinate: coordinate))
        }
        for relation in relations where relation.tags["type"] != "street" && relation.tags["type"] != "associatedStreet" {
            guard extractor.areas, let level = AreaLevel.of(tags: relation.tags) else { continue }
            let wayMembers = relation.members.filter { $0.type == .way && ["outer", "inner", ""].contains($0.role) }
            let pieces = wayMembers.compactMap { memberWays[$0.id] }
            let (rings, unclosed) = OSMGeometry.joinRings(pieces)
            addArea(id: PlaceID.osm(.init(.relation, relation.id)).description, tags: relation.tags, level: level, rings: unclosed == 0 ? rings : [],
                    memberWays: (wayMembers.count, pieces.count))
        }
        extractor.features(from: [nodeCandidates, wayCandidates, relationCandidates].joined(),
                           streetRelations: OSMStreetRelationAddresses(relations), into: &features)
        return features
    }
}
