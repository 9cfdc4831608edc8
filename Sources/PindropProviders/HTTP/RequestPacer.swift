import PindropCore

/// Keeps requests to one service at least `interval` apart (Nominatim's public instance allows one per
/// second). Callers queue for the next free slot; a caller whose slot is further away than it can wait is
/// refused at once with `.rateLimited`, so a fallback provider can answer instead.
actor RequestPacer {
    /// The least time between two requests.
    let interval: Duration
    private let clock = ContinuousClock()
    private var nextFreeSlot: ContinuousClock.Instant

    /// Makes a pacer; a zero interval never waits.
    init(interval: Duration) {
        self.interval = interval
        self.nextFreeSlot = clock.now
    }

    /// Waits for this caller's turn. Throws `.rateLimited` when the turn is more than `maxWait` away, and
    /// `CancellationError` when cancelled while waiting (the slot stays used: the pace is never exceeded).
    func waitForTurn(provider: String, maxWait: Duration) async throws {
        guard interval > .zero else { return }
        let now = clock.now
        let slot = max(now, nextFreeSlot)
        guard slot - now <= maxWait else {
            throw PindropError.rateLimited(provider: provider,
                                           message: "at most one request every \(ProviderHTTP.seconds(interval)) is allowed and the queue is full; try again shortly")
        }
        nextFreeSlot = slot + interval
        if slot > now { try await clock.sleep(until: slot) }
    }
}
