import PindropCore

/// An OpenStreetMap object of any kind.
public enum OSMElement: Sendable, Hashable {
    /// A node.
    case node(OSMNode)
    /// A way.
    case way(OSMWay)
    /// A relation.
    case relation(OSMRelation)

    /// Its kind and id.
    public var key: OSMElementKey {
        switch self {
        case .node(let node): OSMElementKey(type: .node, id: node.id)
        case .way(let way): OSMElementKey(type: .way, id: way.id)
        case .relation(let relation): OSMElementKey(type: .relation, id: relation.id)
        }
    }
}

/// An object's kind and id: what names it across versions.
public struct OSMElementKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Node, way or relation.
    public var type: OSMMemberType
    /// The OSM id.
    public var id: Int64

    /// Makes a key.
    public init(type: OSMMemberType, id: Int64) { self.type = type; self.id = id }

    /// Nodes, then ways, then relations, each by id: the order of a sorted file.
    public static func < (a: OSMElementKey, b: OSMElementKey) -> Bool {
        a.type.order != b.type.order ? a.type.order < b.type.order : a.id < b.id
    }

    public var description: String { "\(type.rawValue) \(id)" }
}

extension OSMMemberType {
    /// Its place in a sorted file.
    var order: Int {
        switch self {
        case .node: 0
        case .way: 1
        case .relation: 2
        }
    }
}

/// An osmChange file: objects created, modified and deleted, in the file's order.
public struct OSMChange: Sendable {
    /// What an edit does to its object.
    public enum Action: String, Sendable, Hashable {
        /// A new object.
        case create
        /// A new version of an object.
        case modify
        /// The object is gone.
        case delete
    }

    /// One object's new version.
    public struct Edit: Sendable, Hashable {
        /// Created, modified or deleted.
        public var action: Action
        /// The object's kind and id.
        public var key: OSMElementKey
        /// The object's version after the edit (OpenStreetMap counts from 1).
        public var version: Int
        /// The object as it now is; nil for a deletion.
        public var element: OSMElement?

        /// Makes an edit.
        public init(action: Action, key: OSMElementKey, version: Int, element: OSMElement?) {
            self.action = action; self.key = key; self.version = version; self.element = element
        }
    }

    /// The edits, in the file's order.
    public var edits: [Edit]

    /// Makes a change.
    public init(edits: [Edit] = []) { self.edits = edits }
}
