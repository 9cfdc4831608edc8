/// Every known provider, the fallback chain for each capability, and the response cache.
///
/// A question goes to the first provider of its chain (or the one the caller names, then the rest of the
/// chain); when that provider fails — unreachable, timed out, rate-limited, answering garbage — the next
/// one is asked, and the answer records who answered and who failed before. A request the user got wrong
/// (`.invalidInput`) is not retried elsewhere. Answers are cached per provider for its `cacheLifetime`.
///
/// As a `Geocoder` it answers with the default chains, so anything built on the protocols (the server,
/// the CLI) can use it in place of a single store.
public final class ProviderRegistry: Geocoder {
    /// Usable providers by name.
    private let providers: [String: any PlaceProvider]
    /// Every provider, configured or not, in listing order.
    public let descriptions: [ProviderDescription]
    /// The default order of providers per capability.
    public let chains: [ProviderCapability: [String]]
    /// Answers already given.
    public let cache: ResponseCache

    /// Makes a registry. `unavailable` lists providers that are known but not configured (shown, never
    /// asked). Each chain must name configured providers that have the capability.
    public init(providers: [any PlaceProvider], unavailable: [ProviderDescription] = [],
                chains: [ProviderCapability: [String]], cache: ResponseCache = ResponseCache()) throws(PindropError) {
        var byName: [String: any PlaceProvider] = [:]
        for provider in providers {
            guard byName[provider.name] == nil else { throw .invalidInput("the provider \"\(provider.name)\" is registered twice") }
            byName[provider.name] = provider
        }
        self.providers = byName
        self.descriptions = providers.map(\.providerDescription) + unavailable.filter { byName[$0.name] == nil }
        self.cache = cache
        self.chains = chains
        for (capability, names) in chains {
            for name in names { _ = try provider(named: name, for: capability) }
        }
    }

    /// The provider names asked for `capability`, in order; `preferred` goes first when given.
    public func chain(for capability: ProviderCapability, preferring preferred: String? = nil) throws(PindropError) -> [String] {
        let defaults = chains[capability] ?? []
        guard let preferred else {
            guard !defaults.isEmpty else { throw .invalidInput("no provider is configured for \(capability.rawValue) requests") }
            return defaults
        }
        _ = try provider(named: preferred, for: capability)
        return [preferred] + defaults.filter { $0 != preferred }
    }

    /// A search: the chain's first answer (`provider` first when given).
    public func search(_ request: SearchRequest, provider: String?) async throws -> ProviderAnswer {
        try await answer(.search, preferring: provider, key: { .search(request, provider: $0) }) { p in
            try await (p as? any PlaceSearching)?.search(request)
        }
    }

    /// Suggestions; below the request's minimum length, an empty answer without asking anyone.
    public func suggest(_ request: SuggestRequest, provider: String?) async throws -> ProviderAnswer {
        let names = try chain(for: .suggest, preferring: provider)
        if request.isBelowMinimum { return ProviderAnswer(results: [], provider: names[0]) }
        return try await answer(.suggest, preferring: provider, key: { .suggest(request, provider: $0) }) { p in
            try await (p as? any Autocompleting)?.suggest(request)
        }
    }

    /// Reverse geocoding.
    public func reverse(_ request: ReverseRequest, provider: String?) async throws -> ProviderAnswer {
        try await answer(.reverse, preferring: provider, key: { .reverse(request, provider: $0) }) { p in
            try await (p as? any ReverseGeocoding)?.reverse(request)
        }
    }

    /// Venues around a point.
    public func nearby(_ request: NearbyRequest, provider: String?) async throws -> ProviderAnswer {
        try await answer(.nearby, preferring: provider, key: { .nearby(request, provider: $0) }) { p in
            try await (p as? any NearbySearching)?.nearby(request)
        }
    }

    // MARK: Geocoder, with the default chains

    public func search(_ request: SearchRequest) async throws -> [PlaceResult] {
        try await search(request, provider: nil).results
    }

    public func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] {
        try await suggest(request, provider: nil).results
    }

    public func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] {
        try await reverse(request, provider: nil).results
    }

    public func nearby(_ request: NearbyRequest) async throws -> [PlaceResult] {
        try await nearby(request, provider: nil).results
    }

    /// The place with this id, from the provider its prefix names ("google:…" asks Google, which also ends
    /// its autocomplete session: call this when the user picks a suggestion); other ids ("geonames:…",
    /// "osm:…") go to the embedded store. Nil when no provider knows the id.
    public func place(id: String) async throws -> Place? {
        let prefix = id.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let owner = providers[prefix] ?? providers[EmbeddedProvider.providerName]
        guard let lookup = owner as? any PlaceLookup, let name = owner?.name else { return nil }
        guard var place = try await lookup.place(id: id) else { return nil }
        place.source = name
        return place
    }

    // MARK: The chain

    private func provider(named name: String, for capability: ProviderCapability) throws(PindropError) -> any PlaceProvider {
        guard let provider = providers[name] else {
            if let known = descriptions.first(where: { $0.name == name }), let reason = known.unavailableReason {
                throw .invalidInput("the provider \"\(name)\" is not configured: \(reason)")
            }
            let names = descriptions.map(\.name).joined(separator: ", ")
            throw .invalidInput("unknown provider \"\(name)\"; known providers: \(names)")
        }
        guard provider.supports(capability) else {
            let can = provider.capabilities.map(\.rawValue).joined(separator: ", ")
            throw .invalidInput("the provider \"\(name)\" does not answer \(capability.rawValue) requests; it answers: \(can)")
        }
        return provider
    }

    /// Asks each provider of the chain in turn until one answers.
    private func answer(_ capability: ProviderCapability, preferring preferred: String?,
                        key: (String) -> ResponseCache.Key,
                        ask: (any PlaceProvider) async throws -> [PlaceResult]?) async throws -> ProviderAnswer {
        var failures: [ProviderFailure] = []
        for name in try chain(for: capability, preferring: preferred) {
            let provider = try provider(named: name, for: capability)
            // A provider that is never cached (the embedded index) skips the key and the cache's lock.
            let cacheKey = provider.cacheLifetime > .zero ? key(name) : nil
            if let cacheKey, let cached = cache.results(for: cacheKey) {
                return ProviderAnswer(results: cached, provider: name, failures: failures, fromCache: true)
            }
            do {
                guard var results = try await ask(provider) else { continue }
                for i in results.indices { results[i].place.source = name }
                if let cacheKey { cache.store(results, for: cacheKey, lifetime: provider.cacheLifetime) }
                return ProviderAnswer(results: results, provider: name, failures: failures)
            } catch let error as PindropError {
                if case .invalidInput = error { throw error }
                failures.append(ProviderFailure(provider: name, error: error))
            } catch {
                if Task.isCancelled { throw CancellationError() }
                failures.append(ProviderFailure(provider: name, error: .upstream(provider: name, message: String(describing: error))))
            }
            try Task.checkCancellation()
        }
        throw Self.combined(failures, capability: capability)
    }

    /// One error for a chain where every provider failed: the only one's own, or all of them in one sentence.
    private static func combined(_ failures: [ProviderFailure], capability: ProviderCapability) -> PindropError {
        guard failures.count > 1 else {
            return failures.first?.error ?? .upstream(provider: "providers", message: "none answered the \(capability.rawValue) request")
        }
        let reasons = failures.map(\.error.message).joined(separator: "; ")
        if failures.allSatisfy({ if case .rateLimited = $0.error { true } else { false } }) {
            return .rateLimited(provider: failures.map(\.provider).joined(separator: ", "), message: reasons)
        }
        return .upstream(provider: "every provider failed", message: reasons)
    }
}
