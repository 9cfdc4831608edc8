import Foundation
import PindropCore

extension OSMUpdateFolder {
    /// Folds the changes applied so far into the extract: writes the extract with `journal` laid over it as new PBF
    /// files in the folder (one an extract, each keeping its box), which the folder then names as the extract, and
    /// starts the journal again from none (keeping every object's version, to check later changes against). Updates
    /// then read the journal's objects from the extract, and the extract imported from is no longer needed. Each step
    /// leaves a folder updates can go on from: until the new extract is named, the old one with the journal serves;
    /// after, the journal laid over an extract that holds it already changes nothing. Returns the files written.
    @discardableResult
    public func fold(_ journal: OSMChangeJournal, state: ReplicationState) throws -> [String] {
        let files = try extracts()
        let owners = files.count > 1 ? try OSMChangeOwners(journal, files: files) : nil
        let name = "extract-\(UUID().uuidString.prefix(8).lowercased())"
        var written: [String] = []
        do {
            for (n, source) in files.enumerated() {
                let target = absolutePath(files.count > 1 ? "\(name)-\(n + 1).osm.pbf" : "\(name).osm.pbf")
                try Self.writeFolded(source, journal: journal, owned: owners?.owned[n], state: state, to: target)
                written.append(target)
            }
        } catch {
            for target in written { try? FileManager.default.removeItem(atPath: target) }
            throw error
        }
        let folded = journal.folded()
        try write(folded.versionsDocument(), to: "versions.pbf")
        try write(Array((written.joined(separator: "\n") + "\n").utf8), to: "extract.txt")
        try write(folded.document(), to: "changes.osc")
        removeFoldedExtracts(except: written)
        return written
    }

    /// The folder's own extracts but `kept`, written by earlier folds (the one imported from is the operator's).
    func removeFoldedExtracts(except kept: [String]) {
        let folder = absolutePath("")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for name in names where name.hasPrefix("extract-") && name.hasSuffix(".osm.pbf") {
            let old = absolutePath(name)
            if !kept.contains(old) { try? FileManager.default.removeItem(atPath: old) }
        }
    }

    /// The absolute path of a file in the folder, as the extract's list names it.
    private func absolutePath(_ name: String) -> String {
        URL(fileURLWithPath: file(name)).standardizedFileURL.path
    }

    /// Writes the PBF file at `source` with `journal` laid over it (`owned`, for a file of several: the changed objects
    /// that belong to it) to `target`, in a sorted file's order when `source` is sorted.
    private static func writeFolded(_ source: String, journal: OSMChangeJournal, owned: Set<OSMElementKey>?,
                                    state: ReplicationState, to target: String) throws(PindropError) {
        let reader = try OSMPBFReader(contentsOfFile: source)
        let writer = try OSMPBFWriter(path: target, header: try reader.header(), replication: state)
        var overlay = OSMChangeOverlay(journal, filter: .everything, owned: owned)
        do {
            // New objects have ids past every one the file holds: each kind's go after its last block.
            var nodesEnded = false, waysEnded = false
            try reader.forEachPrimitiveBlock { block throws(PindropError) in
                let merged = overlay.merge(block)
                try writer.write(nodes: merged.nodes)
                if !nodesEnded, !block.ways.isEmpty || !block.relations.isEmpty {
                    try writer.write(nodes: overlay.remainingNodes()); nodesEnded = true
                }
                try writer.write(ways: merged.ways)
                if !waysEnded, !block.relations.isEmpty {
                    try writer.write(ways: overlay.remainingWays()); waysEnded = true
                }
                try writer.write(relations: merged.relations)
            }
            try writer.write(nodes: overlay.remainingNodes())
            try writer.write(ways: overlay.remainingWays())
            try writer.write(relations: overlay.remainingRelations())
            try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
    }
}

extension OSMChangeJournal {
    /// The versions of the objects folded into the extract, as a protocol buffer message: the objects' kinds (1), ids
    /// (2, delta-coded) and versions (3), in a sorted file's order.
    func versionsDocument() -> [UInt8] {
        let sorted = foldedVersions.sorted { $0.key < $1.key }
        var message = ProtobufMessage()
        message.packed(1, sorted.map { UInt64($0.key.type.order) })
        message.packedDeltas(2, sorted.map(\.key.id))
        message.packed(3, sorted.map { UInt64($0.value) })
        return message.bytes
    }

    /// The journal of the objects folded into the extract, with the versions of `versionsDocument()`.
    init(foldedVersions bytes: [UInt8]) throws(PindropError) {
        self.init()
        var types: [Int64] = [], ids: [Int64] = [], versions: [Int64] = []
        try bytes.osmWithUnsafeBytes { buffer throws(PindropError) in
            var reader = OSMProtobufReader(buffer, context: "folded versions")
            while let field = try reader.nextField() {
                switch field.number {
                case 1: _ = try reader.appendVarints(field.wireType, to: &types)
                case 2: _ = try reader.appendDeltaDecoded(field.wireType, to: &ids)
                case 3: _ = try reader.appendVarints(field.wireType, to: &versions)
                default: try reader.skip(field.wireType)
                }
            }
        }
        let kinds: [OSMMemberType] = [.node, .way, .relation]
        guard types.count == ids.count, ids.count == versions.count, types.allSatisfy({ kinds.indices.contains(Int($0)) }) else {
            throw .unreadableData("the folded versions of the update folder are corrupt: import an extract again")
        }
        for i in ids.indices {
            foldedVersions[OSMElementKey(type: kinds[Int(types[i])], id: ids[i])] = Int(versions[i])
        }
    }
}
