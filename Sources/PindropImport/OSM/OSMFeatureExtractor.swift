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

    /// The extracts in `files`.
    public init(files: [String], areas: Bool = true, allowsEmpty: Bool = false) {
        self.files = files; self.areas = areas; self.allowsEmpty = allowsEmpty
    }

    public var labels: [String] { files.map { ($0 as NSString).lastPathComponent } }

    public func readFeatures() throws -> OSMFeatures {
        func extract(_ file: String) throws -> OSMFeatures {
            try OSMFeatureExtractor(areas: areas).extract(from: OSMPBFReader(contentsOfFile: file))
        }
        // The first file's features are taken as they are: appending them to empty arrays copied every one.
        guard let first = files.first else { return OSMFeatures() }
        var features = try extract(first)
        for file in files.dropFirst() {
            let more = try extract(file)
            features.venues += more.venues; features.addressPoints += more.addressPoints
            features.streets += more.streets; features.buildings += more.buildings
            features.areas += more.areas; features.skippedAreas += more.skippedAreas
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

/// Turns decoded OSM objects into the street-level features an index stores: address points, named
/// streets, venues and building footprints.
public struct OSMFeatureExtractor: Sendable {
    /// Tag keys that make a named object a venue, in order of preference when several are present.
    public static let venueKeys = ["amenity", "shop", "tourism", "leisure", "office", "craft", "historic",
                                   "healthcare", "club"]

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
    public func extract(from reader: OSMPBFReader) throws(PindropError) -> OSMFeatures {
        var extraction = OSMExtraction(extractor: self)
        var wayBlocks: [Int] = []
        var elements = 0
        let filter = decodingFilter
        try reader.forEachPrimitiveBlock(decoding: [.nodes, .relations], filter: filter) { block in
            extraction.add(nodes: block.nodes)
            extraction.add(relations: block.relations)
            if block.skipped.contains(.ways) { wayBlocks.append(block.offset) }
            elements += block.elementCount
        }
        // A header and nothing else (a cut download, a failed export) would import as an extract without streets.
        guard elements > 0 else { throw .unreadableData("OSM PBF: the file holds no OpenStreetMap data (no node, way or relation)") }
        // The decoded blocks were freed into the decoding threads' heaps, among what the extraction keeps: hand
        // their free pages back before the next pass and the assembly add to the peak.
        ImportMemory.returnFreed()
        try reader.forEachPrimitiveBlock(at: wayBlocks, decoding: .ways, filter: filter) { block in
            extraction.add(ways: block.ways)
        }
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

    /// Whether an object with these tags can be an address point or a venue (so is worth keeping until the
    /// street relations, which come last in a file, are known).
    static func mayBeAddressOrVenue(_ tags: OSMTags) -> Bool {
        tags["addr:housenumber"] != nil || (tags["name"] != nil && category(of: tags) != nil)
    }

    /// An object that may be an address point or a venue, with where it is.
    struct Candidate {
        var id: String
        var key: OSMMemberKey
        var tags: OSMTags
        var coordinate: Coordinate

        /// Keeps only the tags an address point or a venue is made from: candidates wait for the whole file to be
        /// read, and their other tags (opening hours, websites, names in other languages) were most of the memory.
        init(id: String, key: OSMMemberKey, tags: OSMTags, coordinate: Coordinate) {
            self.id = id; self.key = key; self.coordinate = coordinate
            self.tags = tags.filter { OSMFeatureExtractor.candidateKeys.contains($0.key) }
        }
    }

    /// The tags `features(from:streetRelations:into:)` reads: the name, the address and the venue keys.
    static let candidateKeys = Set(["name", "addr:housenumber", "addr:street", "addr:postcode", "addr:city"] + venueKeys)

    /// Every tag key the extraction reads (and `name:…`, an area's names in other languages): streets, buildings,
    /// relations' types, areas' levels and postcodes, the candidates' keys, and what tells the map's shapes apart.
    static let tagKeys = candidateKeys.union(["type", "highway", "building", "boundary", "admin_level", "place", "postal_code", "ref"])
        .union(OSMMapShapes.tagKeys)

    /// What a file is decoded with: the tags the extraction reads, and the relations it keeps. A country's file has
    /// thousands of keys and many relations (bus routes, say) that no feature is made from.
    var decodingFilter: OSMDecodingFilter {
        let areas = areas
        return OSMDecodingFilter(keepsKey: { Self.tagKeys.contains($0) || $0.hasPrefix("name:") },
                                 keepsRelation: { OSMExtraction.keeps(relationTags: $0, areas: areas) })
    }

    /// Turns the candidates into address points and venues, in the order given.
    func features(from candidates: some Sequence<Candidate>, streetRelations: OSMStreetRelationAddresses,
                  into features: inout OSMFeatures) {
        // Venues without a full address of their own, and their tags: they borrow one once every address point is known.
        var borrowing: [(venue: Int, coordinate: Coordinate, tags: OSMTags)] = []
        for candidate in candidates {
            let tags = candidate.tags
            let address = streetRelations.complete(Self.taggedAddress(tags), for: candidate.key)
            let name = tags["name"]
            let category = name == nil ? nil : Self.category(of: tags)
            guard address != nil || category != nil else { continue }
            if let address {
                features.addressPoints.append(OSMAddressPoint(id: candidate.id, coordinate: candidate.coordinate, address: address))
            }
            if let name, let category {
                if address == nil { borrowing.append((features.venues.count, candidate.coordinate, tags)) }
                features.venues.append(OSMVenue(id: candidate.id, name: name, category: category.category, categoryKey: category.key,
                                                coordinate: candidate.coordinate, address: address, addressIsTagged: address != nil))
            }
        }
        let nearest = OSMNearestAddressFinder(features.addressPoints, radiusMeters: venueAddressRadiusMeters)
        // Each lookup only reads the address points: on every core.
        let borrowed = borrowing.concurrentMap { nearest.address(near: $0.coordinate) ?? Self.partialAddress($0.tags) }
        for ((v, _, _), address) in zip(borrowing, borrowed) { features.venues[v].address = address }
    }

    // MARK: Tags

    /// The venue key and category of an object's tags: the first venue key present with a usable value.
    static func category(of tags: OSMTags) -> (key: String, category: String)? {
        for key in venueKeys {
            guard let raw = tags[key] else { continue }
            // "nightclub;restaurant" → "nightclub"; "Store" → "store". Most values are already one plain word.
            let isPlain = raw.utf8.allSatisfy { (0x61...0x7A).contains($0) || $0 == 0x5F }
            let value = isPlain ? raw : String(raw.split(separator: ";").first ?? "").trimmingWhitespace().lowercased()
            if value.isEmpty || value == "no" { continue }
            return (key, value == "yes" ? key : value)
        }
        return nil
    }

    /// The tagged address when there is an `addr:housenumber`; the street may still be missing.
    static func taggedAddress(_ tags: OSMTags) -> Address? {
        guard let number = tags["addr:housenumber"] else { return nil }
        return Address(houseNumber: number, street: tags["addr:street"], postcode: tags["addr:postcode"],
                       town: tags["addr:city"])
    }

    /// Whatever address parts are tagged, when there is no full address and no address point near.
    static func partialAddress(_ tags: OSMTags) -> Address? {
        let address = Address(houseNumber: tags["addr:housenumber"], street: tags["addr:street"],
                              postcode: tags["addr:postcode"], town: tags["addr:city"])
        return address.isEmpty ? nil : address
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

    /// The address with its street (and missing postcode/town) filled from a street relation; nil when
    /// there is no house number or no street at all.
    func complete(_ address: Address?, for key: OSMMemberKey) -> Address? {
        guard var address else { return nil }
        if address.street == nil || address.postcode == nil || address.town == nil, let relation = streets[key] {
            if address.street == nil { address.street = relation.street }
            if address.street == relation.street {
                address.postcode = address.postcode ?? relation.postcode
                address.town = address.town ?? relation.town
            }
        }
        return address.street == nil ? nil : address
    }
}
