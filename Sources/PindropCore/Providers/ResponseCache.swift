import Foundation

/// Answers already given by providers, kept in memory for each provider's `cacheLifetime`, so a repeated
/// question does not spend a rate-limited provider's budget. Bounded: when full, expired entries go first,
/// then the least recently used. Safe to share between tasks.
public final class ResponseCache: @unchecked Sendable {
    /// Which provider was asked what, with the request normalised so that equal questions meet.
    public struct Key: Sendable, Hashable {
        /// The provider's name.
        public var provider: String
        /// The normalised request: "search|zurich|47.377,8.540|CH|10".
        public var request: String

        /// Makes a key from a provider name and a normalised request.
        public init(provider: String, request: String) {
            self.provider = provider; self.request = request
        }
    }

    private struct Entry {
        var results: [PlaceResult]
        var expiresAt: Duration
        var lastUsed: UInt64
    }

    /// Most entries kept.
    public let capacity: Int
    private let clock: any PagingClock
    private let lock = NSLock()
    private var entries: [Key: Entry] = [:]
    private var useCounter: UInt64 = 0

    /// Makes an empty cache holding at most `capacity` answers, timed by `clock` (injectable for tests).
    public init(capacity: Int = 2_000, clock: any PagingClock = ContinuousPagingClock()) {
        self.capacity = max(1, capacity)
        self.clock = clock
    }

    /// The cached answer, or nil when there is none or it has expired.
    public func results(for key: Key) -> [PlaceResult]? {
        let now = clock.now
        return lock.withLock {
            guard var entry = entries[key] else { return nil }
            guard entry.expiresAt > now else {
                entries[key] = nil
                return nil
            }
            useCounter += 1
            entry.lastUsed = useCounter
            entries[key] = entry
            return entry.results
        }
    }

    /// Keeps an answer for `lifetime`; a zero lifetime keeps nothing.
    public func store(_ results: [PlaceResult], for key: Key, lifetime: Duration) {
        guard lifetime > .zero else { return }
        let now = clock.now
        lock.withLock {
            if entries[key] == nil, entries.count >= capacity { evict(now: now) }
            useCounter += 1
            entries[key] = Entry(results: results, expiresAt: now + lifetime, lastUsed: useCounter)
        }
    }

    /// How many answers are held (expired ones included until they are touched or evicted).
    public var count: Int { lock.withLock { entries.count } }

    /// Forgets everything.
    public func removeAll() { lock.withLock { entries.removeAll() } }

    /// Makes room for one entry: drops every expired entry, or else the least recently used one.
    private func evict(now: Duration) {
        let before = entries.count
        entries = entries.filter { $0.value.expiresAt > now }
        if entries.count < before { return }
        if let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            entries[oldest] = nil
        }
    }
}

extension ResponseCache.Key {
    /// The key of a search: folded text, bias rounded to ~100 m, country, limit.
    public static func search(_ r: SearchRequest, provider: String) -> Self {
        Self(provider: provider, request: "search|\(TextFolding.fold(r.text))|\(rounded(r.near, 3))|\(r.countryCode ?? "")|\(r.limit)")
    }

    /// The key of a suggestion request; a trailing space ("new ") counts, as it means a finished word.
    public static func suggest(_ r: SuggestRequest, provider: String) -> Self {
        let text = TextFolding.fold(r.text) + (r.text.hasSuffix(" ") ? " " : "")
        return Self(provider: provider, request: "suggest|\(text)|\(rounded(r.near, 3))|\(r.countryCode ?? "")|\(r.limit)")
    }

    /// The key of a reverse request: the point rounded to ~1 m.
    public static func reverse(_ r: ReverseRequest, provider: String) -> Self {
        Self(provider: provider, request: "reverse|\(rounded(r.coordinate, 5))|\(r.limit)")
    }

    /// The key of a nearby request: the point rounded to ~1 m, radius, limit, category, the page's start.
    public static func nearby(_ r: NearbyRequest, provider: String) -> Self {
        let after = r.after.map { "\($0.distanceMeters)|\($0.id)" } ?? ""
        return Self(provider: provider, request: "nearby|\(rounded(r.coordinate, 5))|\(r.radiusMeters)|\(r.limit)|\(r.category ?? "")|\(after)")
    }

    private static func rounded(_ c: Coordinate?, _ decimals: Int) -> String {
        guard let c else { return "" }
        let scale = pow(10, Double(decimals))
        return "\((c.latitude * scale).rounded() / scale),\((c.longitude * scale).rounded() / scale)"
    }
}
