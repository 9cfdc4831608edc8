import Foundation
import Logging
import PindropCore
import PindropImport
import PindropIndex
import PindropProviders
import ServiceLifecycle

/// Follows an OpenStreetMap replication feed for a store: starts from the sequence matching the imported data, then
/// downloads every sequence published since the last one applied and applies them together (`OSMUpdater`). A feed
/// that fails, or a file that does not read, leaves the store and the state as they were; the next attempt resumes.
struct ReplicationFollower: Sendable {
    let location: StoreLocation
    var downloads = ReplicationDownloads()
    /// Most sequences applied in one rebuild while catching up.
    var batch = 1_440

    var folder: OSMUpdateFolder { location.updateFolder }

    /// Follows `url` from `sequence`, or from the newest sequence published before the data's newest edit.
    func start(url: String, sequence: Int?) async throws -> ReplicationState {
        _ = try folder.extracts()
        let state: (sequence: Int, timestamp: Date)
        if let sequence {
            state = try await self.state(url, sequence)
        } else {
            let dataTime = try newestEdit()
            state = try await firstSequence(of: url, before: dataTime)
        }
        let started = ReplicationState(sequence: state.sequence, timestamp: state.timestamp)
        try folder.follow(feed: url, from: started)
        return started
    }

    /// Applies what the feed published since the last sequence applied (at most `batch` sequences); nil when there is
    /// nothing new.
    func catchUp() async throws -> OSMUpdater.Report? {
        guard let url = folder.feed(), let applied = try folder.state()?.sequence else {
            throw PindropError.invalidInput("\(location) follows no replication feed: run `pindrop replication init --url URL` first")
        }
        let newest = try await state(url, nil)
        guard newest.sequence >= applied else {
            throw PindropError.unreadableData("the feed at \(url) stands at sequence \(newest.sequence), before the \(applied) applied here:"
                                              + " it is another feed, or it was reset")
        }
        guard newest.sequence > applied else { return nil }
        let last = min(newest.sequence, applied + batch)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pindrop-replication-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var files: [String] = []
        for sequence in (applied + 1)...last {
            let file = (folder as NSString).appendingPathComponent("\(sequence).osc.gz")
            let bytes = try await downloads.fetch(OSMReplicationFeed.url(url, sequence: sequence, suffix: ".osc.gz"))
            try Data(bytes).write(to: URL(fileURLWithPath: file))
            files.append(file)
        }
        let reached = last == newest.sequence ? newest : try await state(url, last)
        let lock = try ImportLock.forImport(into: location)
        defer { withExtendedLifetime(lock) {} }
        return try await OSMUpdater(folder: self.folder, writer: location.writer)
            .apply(files, feed: ReplicationState(sequence: reached.sequence, timestamp: reached.timestamp))
    }

    /// Catches up every `interval` until cancelled, logging what each round did; a failure is logged and retried.
    func follow(every interval: Duration, logger: Logger) async {
        while !Task.isCancelled {
            do {
                while let report = try await catchUp() {
                    logger.info("replication: \(Self.describe(report))")
                    if Task.isCancelled { return }
                }
            } catch is CancellationError {
                return
            } catch {
                logger.error("replication: \((error as? PindropError)?.message ?? String(describing: error)); trying again in \(interval)")
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// One line on what an update did.
    static func describe(_ report: OSMUpdater.Report) -> String {
        let applied = report.applied
        let sequence = report.state.sequence.map { "sequence \($0), " } ?? ""
        return "applied \(applied.created) created, \(applied.modified) modified, \(applied.deleted) deleted objects"
            + (applied.alreadyApplied > 0 ? " (\(applied.alreadyApplied) already applied)" : "")
            + "; data at \(sequence)\(WireEncoding.isoDate(report.state.timestamp)) in \(String(format: "%.2f", report.seconds)) s"
            + (report.folded.map { "; the \($0.objects) changed objects recorded were folded into the extract in"
                + " \(String(format: "%.2f", $0.seconds)) s" } ?? "")
    }

    /// The feed's newest state (`sequence` nil) or that of a sequence.
    private func state(_ url: String, _ sequence: Int?) async throws -> (sequence: Int, timestamp: Date) {
        let address = sequence.map { OSMReplicationFeed.url(url, sequence: $0, suffix: ".state.txt") }
            ?? (url.hasSuffix("/") ? url : url + "/") + "state.txt"
        return try OSMReplicationFeed.state(String(decoding: try await downloads.fetch(address), as: UTF8.self))
    }

    /// The newest sequence whose state is no later than `time`, by bisection between the first and the newest.
    private func firstSequence(of url: String, before time: Date) async throws -> (sequence: Int, timestamp: Date) {
        let newest = try await state(url, nil)
        if newest.timestamp <= time { return newest }
        var low = 0, high = newest.sequence
        while high - low > 1 {
            let middle = (low + high) / 2
            // A feed drops its oldest states: a missing one counts as older than the data.
            if let state = try? await state(url, middle), state.timestamp > time { high = middle } else { low = middle }
        }
        guard let found = try? await state(url, low), found.timestamp <= time else {
            throw PindropError.invalidInput("the feed at \(url) does not reach back to the data's time (\(WireEncoding.isoDate(time))):"
                                            + " give --sequence, or import a newer extract")
        }
        return found
    }

    /// The time of the newest edit in the data: the extract's newest object, or a newer change applied since.
    private func newestEdit() throws -> Date {
        var newest = try folder.state()?.timestamp ?? .distantPast
        for file in try folder.extracts() {
            if let seconds = try OSMPBFReader(contentsOfFile: file).newestTimestamp() {
                newest = max(newest, Date(timeIntervalSince1970: TimeInterval(seconds)))
            }
        }
        guard newest > .distantPast else {
            throw PindropError.invalidInput("the extract carries no timestamps: give the sequence to start from (--sequence)")
        }
        return newest
    }
}

/// `pindrop serve --replication URL`: follows the feed beside the server; the index answering follows each update.
struct ReplicationService: Service {
    let follower: ReplicationFollower
    let url: String
    let interval: Duration

    func run() async throws {
        let logger = Logger(label: "pindrop")
        await cancelWhenGracefulShutdown {
            // Until the feed is followed: a feed that cannot be reached yet is tried again, the server answering meanwhile.
            while follower.folder.feed() != url, !Task.isCancelled {
                do {
                    let state = try await follower.start(url: url, sequence: nil)
                    logger.info("replication: following \(url) from sequence \(state.sequence ?? 0)")
                } catch {
                    logger.error("replication: cannot follow \(url) yet: \((error as? PindropError)?.message ?? String(describing: error))")
                    try? await Task.sleep(for: interval)
                }
            }
            await follower.follow(every: interval, logger: logger)
        }
    }
}
