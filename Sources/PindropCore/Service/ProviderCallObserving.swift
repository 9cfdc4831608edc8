/// Told of every question the facade puts to a remote provider, and how it went: the server counts them for its
/// metrics (`pindrop_provider_requests_total`, `pindrop_provider_failures_total`). Called on the request's task, so
/// it must be quick and must not throw.
public protocol ProviderCallObserving: Sendable {
    /// `provider` was asked (not skipped by its open circuit breaker, not answered from the cache); `failed` when it
    /// did not answer (unreachable, timed out, rate-limited, garbage).
    func providerAsked(_ provider: String, failed: Bool)
}
