/// How a paged search spaces its requests to a rate-limited service.
public enum RequestSchedulingMode: String, Sendable, CaseIterable, Codable {
    /// One request, then a pause of one interval after its answer: never above the rate, ignores headers.
    case fixed
    /// As the original app: as fast as possible until a 503, then one interval between requests for the
    /// next three requests, then fast again. Shows its 503s.
    case adaptive
    /// The default: never faster than one request per interval, and never before the server's advice
    /// (`X-RateLimit-Remaining: 0` until `X-RateLimit-Reset`; `Retry-After` after a 503) allows.
    case polite

    /// How eager the mode is: polite 0, fixed 1 (one request an interval, headers ignored), adaptive 2 (as fast as
    /// the service takes).
    public var eagerness: Int {
        switch self {
        case .polite: 0
        case .fixed: 1
        case .adaptive: 2
        }
    }

    /// This mode when it is no more eager than `ceiling` (what the operator of a server allows), else `ceiling`.
    public func within(_ ceiling: RequestSchedulingMode) -> RequestSchedulingMode {
        eagerness <= ceiling.eagerness ? self : ceiling
    }
}

/// Decides when the next request of a paged search may be sent. A plain value: the search tells it when
/// requests were sent and answered, it answers with the earliest instant (on the search's `PagingClock`)
/// for the next one. One request is in flight at a time.
public struct RequestScheduler: Sendable {
    /// The mode.
    public let mode: RequestSchedulingMode
    /// The service's documented spacing: one request per `interval` (MusicBrainz: 1 second).
    public let interval: Duration
    /// How many 503s in a row are retried before the search fails with `.rateLimited`.
    public let maxConsecutiveRateLimited: Int
    /// In adaptive mode, how many requests after a 503 keep the interval.
    public let adaptiveSlowRequests: Int

    private var lastSentAt: Duration?
    private var lastAnsweredAt: Duration?
    /// The server's own "not before" (reset or retry-after), polite mode only.
    private var serverNotBefore: Duration = .zero
    private var slowRequestsLeft = 0
    /// 503s in a row, for the retry bound and polite's back-off when the server gives no advice.
    public private(set) var consecutiveRateLimited = 0

    /// Makes a scheduler. `interval` must be positive; `maxConsecutiveRateLimited` at least 1.
    public init(mode: RequestSchedulingMode = .polite, interval: Duration = .seconds(1),
                maxConsecutiveRateLimited: Int = 5, adaptiveSlowRequests: Int = 3) {
        self.mode = mode
        self.interval = max(interval, .zero)
        self.maxConsecutiveRateLimited = max(1, maxConsecutiveRateLimited)
        self.adaptiveSlowRequests = max(0, adaptiveSlowRequests)
    }

    /// The earliest clock instant at which the next request may be sent.
    public func earliestNextRequest() -> Duration {
        switch mode {
        case .fixed:
            return lastAnsweredAt.map { $0 + interval } ?? .zero
        case .adaptive:
            guard let answered = lastAnsweredAt else { return .zero }
            return slowRequestsLeft > 0 ? answered + interval : answered
        case .polite:
            let paced = lastSentAt.map { $0 + interval } ?? .zero
            return max(paced, serverNotBefore)
        }
    }

    /// Records that a request was sent at `instant`.
    public mutating func requestSent(at instant: Duration) {
        lastSentAt = instant
        if mode == .adaptive, slowRequestsLeft > 0 { slowRequestsLeft -= 1 }
    }

    /// Records a successful answer at `instant`, with the server's rate-limit headers.
    public mutating func answered(at instant: Duration, advice: RateLimitAdvice) {
        lastAnsweredAt = instant
        consecutiveRateLimited = 0
        guard mode == .polite else { return }
        if let remaining = advice.remaining, remaining <= 0, let reset = advice.resetAfter {
            serverNotBefore = max(serverNotBefore, instant + reset)
        }
    }

    /// Records a 503 (or 429) answer at `instant`. Returns false when the retry bound is reached and the
    /// search should give up.
    public mutating func rateLimited(at instant: Duration, advice: RateLimitAdvice) -> Bool {
        lastAnsweredAt = instant
        consecutiveRateLimited += 1
        switch mode {
        case .fixed:
            break
        case .adaptive:
            slowRequestsLeft = adaptiveSlowRequests
        case .polite:
            // The server's word first (the refused request used none of its budget, so our own pacing
            // does not apply); with no word, back off exponentially from the interval.
            lastSentAt = nil
            let backOff = interval * (1 << min(consecutiveRateLimited - 1, 6))
            let wait = advice.retryAfter ?? (advice.remaining == 0 ? advice.resetAfter : nil) ?? backOff
            serverNotBefore = max(serverNotBefore, instant + wait)
        }
        return consecutiveRateLimited <= maxConsecutiveRateLimited
    }
}
