import PindropCore
import Synchronization
import Testing

/// A clock whose sleeps return at once after moving time forward: a 40-second schedule runs in microseconds,
/// and elapsed times are exact.
final class VirtualClock: PagingClock {
    private let time = Mutex<Duration>(.zero)

    var now: Duration { time.withLock { $0 } }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        if duration > .zero { advance(by: duration) }
    }

    func advance(by duration: Duration) {
        time.withLock { $0 += duration }
    }
}

/// A rate-limited service in virtual time: `total` records (the numbers 0..<total), one accepted request per
/// `interval` measured at arrival, a 503 otherwise, each answer taking `latency`. Record `n` is skipped when
/// `n % 10 == 9` and hidden (filtered out) when `n % 10 == 8`.
final class ScriptedCollection: PagedCollection {
    typealias Record = Int
    typealias Item = Int

    let total: Int
    let interval: Duration
    let latency: Duration
    let sendsHeaders: Bool
    let clock: VirtualClock
    /// Fails every request with this error when set.
    let failure: (any Error & Sendable)?
    /// Answers every request with 503.
    let alwaysRateLimited: Bool
    private let log = Mutex<(arrivals: [Duration], refused: Int, lastAccepted: Duration?)>(([], 0, nil))

    init(total: Int, interval: Duration = .seconds(1), latency: Duration = .zero, sendsHeaders: Bool = true,
         clock: VirtualClock = VirtualClock(), failure: (any Error & Sendable)? = nil, alwaysRateLimited: Bool = false) {
        self.total = total; self.interval = interval; self.latency = latency; self.sendsHeaders = sendsHeaders
        self.clock = clock; self.failure = failure; self.alwaysRateLimited = alwaysRateLimited
    }

    var providerName: String { "Scripted" }
    /// Every request's arrival instant.
    var arrivals: [Duration] { log.withLock { $0.arrivals } }
    /// Requests refused with 503.
    var refused: Int { log.withLock { $0.refused } }

    func fetchPage(_ request: PageRequest) async throws -> PageFetchResult<Int> {
        let arrival = clock.now
        if let failure { throw failure }
        let accepted: Bool = log.withLock { log in
            log.arrivals.append(arrival)
            let allowed = log.lastAccepted.map { arrival >= $0 + interval } ?? true
            if allowed, !alwaysRateLimited { log.lastAccepted = arrival } else { log.refused += 1 }
            return allowed && !alwaysRateLimited
        }
        let resetAt = (log.withLock { $0.lastAccepted } ?? arrival) + interval
        clock.advance(by: latency)
        let untilReset = resetAt - clock.now
        let advice = sendsHeaders
            ? RateLimitAdvice(limit: 1, remaining: 0, resetAfter: max(untilReset, .zero), retryAfter: accepted ? nil : max(untilReset, .zero))
            : .none
        guard accepted else { return .rateLimited(advice) }
        let records = Array(request.offset..<min(total, request.offset + request.limit))
        return .page(FetchedPage(records: records, totalCount: total, advice: advice))
    }

    func prepare(_ records: [Int]) async throws -> PreparedPage<Int> {
        PreparedPage(items: records.filter { $0 % 10 < 8 }, skipped: records.filter { $0 % 10 == 9 }.count)
    }

    /// Runs a search over this collection on its clock to its end and returns every event.
    func events(_ options: PagingOptions = PagingOptions()) async -> [PagedSearchEvent<Int>] {
        await collectEvents(PagedSearch(collection: self, options: options, clock: clock))
    }

    /// Runs a search over this collection to its end and returns its final counters; the test fails unless the
    /// search finished.
    func finish(_ options: PagingOptions) async throws -> PagingProgress {
        let last = await events(options).last
        let final: PagingProgress? = if case .finished(let progress) = last { progress } else { nil }
        return try #require(final, "expected finished, got \(String(describing: last))")
    }
}

/// Runs a search to its end and returns every event.
func collectEvents<Item>(_ search: PagedSearch<Item>) async -> [PagedSearchEvent<Item>] {
    var events: [PagedSearchEvent<Item>] = []
    for await event in search { events.append(event) }
    return events
}
