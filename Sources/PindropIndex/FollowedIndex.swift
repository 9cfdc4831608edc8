import Foundation
import PindropCore
import Synchronization

/// The embedded index as a server holds it: it answers from the index open now and, checking the file every few
/// seconds, opens the newer build an import or `pindrop update` publishes there, so a running server follows the
/// data without a restart. A request under way finishes on the index it began with; the old one is unmapped when the
/// last such request is done.
public final class FollowedIndex: IndexAnswering, Sendable {
    private let held: Mutex<PlaceIndex>
    private let follower = Mutex<Task<Void, Never>?>(nil)

    /// Follows the file `index` was read from, checking it every `interval`.
    public init(_ index: PlaceIndex, checkingEvery interval: Duration = .seconds(2)) {
        held = Mutex(index)
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                self.openNewerBuild()
            }
        }
        follower.withLock { $0 = task }
    }

    deinit { follower.withLock { $0?.cancel() } }

    /// The index answering now.
    public var index: PlaceIndex { held.withLock { $0 } }

    /// Opens the index at the path when it is another build than the one answering. An index that cannot be opened
    /// (being replaced that very moment) leaves the current one answering until the next check.
    @discardableResult
    public func openNewerBuild() -> Bool {
        let current = index
        guard let meta = try? IndexDatabase(openingAt: current.path).meta(), let build = IndexDatabase.publishedBuild(meta), build != current.buildID,
              let newer = try? PlaceIndex.open(at: current.path) else { return false }
        held.withLock { $0 = newer }
        return true
    }
}
