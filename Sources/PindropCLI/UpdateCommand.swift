import ArgumentParser
import Foundation
import Logging
import PindropCore
import PindropImport

/// `pindrop update FILE.osc[.gz]...`: applies OpenStreetMap change files to the store.
struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Apply OpenStreetMap change files (.osc or .osc.gz: created, modified and deleted objects) to the store.",
        discussion: """
            The changes are laid over the extracts the store was imported from (`pindrop import osm`), which must still be \
            where they were (of several, each object over the one it belongs to); the store then answers as a fresh import of the changed data would, and a running server \
            follows within seconds. Files are applied in the order given; one that is damaged, truncated or older than \
            what was applied already changes nothing. Applying a file again changes nothing. The changes applied are \
            recorded beside the store and, once they outgrow the extract (at most 32 MiB), folded into a copy of it \
            that the store's updates use from then on.
            """)

    @Argument(help: "osmChange files, oldest first.")
    var files: [String]
    @Flag(help: "Fold every change recorded into the extract after applying these, whatever their size.")
    var fold = false
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let location = try await reportingErrors { try store.location }
        try await reportingErrors(keeping: location) {
            guard !files.isEmpty else { throw PindropError.invalidInput("give at least one .osc or .osc.gz file") }
            // No extract imported, nothing to update: said before the lock's file is made in a home with no index.
            _ = try location.updateFolder.extracts()
            let lock = try ImportLock.forImport(into: location)
            defer { withExtendedLifetime(lock) {} }
            let report = try await OSMUpdater(folder: location.updateFolder, writer: location.writer, foldAbove: fold ? 0 : nil)
                .apply(files, progress: Terminal.progressBar())
            print(ReplicationFollower.describe(report) + "; \(location)")
        }
    }
}

/// `pindrop replication init|update`: follows an OpenStreetMap replication feed.
struct ReplicationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replication", abstract: "Follow an OpenStreetMap replication feed (minutely, hourly or daily changes).",
        subcommands: [ReplicationInitCommand.self, ReplicationUpdateCommand.self])
}

struct ReplicationInitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start following a feed from the sequence matching the imported extract (or the one given).")

    @Option(help: ArgumentHelp("The feed: the folder holding state.txt (https://planet.openstreetmap.org/replication/minute).", valueName: "url"))
    var url: String
    @Option(help: "The last sequence the data already holds (default: found from the extract's newest edit).")
    var sequence: Int?
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let location = try await reportingErrors { try store.location }
        try await reportingErrors(keeping: location) {
            if let sequence, sequence < 0 { throw PindropError.invalidInput("--sequence must be 0 or more") }
            let state = try await ReplicationFollower(location: location).start(url: url, sequence: sequence)
            print("following \(url) from sequence \(state.sequence ?? 0) (\(WireEncoding.isoDate(state.timestamp))); \(location)")
        }
    }
}

struct ReplicationUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Apply what the feed published since the last update, then keep looking every --interval seconds (--once: stop when caught up).")

    @Flag(help: "Stop once caught up.")
    var once = false
    @Option(help: "Seconds between two looks at the feed.")
    var interval = 60
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let location = try await reportingErrors { try store.location }
        try await reportingErrors(keeping: location) {
            guard (1...86_400).contains(interval) else { throw PindropError.invalidInput("--interval must be 1 to 86400 seconds") }
            let follower = ReplicationFollower(location: location)
            if once {
                var applied = false
                while let report = try await follower.catchUp() {
                    print(ReplicationFollower.describe(report))
                    applied = true
                }
                if !applied { print("up to date: sequence \(try location.updateFolder.state()?.sequence ?? 0)") }
                return
            }
            await follower.follow(every: .seconds(interval), logger: Logger(label: "pindrop"))
        }
    }
}
