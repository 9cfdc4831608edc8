import PindropCore

extension OSMExtraction {
    /// The features: address points and places from nodes, then ways, then relations, as the file orders them.
    mutating func finish() -> OSMFeatures {
        if memberWayIDs == nil { add(ways: []) }
        var relationCandidates: [Candidate] = []
        for relation in relations where ["multipolygon", "boundary", "waterway"].contains(relation.tags["type"]) {
            if let candidate = shape(of: relation) { relationCandidates.append(candidate) }
        }
        if extractor.areas {
            for relation in relations where relation.tags["type"] != "street" && relation.tags["type"] != "associatedStreet" {
                guard let level = AreaLevel.of(tags: relation.tags) else { continue }
                let wayMembers = relation.members.filter { $0.type == .way && ["outer", "inner", ""].contains($0.role) }
                let pieces = wayMembers.compactMap { memberWays[$0.id] }
                let (rings, unclosed) = OSMGeometry.joinRings(pieces)
                addArea(id: PlaceID.osm(.init(.relation, relation.id)).description, tags: relation.tags, level: level,
                        rings: unclosed == 0 ? rings : [], memberWays: (wayMembers.count, pieces.count), label: Self.label(of: relation))
            }
        }
        let streetRelations = OSMStreetRelationAddresses(relations)
        features.interpolations = finishedInterpolations(streetRelations)
        extractor.features(from: [nodeCandidates, wayCandidates, relationCandidates].joined(), streetRelations: streetRelations,
                           into: &features)
        return features
    }

    /// A relation's building outline, and the candidate it is when it is a place or carries an address: at the centroid
    /// of its rings (of what is there when the extract clips them), or for a waterway halfway along its longest way.
    private mutating func shape(of relation: OSMRelation) -> Candidate? {
        let id = PlaceID.osm(.init(.relation, relation.id)).description
        let lines = Self.shapeMembers(of: relation).compactMap { memberWays[$0] }
        let isWaterway = relation.tags["type"] == "waterway"
        let rings = isWaterway ? [] : OSMGeometry.assembleRings(lines).compactMap { OSMFeatureExtractor.ring(locations.coordinates(of: $0)) }
        if relation.tags["type"] == "multipolygon", let kind = relation.tags["building"], kind != "no", !rings.isEmpty {
            features.buildings.append(OSMBuilding(id: id, kind: kind, name: relation.tags["name"], outlines: rings))
        }
        if relation.tags["type"] == "multipolygon" { addMapShape(relation: relation, id: id) }
        guard Self.mayBeCandidate(relation.tags) else { return nil }
        let located = lines.map { locations.coordinates(of: $0) }
        let coordinate = isWaterway ? located.max { OSMGeometry.length(of: $0) < OSMGeometry.length(of: $1) }.flatMap(OSMGeometry.midpoint)
            : OSMGeometry.centroid(of: rings) ?? OSMGeometry.meanOfVertices(located)
        guard let coordinate else { return nil }
        return Candidate(id: id, key: OSMMemberKey(type: .relation, id: relation.id), tags: relation.tags, coordinate: coordinate,
                         box: BoundingBox(covering: located.joined()))
    }

    /// The place node a boundary is drawn around: its `label` member, else its `admin_centre`.
    static func label(of relation: OSMRelation) -> String? {
        let nodes = relation.members.filter { $0.type == .node }
        return (nodes.first { $0.role == "label" } ?? nodes.first { $0.role == "admin_centre" })
            .map { PlaceID.osm(.init(.node, $0.id)).description }
    }

    /// The interpolation lines with their numbered nodes: each node's address as tagged on it (its street from its
    /// street relation), the parts it lacks from the way's.
    private func finishedInterpolations(_ streetRelations: OSMStreetRelationAddresses) -> [OSMInterpolation] {
        guard !interpolations.isEmpty else { return [] }
        let wanted = Set(interpolations.flatMap(\.nodeIDs))
        var numbered: [Int64: Address] = [:]
        for candidate in nodeCandidates where wanted.contains(candidate.key.id) {
            guard let address = streetRelations.complete(OSMAddressTags.address(candidate.tags), for: candidate.key),
                  let number = address.houseNumber?.trimmingWhitespace(), !number.isEmpty else { continue }
            numbered[candidate.key.id] = Address(houseNumber: number, street: address.street, postcode: address.postcode, town: address.town,
                                                 suburb: address.suburb, county: address.county, state: address.state,
                                                 neighbourhood: address.neighbourhood, place: address.place)
        }
        return interpolations.map { line in
            let way = streetRelations.complete(line.address ?? Address(), for: line.key) ?? Address()
            let stops = line.nodeIDs.enumerated().compactMap { index, node in
                numbered[node].map { (point: index, address: Self.filling($0, from: way)) }
            }
            return OSMInterpolation(id: line.id, scheme: line.scheme, points: line.points, stops: stops)
        }
    }

    /// The address with each part it lacks taken from `other`.
    static func filling(_ address: Address, from other: Address) -> Address {
        Address(houseNumber: address.houseNumber ?? other.houseNumber, street: address.street ?? other.street,
                postcode: address.postcode ?? other.postcode, town: address.town ?? other.town, suburb: address.suburb ?? other.suburb,
                county: address.county ?? other.county, state: address.state ?? other.state, country: address.country ?? other.country,
                neighbourhood: address.neighbourhood ?? other.neighbourhood, place: address.place ?? other.place)
    }
}
