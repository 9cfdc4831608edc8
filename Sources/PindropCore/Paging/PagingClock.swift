/// The time source of a paged search: when "now" is and how to wait. Injectable, so tests can run a
/// 40-second schedule in microseconds with a virtual clock.
public protocol PagingClock: Sendable {
    /// Time elapsed since a fixed start (the clock's creation).
    var now: Duration { get }
    /// Waits `duration`; throws `CancellationError` when the task is cancelled while waiting.
    func sleep(for duration: Duration) async throws
}

/// Real time, from the system's monotonic clock.
public struct ContinuousPagingClock: PagingClock {
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    /// Starts counting from now.
    public init() { start = clock.now }

    public var now: Duration { clock.now - start }

    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return try Task.checkCancellation() }
        try await clock.sleep(for: duration)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    public var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
