import Foundation

/// Stops asking a remote provider that keeps failing, so that its failures stop costing every question its
/// timeout. Per provider: after `failureThreshold` failures in a row it is *open* — skipped without a network
/// call — for `coolDown`; then one question is let through as a probe (*half-open*) while the others still skip
/// it; the probe's success closes it again, its failure re-opens it for another `coolDown`. The facade keeps
/// one for its remote providers; the store is never put behind it. Safe to share between tasks.
public final class CircuitBreaker: @unchecked Sendable {
    /// Where a provider stands.
    public enum State: Sendable, Equatable {
        /// Asked normally; `failures` in a row so far.
        case closed(failures: Int)
        /// Skipped until `until` (on the breaker's clock).
        case open(until: Duration)
        /// One probe is on its way since `since`; others skip the provider meanwhile.
        case halfOpen(since: Duration)
    }

    /// What to do with a provider now.
    enum Permission: Equatable {
        /// Ask it.
        case ask
        /// Skip it: this is the failure to record in the answer.
        case skip(PindropError)
    }

    /// Failures in a row that open the breaker (3 by default).
    public let failureThreshold: Int
    /// How long an open breaker skips its provider before a probe (30 s by default).
    public let coolDown: Duration
    private let clock: any PagingClock
    private let lock = NSLock()
    private var entries: [String: (state: State, lastError: PindropError?)] = [:]

    /// Makes a breaker, timed by `clock` (injectable, so tests move time instead of sleeping).
    public init(failureThreshold: Int = 3, coolDown: Duration = .seconds(30), clock: any PagingClock = ContinuousPagingClock()) {
        self.failureThreshold = max(1, failureThreshold)
        self.coolDown = coolDown
        self.clock = clock
    }

    /// Where `provider` stands now (closed with no failures for one never seen).
    public func state(of provider: String) -> State {
        lock.withLock { entries[provider]?.state ?? .closed(failures: 0) }
    }

    /// Whether `provider` may be asked now. An open breaker whose cool-down is over lets this caller through as
    /// the probe; a probe that never reported back (a task that vanished) is replaced after another cool-down.
    func permission(for provider: String) -> Permission {
        let now = clock.now
        return lock.withLock {
            guard let entry = entries[provider] else { return .ask }
            switch entry.state {
            case .closed:
                return .ask
            case .open(let until) where until <= now, .halfOpen(let until) where until + coolDown <= now:
                entries[provider]?.state = .halfOpen(since: now)
                return .ask
            case .open(let until):
                return .skip(skipped(provider, entry.lastError, retryIn: until - now))
            case .halfOpen:
                return .skip(skipped(provider, entry.lastError, retryIn: nil))
            }
        }
    }

    /// Records an answer: the provider works, the breaker closes.
    func succeeded(_ provider: String) {
        lock.withLock { entries[provider] = nil }
    }

    /// Records a provider failure: one more in a row, opening the breaker at the threshold; a failed probe
    /// re-opens it at once.
    func failed(_ provider: String, with error: PindropError) {
        let now = clock.now
        lock.withLock {
            var entry = entries[provider] ?? (.closed(failures: 0), nil)
            entry.lastError = error
            switch entry.state {
            case .closed(let failures) where failures + 1 < failureThreshold:
                entry.state = .closed(failures: failures + 1)
            default:
                entry.state = .open(until: now + coolDown)
            }
            entries[provider] = entry
        }
    }

    /// Records a question that said nothing about the provider's health (cancelled, or the user's own mistake):
    /// a probe in flight is given back, so the next question probes instead.
    func abandoned(_ provider: String) {
        let now = clock.now
        lock.withLock {
            if case .halfOpen = entries[provider]?.state { entries[provider]?.state = .open(until: now) }
        }
    }

    /// The failure recorded for a skipped provider: the kind and name of its last failure, and when it is asked
    /// again.
    private func skipped(_ provider: String, _ last: PindropError?, retryIn wait: Duration?) -> PindropError {
        let when = wait.map { "it is asked again in \(Int($0.seconds.rounded(.up))) s" } ?? "another question is trying it now"
        let message = "skipped without asking, as it failed \(failureThreshold) times in a row; \(when)"
        switch last {
        case .rateLimited(let label, _): return .rateLimited(provider: label, message: message)
        case .upstream(let label, _): return .upstream(provider: label, message: message)
        default: return .upstream(provider: provider, message: message)
        }
    }
}
