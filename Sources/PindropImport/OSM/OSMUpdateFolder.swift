import Foundation
import PindropCore

/// What updates keep beside a store: the extract it was imported from (`extract.txt`, its path), every change applied
/// since (`changes.osc`, the journal as an osmChange document; `versions.pbf`, the versions of those folded into the
/// extract, which is then a file of the folder: `fold`), how far a replication feed was applied (`state.txt`,
/// as the feed writes it) and the feed followed (`feed.txt`). Each file is replaced whole by rename(2).
public struct OSMUpdateFolder: Sendable {
    /// The folder.
    public let path: String

    /// The folder at `path` (made when first written).
    public init(path: String) { self.path = path }

    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    /// Starts over after an import of `extracts`: they are the data updates apply to, with no change yet.
    public func start(extracts: [String]) throws {
        let absolute = extracts.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for name in ["changes.osc", "versions.pbf", "state.txt", "feed.txt"] { try? FileManager.default.removeItem(atPath: file(name)) }
        try write(Array((absolute.joined(separator: "\n") + "\n").utf8), to: "extract.txt")
        removeFoldedExtracts(except: absolute)
    }

    /// Forgets everything: the store no longer holds an extract updates apply to.
    public func discard() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The extract the store was imported from. Throws when there is none, or when it is no longer where it was.
    public func extracts() throws -> [String] {
        guard let text = try? String(contentsOfFile: file("extract.txt"), encoding: .utf8) else {
            throw PindropError.invalidInput("the store holds no OpenStreetMap extract to update: import one first"
                                            + " (`pindrop import osm FILE.osm.pbf`)")
        }
        let files = text.split(separator: "\n").map(String.init)
        for missing in files where !FileManager.default.fileExists(atPath: missing) {
            throw PindropError.unreadableData("\(missing), the extract the store was imported from, is gone: updates lay changes"
                                              + " over it; import an extract again")
        }
        return files
    }

    /// Every change applied since the import.
    public func journal() throws -> OSMChangeJournal {
        var journal = OSMChangeJournal()
        if let versions = FileManager.default.contents(atPath: file("versions.pbf")) {
            journal = try OSMChangeJournal(foldedVersions: Array(versions))
        }
        guard FileManager.default.fileExists(atPath: file("changes.osc")) else { return journal }
        try journal.apply(OSMChangeReader.read(path: file("changes.osc")))
        return journal
    }

    /// The size of the changes recorded (`changes.osc`), 0 when there are none.
    public var recordedBytes: Int {
        FileManager.default.fileSize(atPath: file("changes.osc")) ?? 0
    }

    /// How far updates have brought the data, if any were applied.
    public func state() throws -> ReplicationState? {
        guard let text = try? String(contentsOfFile: file("state.txt"), encoding: .utf8) else { return nil }
        return try OSMReplicationFeed.replicationState(text)
    }

    /// The replication feed followed, if one was set up (`pindrop replication init`).
    public func feed() -> String? {
        (try? String(contentsOfFile: file("feed.txt"), encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines).nonBlank
    }

    /// Follows the feed at `url` from `state` on.
    public func follow(feed url: String, from state: ReplicationState) throws {
        try write(Array((url + "\n").utf8), to: "feed.txt")
        try write(Array(OSMReplicationFeed.stateText(state).utf8), to: "state.txt")
    }

    /// Records the changes applied and the state they brought the data to: the journal first, so that a crash between
    /// the two leaves a state behind the journal, and applying the same sequence again changes nothing.
    /// Returns the size of the changes recorded.
    @discardableResult
    public func commit(journal: OSMChangeJournal, state: ReplicationState) throws -> Int {
        let document = journal.document()
        try write(document, to: "changes.osc")
        try write(Array(OSMReplicationFeed.stateText(state).utf8), to: "state.txt")
        return document.count
    }

    func write(_ bytes: [UInt8], to name: String) throws {
        let target = file(name), temporary = target + ".new"
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, target) == 0 else { throw PindropError.indexUnavailable(String(cString: strerror(errno))) }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw PindropError.indexUnavailable("cannot write \(target): \(error)")
        }
    }
}
