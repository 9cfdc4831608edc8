/// The one door into the engine: search, suggest, reverse, nearby, lookup, status, the street map, and the
/// batch forms. The CLI's commands and the server's controllers call only this.
///
/// Every question goes through its capability's provider chain: the store (named "embedded", never cached) and
/// the remote providers the configuration adds. A question goes to the first provider of its chain (or the one
/// the caller names, then the rest of the chain); when that provider fails — unreachable, timed out,
/// rate-limited, answering garbage — the next one is asked, and the answer records who answered and who failed
/// before. A request the user got wrong (`.invalidInput`) is not retried elsewhere. Remote answers are cached
/// per provider for its `cacheLifetime`, and a remote provider that keeps failing is skipped for a while
/// (`CircuitBreaker`), so that it stops costing every question its timeout.
public final class PlaceService: Sendable {
    /// The provider name under which the store answers (in chains, `provider=`, and each result's `source`).
    public static let storeProviderName = EmbeddedProvider.providerName

    /// The local store, asked as the provider "embedded"; nil when none is open (then only remote providers answer).
    public let store: (any PlaceStore)?
    /// Usable providers by name, the store's included.
    private let providers: [String: any PlaceProvider]
    /// Every provider, configured or not, in listing order.
    public let descriptions: [ProviderDescription]
    /// The default order of providers per capability.
    public let chains: [ProviderCapability: [String]]
    /// Answers already given by remote providers.
    public let cache: ResponseCache
    /// Which remote providers are failing and skipped for now (never the store).
    public let breaker: CircuitBreaker
    /// Told of each question a remote provider is asked (the server's metrics); nil for none.
    let observer: (any ProviderCallObserving)?

    /// Makes the facade over `store` and `remote` providers. `unavailable` lists providers that are known but not
    /// configured (shown, never asked). `chains` defaults to the store alone for every capability; each chain
    /// must name configured providers that have the capability. `breaker` decides when a failing remote provider
    /// is skipped. `observer` hears of every question a remote provider is asked.
    public init(store: (any PlaceStore)?, remote: [any PlaceProvider] = [], unavailable: [ProviderDescription] = [],
                chains: [ProviderCapability: [String]]? = nil, cache: ResponseCache = ResponseCache(),
                breaker: CircuitBreaker = CircuitBreaker(), observer: (any ProviderCallObserving)? = nil) throws(PindropError) {
        self.observer = observer
        let embedded = store.map { EmbeddedProvider(store: $0) }
        let all: [any PlaceProvider] = (embedded.map { [$0] } ?? []) + remote
        var byName: [String: any PlaceProvider] = [:]
        for provider in all {
            guard byName[provider.name] == nil else { throw .invalidInput("the provider \"\(provider.name)\" is registered twice") }
            byName[provider.name] = provider
        }
        self.store = store
        self.providers = byName
        let noStore = store != nil ? [] : [ProviderDescription(
            name: EmbeddedProvider.providerName, displayName: EmbeddedProvider.displayName, capabilities: ProviderCapability.allCases,
            attribution: "", unavailableReason: Self.noStore.message)]
        self.descriptions = all.map(\.providerDescription) + (noStore + unavailable).filter { byName[$0.name] == nil }
        self.cache = cache
        self.breaker = breaker
        let storeOnly = store == nil ? [:] : Dictionary(uniqueKeysWithValues: ProviderCapability.allCases.map { ($0, [EmbeddedProvider.providerName]) })
        self.chains = chains ?? storeOnly
        for (capability, names) in self.chains {
            for name in names { _ = try provider(named: name, for: capability) }
        }
    }

    // MARK: The verbs

    /// Places matching a text, best first: the chain's first answer (`provider` first when given).
    public func search(_ request: SearchRequest, provider: String? = nil) async throws -> ProviderAnswer {
        try await answer(.search, preferring: provider, key: { .search(request, provider: $0) }) { p in
            try await (p as? any PlaceSearching)?.search(request)
        }
    }

    /// Suggestions for the text typed so far; below the request's minimum length, an empty answer without
    /// asking anyone (the one place that rule is applied).
    public func suggest(_ request: SuggestRequest, provider: String? = nil) async throws -> ProviderAnswer {
        let chain = try resolvedChain(.suggest, preferring: provider)
        if request.isBelowMinimum { return ProviderAnswer(results: [], provider: chain[0].name) }
        return try await answer(chain, key: { .suggest(request, provider: $0) }) { p in
            try await (p as? any Autocompleting)?.suggest(request)
        }
    }

    /// The nearest places (or street address) to a point.
    public func reverse(_ request: ReverseRequest, provider: String? = nil) async throws -> ProviderAnswer {
        try await answer(.reverse, preferring: provider, key: { .reverse(request, provider: $0) }) { p in
            try await (p as? any ReverseGeocoding)?.reverse(request)
        }
    }

    /// Venues and places within a radius of a point, nearest first: one page. The store pages: its answer has
    /// `page` with the total within the radius and the `next` cursor when more remain. A remote provider answers
    /// one page only (no `total`, no `next`), so a request with a cursor goes to the store alone.
    public func nearby(_ request: NearbyRequest, provider: String? = nil) async throws -> ProviderAnswer {
        var chain = try resolvedChain(.nearby, preferring: provider)
        if request.after != nil {
            // A cursor names a place in the store's order: whoever was preferred, only the store pages on.
            guard let store = providers[EmbeddedProvider.providerName] else { throw Self.noStore }
            chain = [store]
        }
        var page = ResultPage(total: nil, next: nil)
        var answer = try await answer(chain, key: { .nearby(request, provider: $0) }) { p in
            guard let store = (p as? EmbeddedProvider)?.store else { return try await (p as? any NearbySearching)?.nearby(request) }
            // One more than asked says whether a next page exists.
            var ask = request
            ask.limit += 1
            let found = try await store.nearbyPage(ask)
            let results = Array(found.results.prefix(request.limit))
            let last = found.results.count > request.limit ? results.last : nil
            page = ResultPage(total: found.total, next: last.map { NearbyCursor.cursor(after: NearbyPosition($0)) })
            return results
        }
        answer.page = page
        return answer
    }

    /// Up to `count` places within the radius (nil: all of them), nearest first, asked `pageSize` at a time; the
    /// answer's `page` is the last page's. A provider that cannot page gives its one page.
    public func nearby(_ request: NearbyRequest, collecting count: Int?, provider: String? = nil,
                       pageSize: Int = RequestLimits.maxNearbyPage) async throws -> ProviderAnswer {
        let wanted = count ?? .max
        var ask = request
        ask.limit = min(wanted, pageSize)
        var answer = try await nearby(ask, provider: provider)
        while answer.results.count < wanted, answer.page?.next != nil, let last = answer.results.last {
            ask.after = NearbyPosition(last)
            ask.limit = min(wanted - answer.results.count, pageSize)
            let more = try await nearby(ask, provider: answer.provider)
            answer.results += more.results
            answer.page = more.page
        }
        return answer
    }

    /// The place with this id, from the provider its prefix names ("google:…" asks Google, which also ends its
    /// autocomplete session: call this when the user picks a suggestion); other ids ("geonames:…", "osm:…") go to
    /// the store. Throws `.notFound` when nobody knows the id.
    /// `languages` (best first) asks for the place's name in the first of them it has one in.
    public func lookup(id: String, languages: [String] = []) async throws -> Place {
        let prefix = id.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        let owner = providers[prefix] ?? providers[EmbeddedProvider.providerName]
        guard let owner, let lookup = owner as? any PlaceLookup,
              var place = try await (languages.isEmpty ? lookup.place(id: id) : lookup.place(id: id, languages: languages))
        else {
            throw PindropError.notFound("no place has the id \"\(id)\"")
        }
        place.source = owner.name
        return place
    }

    /// The shape of a place: its outline where the store keeps one, else its box for an area or its point
    /// (`PlaceGeometry.fallback`). A store that fails to give it costs the answer its outline, not the answer.
    public func geometry(of place: Place) async -> PlaceGeometry {
        let kept = try? await store?.geometry(id: place.id)
        return (kept ?? nil) ?? PlaceGeometry.fallback(for: place)
    }

    /// What the store holds; `.indexUnavailable` when no store is open.
    public func status() async throws -> StoreStatus {
        try await requireStore().status()
    }

    /// What the offline street map draws inside a box (at `zoom`, or everything without one), with the credits it
    /// needs; empty without a store.
    public func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) async throws -> (features: [MapFeature], attribution: [String]) {
        guard let store else { return ([], []) }
        return (try await store.streetMap(in: box, zoom: zoom, limit: limit), store.streetAttribution)
    }

    /// The place names to draw in a view of the offline map; empty without a store.
    public func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) async throws -> [MapLabel] {
        guard let store else { return [] }
        return try await store.mapLabels(in: box, zoom: zoom, limit: limit)
    }

    /// The provider names asked for `capability`, in order; `preferred` goes first when given.
    public func chain(for capability: ProviderCapability, preferring preferred: String? = nil) throws(PindropError) -> [String] {
        try resolvedChain(capability, preferring: preferred).map(\.name)
    }

    /// The names a request for `capability` may prefer (`provider=`): configured providers that answer it.
    public func providerNames(for capability: ProviderCapability) -> [String] {
        descriptions.map(\.name).filter { name in providers[name]?.supports(capability) ?? false }
    }

    /// The store, or `.indexUnavailable`.
    func requireStore() throws(PindropError) -> any PlaceStore {
        guard let store else { throw Self.noStore }
        return store
    }

    // MARK: The chain

    private static let noStore = PindropError.indexUnavailable("no index is open; run `pindrop import geonames <file-or-folder>` first")

    /// The providers asked for `capability`, validated once: `preferred` first, then the default chain.
    private func resolvedChain(_ capability: ProviderCapability, preferring preferred: String?) throws(PindropError) -> [any PlaceProvider] {
        let defaults = chains[capability] ?? []
        guard let preferred else {
            guard !defaults.isEmpty else {
                if store == nil { throw Self.noStore }
                throw .invalidInput("no provider is configured for \(capability.rawValue) requests")
            }
            return defaults.compactMap { providers[$0] }
        }
        let first = try provider(named: preferred, for: capability)
        return [first] + defaults.filter { $0 != preferred }.compactMap { providers[$0] }
    }

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

    private func answer(_ capability: ProviderCapability, preferring preferred: String?,
                        key: (String) -> ResponseCache.Key,
                        ask: (any PlaceProvider) async throws -> [PlaceResult]?) async throws -> ProviderAnswer {
        try await answer(try resolvedChain(capability, preferring: preferred), key: key, ask: ask)
    }

    /// Asks each provider of the chain in turn until one answers. A remote provider's cached answer is used
    /// even while its breaker is open (it costs no request); otherwise an open breaker skips it.
    private func answer(_ chain: [any PlaceProvider], key: (String) -> ResponseCache.Key,
                        ask: (any PlaceProvider) async throws -> [PlaceResult]?) async throws -> ProviderAnswer {
        var failures: [ProviderFailure] = []
        for provider in chain {
            let name = provider.name
            // A provider that is never cached (the store) skips the key and the cache's lock.
            let cacheKey = provider.cacheLifetime > .zero ? key(name) : nil
            if let cacheKey, let cached = cache.results(for: cacheKey) {
                return ProviderAnswer(results: cached, provider: name, failures: failures, fromCache: true)
            }
            // The store is local: its failures are not the network's, and there is nothing to spare it.
            let guarded = !(provider is EmbeddedProvider)
            if guarded, case .skip(let skipped) = breaker.permission(for: name) {
                failures.append(ProviderFailure(provider: name, error: skipped))
                continue
            }
            do {
                guard var results = try await ask(provider) else {
                    if guarded { breaker.abandoned(name) }
                    continue
                }
                if guarded {
                    breaker.succeeded(name)
                    observer?.providerAsked(name, failed: false)
                }
                for i in results.indices { results[i].place.source = name }
                // A store's correction rides on its first result; the answer is where it belongs.
                // Read in place: `results.first` would copy the whole first result to read one field.
                let didYouMean = results.isEmpty ? nil : results[0].didYouMean
                if didYouMean != nil { results[0].didYouMean = nil }
                if let cacheKey { cache.store(results, for: cacheKey, lifetime: provider.cacheLifetime) }
                return ProviderAnswer(results: results, provider: name, failures: failures, didYouMean: didYouMean)
            } catch {
                let failure = Self.providerFailure(error, of: provider)
                guard let failure else {
                    if guarded { breaker.abandoned(name) }
                    throw Task.isCancelled ? CancellationError() : error
                }
                if guarded {
                    breaker.failed(name, with: failure)
                    observer?.providerAsked(name, failed: true)
                }
                failures.append(ProviderFailure(provider: name, error: failure))
            }
            try Task.checkCancellation()
        }
        throw Self.combined(failures)
    }

    /// The error as a failure of the provider, or nil when it is not one: the user's own mistake
    /// (`.invalidInput`), or the question being cancelled. An error of a type we do not know is named by its
    /// type alone, as its description may hold anything (a URL, a key, the provider's text).
    private static func providerFailure(_ error: any Error, of provider: any PlaceProvider) -> PindropError? {
        if Task.isCancelled || error is CancellationError { return nil }
        guard let error = error as? PindropError else {
            return .upstream(provider: provider.displayName, message: "failed unexpectedly (\(type(of: error)))")
        }
        return error.isProviderFailure ? error : nil
    }

    /// One error for a chain where every provider failed: the only one's own, or all of them in one sentence.
    private static func combined(_ failures: [ProviderFailure]) -> PindropError {
        guard failures.count > 1 else {
            return failures.first?.error ?? .upstream(provider: "providers", message: "none answered the request")
        }
        let reasons = failures.map(\.error.message).joined(separator: "; ")
        if failures.allSatisfy({ if case .rateLimited = $0.error { true } else { false } }) {
            return .rateLimited(provider: failures.map(\.provider).joined(separator: ", "), message: reasons)
        }
        return .upstream(provider: "every provider failed", message: reasons)
    }
}
