/// The answer of a provider chain: the results, which provider gave them, and which failed before it.
public struct ProviderAnswer: Sendable, Equatable {
    /// The results in the provider's order; each place's `source` names the provider.
    public var results: [PlaceResult]
    /// The provider that answered ("photon").
    public var provider: String
    /// Providers asked before it that failed, in order, with their errors.
    public var failures: [ProviderFailure]
    /// Whether the answer came from the response cache rather than the network.
    public var fromCache: Bool
    /// For a paged answer (nearby), how many there are in all and the cursor of the next page; nil otherwise.
    public var page: ResultPage?
    /// The text the user probably meant, when the store answered a search or suggestion through a correction or
    /// matched the text only weakly ("Helsinki" for "Helsinky"); nil otherwise (remote providers never offer one).
    public var didYouMean: String?

    /// Makes an answer.
    public init(results: [PlaceResult], provider: String, failures: [ProviderFailure] = [], fromCache: Bool = false,
                page: ResultPage? = nil, didYouMean: String? = nil) {
        self.results = results; self.provider = provider; self.failures = failures; self.fromCache = fromCache
        self.page = page; self.didYouMean = didYouMean
    }

    /// Whether a fallback answered because an earlier provider failed.
    public var isFallback: Bool { !failures.isEmpty }
}

/// A provider that could not answer, and why.
public struct ProviderFailure: Sendable, Equatable {
    /// The provider's name.
    public var provider: String
    /// What went wrong, as the user is told.
    public var error: PindropError

    /// Makes a failure record.
    public init(provider: String, error: PindropError) {
        self.provider = provider; self.error = error
    }
}
