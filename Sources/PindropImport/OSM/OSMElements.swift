import PindropCore

/// An OpenStreetMap node: a point with tags.
public struct OSMNode: Sendable, Hashable {
    /// The OSM node id, and where the node is.
    public var id: Int64, coordinate: Coordinate
    /// The node's tags (`name`, `amenity`, `addr:street`, ...; empty for most nodes), and its last edit in seconds
    /// since 1970 when the file carries metadata.
    public var tags: OSMTags, timestamp: Int64?

    /// Makes a node.
    public init(id: Int64, coordinate: Coordinate, tags: OSMTags = [:], timestamp: Int64? = nil) {
        self.id = id; self.coordinate = coordinate; self.tags = tags; self.timestamp = timestamp
    }
}

/// An OpenStreetMap way: an ordered list of node ids with tags (a street, a building outline...).
public struct OSMWay: Sendable, Hashable {
    /// The OSM way id, and the ids of the way's nodes, in order (a closed way repeats its first id at the end).
    public var id: Int64, nodeIDs: [Int64]
    /// The way's tags, and its last edit in seconds since 1970 when the file carries metadata.
    public var tags: OSMTags, timestamp: Int64?

    /// Makes a way.
    public init(id: Int64, nodeIDs: [Int64], tags: OSMTags = [:], timestamp: Int64? = nil) {
        self.id = id; self.nodeIDs = nodeIDs; self.tags = tags; self.timestamp = timestamp
    }
}

/// The kind of object a relation member refers to.
public enum OSMMemberType: String, Sendable, Hashable {
    /// A node member.
    case node
    /// A way member.
    case way
    /// A relation member.
    case relation
}

/// One member of a relation.
public struct OSMRelationMember: Sendable, Hashable {
    /// Whether the member is a node, a way or a relation, and its OSM id.
    public var type: OSMMemberType, id: Int64
    /// The member's role ("outer", "inner", "street", ...); empty when none.
    public var role: String

    /// Makes a member.
    public init(type: OSMMemberType, id: Int64, role: String) {
        self.type = type; self.id = id; self.role = role
    }
}

/// An OpenStreetMap relation: an ordered list of members with tags (a multipolygon, a route...).
public struct OSMRelation: Sendable, Hashable {
    /// The OSM relation id, and the relation's members, in order.
    public var id: Int64, members: [OSMRelationMember]
    /// The relation's tags (`type=multipolygon`, ...), and its last edit in seconds since 1970 when the file
    /// carries metadata.
    public var tags: OSMTags, timestamp: Int64?

    /// Makes a relation.
    public init(id: Int64, members: [OSMRelationMember], tags: OSMTags = [:], timestamp: Int64? = nil) {
        self.id = id; self.members = members; self.tags = tags; self.timestamp = timestamp
    }
}

/// The file's header block.
public struct OSMHeader: Sendable, Hashable {
    /// Features a reader must understand ("OsmSchema-V0.6", "DenseNodes").
    public var requiredFeatures: [String]
    /// Features a reader may use ("Sort.Type_then_ID", ...).
    public var optionalFeatures: [String]
    /// The box the extract was cut to, when the file says.
    public var boundingBox: BoundingBox?
    /// The program that wrote the file, when the file says.
    public var writingProgram: String?
    /// Where the data came from, when the file says.
    public var source: String?

    /// Makes a header.
    public init(requiredFeatures: [String] = [], optionalFeatures: [String] = [], boundingBox: BoundingBox? = nil,
                writingProgram: String? = nil, source: String? = nil) {
        self.requiredFeatures = requiredFeatures; self.optionalFeatures = optionalFeatures
        self.boundingBox = boundingBox; self.writingProgram = writingProgram; self.source = source
    }
}

/// Which kinds of OSM element to decode, or which a block held.
public struct OSMElementKinds: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Nodes, plain and dense.
    public static let nodes = OSMElementKinds(rawValue: 1)
    /// Ways.
    public static let ways = OSMElementKinds(rawValue: 2)
    /// Relations.
    public static let relations = OSMElementKinds(rawValue: 4)
    /// Every kind.
    public static let all: OSMElementKinds = [.nodes, .ways, .relations]
}

/// What a reading keeps, for a reader that needs a few of a file's tags (the import reads about thirty keys of
/// the thousands a country's file uses): the other tags are never made into strings, and the relations it leaves
/// out never have their members decoded.
public struct OSMDecodingFilter: Sendable {
    /// Whether tags with this key are kept.
    public var keepsKey: @Sendable (String) -> Bool
    /// Whether a relation with these tags (the kept ones) is kept.
    public var keepsRelation: @Sendable (OSMTags) -> Bool

    /// Makes a filter.
    public init(keepsKey: @escaping @Sendable (String) -> Bool, keepsRelation: @escaping @Sendable (OSMTags) -> Bool) {
        self.keepsKey = keepsKey; self.keepsRelation = keepsRelation
    }

    /// No tags kept, every relation kept: for reading what a file holds (ids, times), not what it says.
    public static let idsOnly = OSMDecodingFilter(keepsKey: { _ in false }, keepsRelation: { _ in true })
    /// Every tag and relation kept: what reading with no filter keeps.
    public static let everything = OSMDecodingFilter(keepsKey: { _ in true }, keepsRelation: { _ in true })
}

/// The objects of one primitive block, as handed out while streaming a file.
public struct OSMPrimitiveBlock: Sendable {
    /// The block's nodes (plain and dense), in file order.
    public var nodes: [OSMNode] = []
    /// The block's ways, in file order.
    public var ways: [OSMWay] = []
    /// The block's relations, in file order.
    public var relations: [OSMRelation] = []
    /// The kinds the block holds that were not asked for, so not decoded.
    public var skipped: OSMElementKinds = []
    /// How many elements the block holds, decoded or not (a relation the filter leaves out included).
    public var elementCount = 0
    /// Where the block starts in the file, to read it again (0 for a block that is not from a file).
    public var offset = 0

    /// Makes an empty block.
    public init() {}
}

/// A whole decoded file.
public struct OSMData: Sendable {
    /// The file's header.
    public var header: OSMHeader
    /// Every node, in file order.
    public var nodes: [OSMNode]
    /// Every way, in file order.
    public var ways: [OSMWay]
    /// Every relation, in file order.
    public var relations: [OSMRelation]

    /// Makes a data set.
    public init(header: OSMHeader = OSMHeader(), nodes: [OSMNode] = [], ways: [OSMWay] = [], relations: [OSMRelation] = []) {
        self.header = header; self.nodes = nodes; self.ways = ways; self.relations = relations
    }
}
