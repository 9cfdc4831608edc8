import PindropCore

/// Which extract each changed object is laid over, for an index built from several (each extract is read and
/// extracted on its own). An object an extract held stays in it (in each, where extracts overlap). A new node goes
/// to the extract whose box (the file's header) holds it, else to the first without a box, else to the first. A new
/// way goes with its first node, and a new relation with its first member. So a new way is read beside its nodes: laid
/// over another file, it would find none of them and be lost.
struct OSMChangeOwners {
    /// By extract, in the order of the files: the changed objects laid over it.
    let owned: [Set<OSMElementKey>]

    /// Reads each file once for the changed objects it holds, and the first node or member of each changed way and
    /// relation.
    init(_ journal: OSMChangeJournal, files: [String]) throws(PindropError) {
        let (live, changed) = journal.overlay
        var wanted = changed
        for element in live {
            if let first = Self.firstPart(of: element) { wanted.insert(first) }
        }
        var held: [OSMElementKey: [Int]] = [:], boxes: [BoundingBox?] = []
        // Every relation is read: which ones are kept is the extraction's business.
        for (n, file) in files.enumerated() {
            let header = try OSMPBFReader(contentsOfFile: file).forEachPrimitiveBlock(filter: .idsOnly) { block in
                let keys = block.nodes.lazy.map { OSMElementKey(type: .node, id: $0.id) }
                    + block.ways.lazy.map { OSMElementKey(type: .way, id: $0.id) }
                    + block.relations.lazy.map { OSMElementKey(type: .relation, id: $0.id) }
                for key in keys where wanted.contains(key) { held[key, default: []].append(n) }
            }
            boxes.append(header.boundingBox)
        }
        let elements = Dictionary(live.map { ($0.key, $0) }) { first, _ in first }
        // A node no file held: the file whose box holds it, else the first with no box, else the first.
        func fileFor(_ coordinate: Coordinate) -> Int {
            boxes.firstIndex { $0?.contains(coordinate) == true } ?? boxes.firstIndex { $0 == nil } ?? 0
        }
        var owners: [OSMElementKey: [Int]] = [:]
        /// The files `key` belongs to; `depth` bounds a chain of new relations whose first members are new relations.
        func owner(_ key: OSMElementKey, depth: Int = 0) -> [Int] {
            if let known = owners[key] ?? held[key] { return known }
            guard let element = elements[key], depth < 16 else { return [0] }
            let found: [Int]
            if case .node(let node) = element {
                found = [fileFor(node.coordinate)]
            } else {
                found = Self.firstPart(of: element).map { owner($0, depth: depth + 1) } ?? [0]
            }
            owners[key] = found
            return found
        }
        var owned = [Set<OSMElementKey>](repeating: [], count: files.count)
        for element in live {
            for file in owner(element.key) { owned[file].insert(element.key) }
        }
        self.owned = owned
    }

    /// A way's first node, a relation's first member: what a new one is placed with.
    private static func firstPart(of element: OSMElement) -> OSMElementKey? {
        switch element {
        case .node: nil
        case .way(let way): way.nodeIDs.first.map { OSMElementKey(type: .node, id: $0) }
        case .relation(let relation): relation.members.first.map { OSMElementKey(type: $0.type, id: $0.id) }
        }
    }
}
