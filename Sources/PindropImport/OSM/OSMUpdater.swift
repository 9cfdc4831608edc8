import Foundation
import PindropCore

/// Applies osmChange files to a store: every file is read and checked first, the changes are laid over the extract the
/// store was imported from (`OSMUpdateFolder`), the store's street level is rebuilt from that by its writer (which
/// publishes it in one step, or leaves the store as it was), and only then are the changes recorded. Answers after an
/// update are those of a fresh import of the changed data. Once the changes recorded outgrow `foldAbove`, they are
/// folded into the extract (`OSMUpdateFolder.fold`), so that what each update reads does not grow without bound.
public struct OSMUpdater: Sendable {
    /// Where the extract and the changes applied so far are kept.
    public let folder: OSMUpdateFolder
    /// The store's writer.
    public let writer: any PlaceStoreWriter
    /// The size in bytes the changes recorded (`changes.osc`) may reach before they are folded into the extract; nil:
    /// the size of the extract, at least 1 MiB and at most 32 MiB.
    public var foldAbove: Int?

    /// An updater of the store `writer` writes, keeping its changes in `folder`.
    public init(folder: OSMUpdateFolder, writer: any PlaceStoreWriter, foldAbove: Int? = nil) {
        self.folder = folder; self.writer = writer; self.foldAbove = foldAbove
    }

    /// What an update did.
    public struct Report: Sendable {
        /// The edits applied (and those found applied already).
        public var applied = OSMChangeJournal.Applied()
        /// The state the data now stands at.
        public var state: ReplicationState
        /// The rebuild of the store; nil when the files had been applied already.
        public var rebuild: ImportReport?
        /// The fold of the changes recorded into the extract after the update; nil when there was none.
        public var folded: Fold?
        /// Wall time, reading the files and folding included.
        public var seconds: Double
    }

    /// What a fold did.
    public struct Fold: Sendable {
        /// The changed objects folded into the extract, and the fold's wall time.
        public var objects: Int, seconds: Double
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
            rebuild = try await writer.updateStreets(source, progress: progress)
        }
        let recorded = try folder.commit(journal: journal, state: state)
        var folded: Fold?
        if recorded > foldAbove ?? Self.foldBound(extracts) {
            let folding = Date()
            do {
                try folder.fold(journal, state: state)
            } catch {
                throw PindropError.indexUnavailable("the changes were applied; folding them into the extract failed, and the"
                                                    + " next update tries again: \(error)")
            }
            folded = Fold(objects: journal.count, seconds: Date().timeIntervalSince(folding))
        }
        return Report(applied: applied, state: state, rebuild: rebuild, folded: folded, seconds: Date().timeIntervalSince(started))
    }

    /// The size the changes recorded over `extracts` may reach before they are folded in, unless told: the extract's
    /// size, at least 1 MiB and at most 32 MiB (past it, reading and writing them at each update costs more than a fold
    /// does once).
    public static func foldBound(_ extracts: [String]) -> Int {
        let size = extracts.reduce(0) { $0 + (FileManager.default.fileSize(atPath: $1) ?? 0) }
        return min(max(size, 1 << 20), 32 << 20)
    }
}
