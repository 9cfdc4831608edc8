import Foundation
import PindropCore

/// OpenStreetMap extracts (.osm.pbf files) as a `StreetDataSource`: their features, read and extracted together.
public struct OSMExtracts: StreetDataSource {
    /// The PBF files.
    public var files: [String]
    /// Whether boundaries and other areas are assembled (what they cost is measured without them).
    public var areas: Bool
    /// Whether extracts giving no street-level feature at all may be imported. They would replace the street level
    /// a store has with nothing, so that takes the user's explicit word (`pindrop import osm --allow-empty`).
    public var allowsEmpty: Bool
    /// Changes made since the extracts were written (`pindrop update`), laid over them (each object over the file it
    /// belongs to: `OSMChangeOwners`).
    public var changes: OSMChangeJournal?
    /// The last replication state applied with `changes`, recorded by the store.
    public var replication: ReplicationState?

    /// The extracts in `files`.
    public init(files: [String], areas: Bool = true, allowsEmpty: Bool = false, changes: OSMChangeJournal? = nil,
                replication: ReplicationState? = nil) {
        self.files = files; self.areas = areas; self.allowsEmpty = allowsEmpty; self.changes = changes
        self.replication = replication
    }

    public var labels: [String] { files.map { ($0 as NSString).lastPathComponent } }

    public func readFeatures() throws -> OSMFeatures {
        // Of several extracts, each changed object is laid over the one it belongs to.
        let owners = try changes.flatMap { files.count > 1 ? try OSMChangeOwners($0, files: files) : nil }
        func extract(_ n: Int) throws -> OSMFeatures {
            try OSMFeatureExtractor(areas: areas).extract(from: OSMPBFReader(contentsOfFile: files[n]), changes: changes,
                                                          owned: owners?.owned[n])
        }
        // The first file's features are taken as they are: appending them to empty arrays copied every one.
        guard !files.isEmpty else { return OSMFeatures() }
        var features = try extract(0)
        for n in files.indices.dropFirst() {
            let more = try extract(n)
            features.venues += more.venues; features.addressPoints += more.addressPoints
            features.streets += more.streets; features.buildings += more.buildings
            features.areas += more.areas; features.skippedAreas += more.skippedAreas
            features.interpolations += more.interpolations; features.entrances += more.entrances
            features.mapShapes += more.mapShapes
        }
        let rows = features.venues.count + features.addressPoints.count + features.streets.count + features.buildings.count
            + features.areas.count
        guard rows > 0 || allowsEmpty else {
            let files = labels.count == 1 ? "\(labels[0]) holds" : "\(labels.joined(separator: ", ")) hold"
            throw PindropError.unreadableData("\(files) no address, street, venue, building or area: importing"
                                              + " would leave no street-level data (--allow-empty does that)")
        }
        return features
    }
}

/// Turns decoded OSM objects into the street-level features an index stores: address points, named streets, the named
/// objects that are places of their own (venues, natural features, place nodes: `OSMMainTags`), building footprints,
/// areas, house-number interpolation lines and entrances.
public struct OSMFeatureExtractor: Sendable {
    /// How far (metres) a venue without its own address may borrow the nearest address point's.
    public var venueAddressRadiusMeters: Double
    /// Whether boundaries, postcode areas and places drawn as polygons are assembled.
    public var areas: Bool

    /// Makes an extractor.
    public init(venueAddressRadiusMeters: Double = 100, areas: Bool = true) {
        self.venueAddressRadiusMeters = venueAddressRadiusMeters
        self.areas = areas
    }

    /// Reads the PBF file at `path` and extracts its features.
    public static func extract(fromFileAt path: String) throws(PindropError) -> OSMFeatures {
        try OSMFeatureExtractor().extract(from: OSMPBFReader(contentsOfFile: path))
    }

    /// Extracts the features of a PBF file in two streaming passes, so memory holds the node locations and
    /// the features, never the file: first nodes and relations (ways skipped undecoded, their blocks noted),
    /// then the noted blocks' ways, which then find every node whatever the file's order.
    /// `changes`, when given, are laid over the file (`OSMChangeOverlay`): the features are those of the changed data.
    /// `owned`, for a file of several: the changed objects that belong to this one (`OSMChangeOwners`).
    public func extract(from reader: OSMPBFReader, changes: OSMChangeJournal? = nil,
                        owned: Set<OSMElementKey>? = nil) throws(PindropError) -> OSMFeatures {
        var extraction = OSMExtraction(extractor: self)
        var wayBlocks: [Int] = []
        var elements = 0
        let filter = decodingFilter
        var overlay = changes.map { OSMChangeOverlay($0, filter: filter, owned: owned) }
        try reader.forEachPrimitiveBlock(decoding: [.nodes, .relations], filter: filter) { block in
            let block = overlay?.merge(block) ?? block
            extraction.add(nodes: block.nodes)
            extraction.add(relations: block.relations)
            if block.skipped.contains(.ways) { wayBlocks.append(block.offset) }
            elements += block.elementCount
        }
        if overlay != nil {
            extraction.add(nodes: overlay!.remainingNodes())
            extraction.add(relations: overlay!.remainingRelations())
        }
        // A header and nothing else (a cut download, a failed export) would import as an extract without streets.
        guard elements > 0 else { throw .unreadableData("OSM PBF: the file holds no OpenStreetMap data (no node, way or relation)") }
        // The decoded blocks were freed into the decoding threads' heaps, among what the extraction keeps: hand
        // their free pages back before the next pass and the assembly add to the peak.
        ImportMemory.returnFreed()
        try reader.forEachPrimitiveBlock(at: wayBlocks, decoding: .ways, filter: filter) { block in
            extraction.add(ways: overlay?.merge(block).ways ?? block.ways)
        }
        if overlay != nil { extraction.add(ways: overlay!.remainingWays()) }
        ImportMemory.returnFreed()
        return extraction.finish()
    }

    /// Extracts the features of a decoded file. Objects whose nodes are missing from the extract keep
    /// the nodes that are there; objects with none left are skipped.
    public func extract(from data: OSMData) -> OSMFeatures {
        var extraction = OSMExtraction(extractor: self)
        extraction.add(nodes: data.nodes)
        extraction.add(relations: data.relations)
        extraction.add(ways: data.ways)
        return extraction.finish()
    }

    /// An object that may be an address point or a place, with where it is. Candidates wait for the whole file to be
    /// read (the street relations come last), so each keeps only what its features are made of.
    struct Candidate {
        var id: String
        var key: OSMMemberKey
        var coordinate: Coordinate
        /// The extent of a way or a relation.
        var box: BoundingBox?
        /// Its class, type and name when it is a place of its own.
        var place: (key: String, category: String, name: String)?
        /// The address tags, and a place's other names and extra tags.
        var tags: OSMTags

        /// A candidate, or nil when the object carries neither a house number nor makes a place. Everything else an
        /// object says (its other keys, or for an address alone its names) is dropped here: it was most of the memory.
        init?(id: String, key: OSMMemberKey, tags: OSMTags, coordinate: Coordinate, box: BoundingBox? = nil) {
            let place = OSMMainTags.place(of: tags, isNode: key.type == .node)
            guard place != nil || tags["addr:housenumber"] != nil else { return nil }
            self.id = id; self.key = key; self.coordinate = coordinate; self.box = box; self.place = place
            self.tags = tags.filter { OSMAddressTags.keys.contains($0.key) || (place != nil && OSMFeatureExtractor.isPlaceTag($0.key)) }
        }

        /// The tags a place keeps (`OSMVenue.tags`): its names but `name`, and its extra tags. A bridge or a tunnel
        /// goes by `bridge:name`, and its `bridge:name:<language>` are its `name:<language>`.
        var placeTags: [String: String] {
            var kept: [String: String] = [:]
            for tag in tags where tag.key != "name" && (PlaceTags.isName(tag.key) || PlaceTags.extraKeys.contains(tag.key)) {
                kept[tag.key] = tag.value
            }
            if let place, OSMMainTags.rules[place.key]?.any == .namedWithKey {
                let prefix = "\(place.key):name:"
                for tag in tags where tag.key.hasPrefix(prefix) { kept["name:" + tag.key.dropFirst(prefix.count)] = tag.value }
            }
            return kept
        }
    }

    /// Whether a place keeps a tag beside its address: its names and extra tags (`PlaceTags`), and a bridge's or
    /// tunnel's names.
    static func isPlaceTag(_ key: String) -> Bool {
        PlaceTags.isName(key) || PlaceTags.extraKeys.contains(key) || key.hasPrefix("bridge:name") || key.hasPrefix("tunnel:name")
    }

    /// The tags an entrance keeps beside its kind.
    static let entranceKeys: Set<String> = ["ref", "name", "wheelchair", "access", "door", "level", "automatic_door", "width",
                                            "addr:flats", "addr:unit", "opening_hours"]

    /// Every other tag key the extraction reads: streets, buildings, relations' types, areas' levels and postcodes,
    /// interpolation lines, entrances, what makes a place (`OSMMainTags`) and what tells the map's shapes apart.
    static let tagKeys: Set<String> = Set(["type", "highway", "building", "boundary", "admin_level", "place", "postal_code", "ref",
                                           "entrance", "routing:entrance", "water", "information", "tourism", "natural",
                                           "ISO3166-2"])
        .union(OSMMainTags.rules.keys).union(OSMAddressTags.keys).union(PlaceTags.extraKeys).union(entranceKeys)
        .union(OSMMapShapes.tagKeys)

    /// Whether tags with this key are decoded.
    static func keeps(key: String) -> Bool {
        tagKeys.contains(key) || isPlaceTag(key) || OSMMainTags.isMainName(key)
    }

    /// A place's partial address with the street it lies on where it names none; nil when neither is known.
    static func withParentStreet(_ partial: Address?, _ street: String?) -> Address? {
        guard let street, partial?.street == nil, partial?.place == nil else { return partial }
        var address = partial ?? Address()
        address.street = street
        return address
    }

    /// What a file is decoded with: the tags the extraction reads, and the relations it keeps. A country's file has
    /// thousands of keys and many relations (bus routes, say) that no feature is made from.
    var decodingFilter: OSMDecodingFilter {
        let areas = areas
        return OSMDecodingFilter(keepsKey: { Self.keeps(key: $0) },
                                 keepsRelation: { OSMExtraction.keeps(relationTags: $0, areas: areas) })
    }

    /// Turns the candidates into address points and places, in the order given.
    func features(from candidates: some Sequence<Candidate>, streetRelations: OSMStreetRelationAddresses,
                  into features: inout OSMFeatures) {
        // Places without a full address of their own, and the parts they have: they borrow one once every address
        // point and building is known.
        var borrowing: [(venue: Int, coordinate: Coordinate, partial: Address?)] = []
        let parentStreets = OSMParentStreets(features.streets)
        // An interpolation line without a street takes the one nearest its middle, for all its numbers.
        for i in features.interpolations.indices where features.interpolations[i].stops.allSatisfy({ $0.address.street == nil && $0.address.place == nil }) {
            guard let middle = OSMGeometry.midpoint(of: features.interpolations[i].points),
                  let street = parentStreets.street(near: middle) else { continue }
            for s in features.interpolations[i].stops.indices { features.interpolations[i].stops[s].address.street = street }
        }
        for candidate in candidates {
            var tagged = streetRelations.complete(OSMAddressTags.address(candidate.tags), for: candidate.key)
            // A house number without a street or a place belongs to the nearest street, as Nominatim parents it.
            if let address = tagged, address.street == nil, address.place == nil, !address.houseNumbers.isEmpty {
                tagged?.street = parentStreets.street(near: candidate.coordinate)
            }
            let complete = tagged.map(OSMAddressTags.isComplete) ?? false
            let countryCode = OSMAddressTags.countryCode(candidate.tags)
            if complete, let tagged {
                features.addressPoints.append(OSMAddressPoint(id: candidate.id, coordinate: candidate.coordinate, address: tagged,
                                                              countryCode: countryCode))
            }
            guard let place = candidate.place else { continue }
            // A venue borrows the address it stands at; a village, a peak or a river has no street address.
            let borrows = !complete && PlaceRank.of(key: place.key, value: place.category).search >= 26
            if borrows { borrowing.append((features.venues.count, candidate.coordinate, tagged)) }
            features.venues.append(OSMVenue(id: candidate.id, name: place.name, category: place.category, categoryKey: place.key,
                                            coordinate: candidate.coordinate, address: borrows ? nil : tagged, addressIsTagged: complete,
                                            tags: candidate.placeTags, box: candidate.box, countryCode: countryCode))
        }
        let buildings = OSMBuildingAddresses(buildings: features.buildings, addressPoints: features.addressPoints)
        let addressPoints = features.addressPoints
        let nearest = OSMNearestPoints(addressPoints.map(\.coordinate), radiusMeters: venueAddressRadiusMeters)
        // Each lookup only reads: on every core.
        let borrowed = borrowing.concurrentMap {
            buildings.address(at: $0.coordinate) ?? nearest.nearest(to: $0.coordinate).map { addressPoints[$0].address }
                ?? Self.withParentStreet($0.partial, parentStreets.street(near: $0.coordinate))
        }
        for ((v, _, _), address) in zip(borrowing, borrowed) { features.venues[v].address = address }
        // Places drawn as areas before points, each in the file's order: an index breaks ties between equal names by
        // this order, and a point named as an area is most often a part of it (the bus stop or entrance "Stockmann").
        features.venues = features.venues.filter { $0.box != nil } + features.venues.filter { $0.box == nil }
    }

    // MARK: Geometry

    /// The points as a closed ring (first point repeated at the end: a clipped way may have lost it),
    /// or nil when fewer than three corners are left.
    static func ring(_ points: [Coordinate]) -> [Coordinate]? {
        guard let first = points.first else { return nil }
        let ring = points.last == first ? points : points + [first]
        return ring.count >= 4 ? ring : nil
    }
}

/// Identifies a relation member (or any object) by type and id.
struct OSMMemberKey: Hashable {
    var type: OSMMemberType
    var id: Int64
}

/// Streets given by `type=street` / `type=associatedStreet` relations rather than by `addr:street`
/// on each house: the relation's name is the street of its "house"/"address" members.
struct OSMStreetRelationAddresses {
    private var streets: [OSMMemberKey: (street: String, postcode: String?, town: String?)] = [:]

    init(_ relations: [OSMRelation]) {
        let streetRelations = relations.filter { $0.tags["type"] == "street" || $0.tags["type"] == "associatedStreet" }
        streets.reserveCapacity(streetRelations.reduce(0) { $0 + $1.members.count })
        for relation in streetRelations {
            guard let name = relation.tags["name"] else { continue }
            // "00100;00120" names several postcodes: none of them is the house's for sure.
            let postcode = relation.tags["addr:postcode"].flatMap { $0.contains(";") ? nil : $0 }
            for member in relation.members where member.role == "house" || member.role == "address" {
                streets[OSMMemberKey(type: member.type, id: member.id)] = (name, postcode, relation.tags["addr:city"])
            }
        }
    }

    /// The address with its street (and missing postcode/town) filled from a street relation.
    func complete(_ address: Address?, for key: OSMMemberKey) -> Address? {
        guard var address else { return nil }
        if address.street == nil || address.postcode == nil || address.town == nil, let relation = streets[key] {
            if address.street == nil { address.street = relation.street }
            if address.street == relation.street {
                address.postcode = address.postcode ?? relation.postcode
                address.town = address.town ?? relation.town
            }
        }
        return address
    }
}
