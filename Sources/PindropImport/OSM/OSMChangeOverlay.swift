import PindropCore

/// Lays the changed objects of a journal over a file's blocks as they stream by: a changed object's old version is
/// dropped from its block, and the objects as they now are join the blocks in id order, so the extraction sees the
/// objects a file of the changed data would hold, in that file's order (its answers then equal a fresh import's).
struct OSMChangeOverlay {
    private var nodes: Pending<OSMNode>, ways: Pending<OSMWay>, relations: Pending<OSMRelation>

    /// The journal's objects, with their tags kept and relations left out as the file's decoding does; of the objects
    /// as they now are, only those in `owned` when it is given (`OSMChangeOwners`: the file is one of several). Every
    /// changed object's old version is dropped.
    init(_ journal: OSMChangeJournal, filter: OSMDecodingFilter, owned: Set<OSMElementKey>? = nil) {
        let (live, changed) = journal.overlay
        var liveNodes: [OSMNode] = [], liveWays: [OSMWay] = [], liveRelations: [OSMRelation] = []
        for element in live where owned?.contains(element.key) ?? true {
            switch element {
            case .node(var node):
                node.tags = node.tags.filter { filter.keepsKey($0.key) }
                liveNodes.append(node)
            case .way(var way):
                way.tags = way.tags.filter { filter.keepsKey($0.key) }
                liveWays.append(way)
            case .relation(var relation):
                relation.tags = relation.tags.filter { filter.keepsKey($0.key) }
                if filter.keepsRelation(relation.tags) { liveRelations.append(relation) }
            }
        }
        func ids(_ type: OSMMemberType) -> Set<Int64> { Set(changed.lazy.filter { $0.type == type }.map(\.id)) }
        nodes = Pending(live: liveNodes, changed: ids(.node))
        ways = Pending(live: liveWays, changed: ids(.way))
        relations = Pending(live: liveRelations, changed: ids(.relation))
    }

    /// The block with the changes laid over it.
    mutating func merge(_ block: OSMPrimitiveBlock) -> OSMPrimitiveBlock {
        var merged = block
        merged.nodes = nodes.merge(block.nodes)
        merged.ways = ways.merge(block.ways)
        merged.relations = relations.merge(block.relations)
        return merged
    }

    /// The objects of ids beyond every block's: new nodes and relations after the first pass, new ways after the second.
    mutating func remainingNodes() -> [OSMNode] { nodes.remaining() }
    mutating func remainingWays() -> [OSMWay] { ways.remaining() }
    mutating func remainingRelations() -> [OSMRelation] { relations.remaining() }

    /// One kind's changed objects, handed out as blocks reach their ids.
    private struct Pending<Element: OSMIdentified> {
        let live: [Element]
        let changed: Set<Int64>
        var next = 0

        init(live: [Element], changed: Set<Int64>) {
            self.live = live; self.changed = changed
        }

        mutating func merge(_ block: [Element]) -> [Element] {
            guard !changed.isEmpty, let last = block.last?.id else { return block }
            var kept = block.filter { !changed.contains($0.id) }
            var end = next
            while end < live.count, live[end].id <= last { end += 1 }
            guard end > next else { return kept }
            kept += live[next..<end]
            next = end
            return kept.sorted { $0.id < $1.id }
        }

        mutating func remaining() -> [Element] {
            defer { next = live.count }
            return Array(live[next...])
        }
    }
}

/// An object known by its id.
protocol OSMIdentified {
    var id: Int64 { get }
}

extension OSMNode: OSMIdentified {}
extension OSMWay: OSMIdentified {}
extension OSMRelation: OSMIdentified {}
