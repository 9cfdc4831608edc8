import PindropCore

/// Every object changed since the extract was imported, at its latest version: what an update lays over the extract
/// (`OSMExtracts.changes`). Applying a change file is checked against the versions already applied: an object
/// coming back at the version it has is already applied (so applying a file twice changes nothing), and one coming
/// back at an older version means the files are out of order, which is refused.
public struct OSMChangeJournal: Sendable {
    /// One object's latest version: the object, or nil once deleted.
    struct Entry: Sendable {
        var version: Int
        var element: OSMElement?
    }

    private(set) var entries: [OSMElementKey: Entry] = [:]
    /// The versions of the objects already folded into the extract (`OSMUpdateFolder.fold`): later changes are checked
    /// against them as against `entries`.
    var foldedVersions: [OSMElementKey: Int] = [:]

    /// No changes.
    public init() {}

    /// How many objects it holds, deleted ones included (not those folded into the extract).
    public var count: Int { entries.count }

    /// The journal once its objects are in the extract: none left to lay over it, their versions kept.
    public func folded() -> OSMChangeJournal {
        var folded = OSMChangeJournal()
        folded.foldedVersions = foldedVersions
        for (key, entry) in entries { folded.foldedVersions[key] = entry.version }
        return folded
    }

    /// What applying a change did.
    public struct Applied: Sendable, Equatable {
        /// Objects created, modified and deleted.
        public var created = 0, modified = 0, deleted = 0
        /// Edits already applied before (the same version again).
        public var alreadyApplied = 0
        /// The newest timestamp among the edits, when they carry any.
        public var newestTimestamp: Int64?
    }

    /// Applies a change, edit by edit in the file's order. Throws, changing nothing, for an edit older than the version
    /// already applied.
    @discardableResult
    public mutating func apply(_ change: OSMChange) throws(PindropError) -> Applied {
        var next = entries, applied = Applied()
        for edit in change.edits {
            if let known = next[edit.key]?.version ?? foldedVersions[edit.key] {
                if known == edit.version {
                    applied.alreadyApplied += 1
                    continue
                }
                guard known < edit.version else {
                    throw .invalidInput("the change file brings \(edit.key) at version \(edit.version), older than version"
                                        + " \(known) already applied: the files are out of order")
                }
            }
            next[edit.key] = Entry(version: edit.version, element: edit.element)
            switch edit.action {
            case .create: applied.created += 1
            case .modify: applied.modified += 1
            case .delete: applied.deleted += 1
            }
            if let timestamp = edit.element?.timestamp { applied.newestTimestamp = max(applied.newestTimestamp ?? timestamp, timestamp) }
        }
        entries = next
        return applied
    }

    /// The objects as they now are and the keys of those deleted, each sorted as a file is (nodes, ways, relations by id).
    var overlay: (live: [OSMElement], changed: Set<OSMElementKey>) {
        let live = entries.compactMap { $0.value.element }.sorted { $0.key < $1.key }
        return (live, Set(entries.keys))
    }

    /// The journal as an osmChange document: every live object under `<modify>`, every deleted one under `<delete>`,
    /// each in a sorted file's order. Reading it back (`OSMChangeReader`) and applying it gives the same journal.
    public func document() -> [UInt8] {
        var out = OSMChangeWriter()
        let sorted = entries.sorted { $0.key < $1.key }
        out.action("modify", sorted.compactMap { entry in entry.value.element.map { (entry.value.version, $0) } })
        out.deletions(sorted.filter { $0.value.element == nil }.map { ($0.key, $0.value.version) })
        return out.finish()
    }
}

extension OSMElement {
    /// The object's last edit, when known.
    var timestamp: Int64? {
        switch self {
        case .node(let node): node.timestamp
        case .way(let way): way.timestamp
        case .relation(let relation): relation.timestamp
        }
    }
}

/// Writes an osmChange document.
struct OSMChangeWriter {
    private var text = "<?xml version='1.0' encoding='UTF-8'?>\n<osmChange version=\"0.6\" generator=\"pindrop\">\n"

    mutating func action(_ name: String, _ elements: [(version: Int, element: OSMElement)]) {
        guard !elements.isEmpty else { return }
        text += "  <\(name)>\n"
        for (version, element) in elements { write(element, version: version) }
        text += "  </\(name)>\n"
    }

    mutating func deletions(_ keys: [(key: OSMElementKey, version: Int)]) {
        guard !keys.isEmpty else { return }
        text += "  <delete>\n"
        for (key, version) in keys { text += "    <\(key.type.rawValue) id=\"\(key.id)\" version=\"\(version)\"/>\n" }
        text += "  </delete>\n"
    }

    private mutating func write(_ element: OSMElement, version: Int) {
        let key = element.key
        var opening = "    <\(key.type.rawValue) id=\"\(key.id)\" version=\"\(version)\""
        if let timestamp = element.timestamp { opening += " timestamp=\"\(OSMTimestamp.text(timestamp))\"" }
        var children: [String] = []
        let tags: OSMTags
        switch element {
        case .node(let node):
            opening += " lat=\"\(Self.degrees(node.coordinate.latitude))\" lon=\"\(Self.degrees(node.coordinate.longitude))\""
            tags = node.tags
        case .way(let way):
            children = way.nodeIDs.map { "<nd ref=\"\($0)\"/>" }
            tags = way.tags
        case .relation(let relation):
            children = relation.members.map { "<member type=\"\($0.type.rawValue)\" ref=\"\($0.id)\" role=\"\(Self.escaped($0.role))\"/>" }
            tags = relation.tags
        }
        children += tags.map { "<tag k=\"\(Self.escaped($0.key))\" v=\"\(Self.escaped($0.value))\"/>" }
        guard !children.isEmpty else { text += opening + "/>\n"; return }
        text += opening + ">\n" + children.map { "      \($0)\n" }.joined() + "    </\(key.type.rawValue)>\n"
    }

    /// Nanodegrees written with nine decimals, which read back to the same nanodegrees.
    private static func degrees(_ value: Double) -> String {
        let nano = Int64((value * 1e9).rounded())
        let magnitude = nano.magnitude, fraction = String(magnitude % 1_000_000_000)
        return (nano < 0 ? "-" : "") + "\(magnitude / 1_000_000_000)." + String(repeating: "0", count: 9 - fraction.count) + fraction
    }

    /// A value with the characters XML reserves, and the whitespace its reading would turn into spaces, as references.
    static func escaped(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    mutating func finish() -> [UInt8] {
        Array((text + "</osmChange>\n").utf8)
    }
}
