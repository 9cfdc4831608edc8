import Foundation
import PindropCore

/// Applies osmChange files to a store: every file is read and checked first, the changes are laid over the extract the
/// store was imported from (`OSMUpdateFolder`), the store's street level is rebuilt from that by its writer (which
/// publishes it in one step, or leaves the store as it was), and only then are the changes recorded. Answers after an
/// update are those of a fresh import of the changed data.
public struct OSMUpdater: Sendable {
    /// Where the extract and the changes applied so far are kept.
    public let folder: OSMUpdateFolder
    /// The store's writer.
    public let writer: any PlaceStoreWriter

    /// An updater of the store `writer` writes, keeping its changes in `folder`.
    public init(folder: OSMUpdateFolder, writer: any PlaceStoreWriter) {
        self.folder = folder; self.writer = writer
    }

    /// What an update did.
    public struct Report: Sendable {
        /// The edits applied (and those found applied already).
        public var applied = OSMChangeJournal.Applied()
        /// The state the data now stands at.
        public var state: ReplicationState
        /// The rebuild of the store; nil when the files had been applied already.
        public var rebuild: ImportReport?
        /// Wall time, reading the files included.
        public var seconds: Double
    }

    /// Applies the change files at `paths`, in order. `feed` is the replication state they bring the data to, when
    /// they come from a feed; otherwise the data stands at the newest edit applied.
    public func apply(_ paths: [String], feed: ReplicationState? = nil, progress: ImportProgress? = nil) async throws -> Report {
        let started = Date()
        let extracts = try folder.extracts()
        var journal = try folder.journal()
        var applied = OSMChangeJournal.Applied()
        for path in paths {
            let change = try OSMChangeReader.read(path: path)
            let step = try journal.apply(change)
            applied.created += step.created; applied.modified += step.modified; applied.deleted += step.deleted
            applied.alreadyApplied += step.alreadyApplied
            if let newest = step.newestTimestamp { applied.newestTimestamp = max(applied.newestTimestamp ?? newest, newest) }
        }
        let before = try folder.state()
        let state = feed ?? ReplicationState(
            sequence: before?.sequence,
            timestamp: max(before?.timestamp ?? .distantPast,
                           applied.newestTimestamp.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? before?.timestamp ?? Date()))
        // Files applied already and no newer feed state: nothing to rebuild.
        var rebuild: ImportReport?
        if applied.created + applied.modified + applied.deleted > 0 || state != before {
            let source = OSMExtracts(files: extracts, allowsEmpty: true, changes: journal, replication: state)
            rebuild = try await writer.importStreets(source, progress: progress)
        }
        try folder.commit(journal: journal, state: state)
        return Report(applied: applied, state: state, rebuild: rebuild, seconds: Date().timeIntervalSince(started))
    }
}
