import Synchronization

/// One upstream host's request budget, shared by every search of the process: one request at a time, each sent
/// at least `interval` after the one before and not before the host's own word allows, handed out in the order
/// searches ask. A search asks again only once its answer came, so a server's streams take turns, and neither one
/// stream nor all of them together go faster than the host allows (MusicBrainz: one request a second from an
/// address, which it otherwise blocks, for every user of the server).
public final class UpstreamPace: Sendable {
    /// The spacing between two requests to the host.
    public let interval: Duration
    private let clock: any PagingClock
    private let state = Mutex(State())

    private struct State {
        /// Whether a search holds the turn (waits for its instant, or has its request out).
        var busy = false
        var lastSent: Duration?
        /// The host's word: no request before this.
        var notBefore: Duration = .zero
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
        var lastID: UInt64 = 0
    }

    /// A pace of one request per `interval`, on `clock`.
    public init(interval: Duration, clock: any PagingClock = ContinuousPagingClock()) {
        self.interval = max(interval, .zero)
        self.clock = clock
    }

    /// Sends `request` in its turn and returns its answer; `holdOff` reads in the answer how long the host wants
    /// no request at all (a refusal's `Retry-After`, no request left until `X-RateLimit-Reset`), which then holds
    /// back every search of the host. Throws `CancellationError` when the task is cancelled while it waits.
    public func run<Answer>(_ request: () async throws -> Answer, holdOff: (Answer) -> Duration?) async throws -> Answer {
        try await takeTurn()
        var wait: Duration?
        defer { passTurn(holdingOff: wait) }
        let turn = state.withLock { state in max(state.lastSent.map { $0 + interval } ?? .zero, state.notBefore) }
        let now = clock.now
        if turn > now { try await clock.sleep(for: turn - now) } else { try Task.checkCancellation() }
        state.withLock { $0.lastSent = clock.now }
        let answer = try await request()
        wait = holdOff(answer)
        return answer
    }

    /// Waits until this search holds the turn (first come, first served).
    private func takeTurn() async throws {
        let id = state.withLock { state -> UInt64 in
            state.lastID += 1
            return state.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now = state.withLock { state -> Bool in
                    if !state.busy { state.busy = true; return true }
                    state.waiting.append((id, continuation))
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let removed = state.withLock { state in
                state.waiting.firstIndex { $0.id == id }.map { state.waiting.remove(at: $0).continuation }
            }
            removed?.resume(throwing: CancellationError())
        }
    }

    /// Gives the turn to the next search waiting, after noting the host's word.
    private func passTurn(holdingOff wait: Duration?) {
        let next = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            if let wait { state.notBefore = max(state.notBefore, clock.now + wait) }
            guard !state.waiting.isEmpty else { state.busy = false; return nil }
            return state.waiting.removeFirst().continuation
        }
        next?.resume()
    }

    private static let hosts = Mutex<[String: UpstreamPace]>([:])

    /// The pace of `host` (its name and port: "musicbrainz.org", "127.0.0.1:8081"), made on first use with `interval`.
    public static func of(host: String, interval: Duration) -> UpstreamPace {
        hosts.withLock { hosts in
            if let pace = hosts[host] { return pace }
            let pace = UpstreamPace(interval: interval)
            hosts[host] = pace
            return pace
        }
    }
}
