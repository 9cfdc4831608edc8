/// Counters of a running paged search, sent with every progress event and at the end.
public struct PagingProgress: Sendable, Hashable {
    /// Pages received.
    public var pagesDone = 0
    /// Pages the query needs (known after the first page; capped by `maxPages`), 0 before.
    public var pagesTotal = 0
    /// Pages the service holds for the query, whatever the cap (known after the first page), 0 before.
    public var pagesInAll = 0
    /// The most pages the search fetches (`PagingOptions.maxPages`), nil for every page.
    public var pagesCap: Int?
    /// How the search spaces its requests.
    public var mode = RequestSchedulingMode.polite
    /// Records received, shown or not.
    public var placesFetched = 0
    /// Items kept and shown.
    public var placesShown = 0
    /// Records that qualified but could not be shown (no coordinates, no usable address).
    public var placesSkipped = 0
    /// Requests sent, including those refused.
    public var requests = 0
    /// Requests refused for the rate limit (HTTP 503/429).
    public var rateLimited = 0
    /// Time since the search started.
    public var elapsed: Duration = .zero
    /// Time from the start to the first page's arrival, once it arrived.
    public var firstPageAfter: Duration?

    /// Empty counters.
    public init() {}
}

/// One page's items, as they arrive.
public struct PageArrival<Item: Sendable>: Sendable {
    /// 0 for the first page.
    public var pageIndex: Int
    /// Offset of the page's first record in the whole result.
    public var offset: Int
    /// Items kept from this page (may be empty when none qualified).
    public var items: [Item]

    /// Makes an arrival.
    public init(pageIndex: Int, offset: Int, items: [Item]) {
        self.pageIndex = pageIndex; self.offset = offset; self.items = items
    }
}

/// What a paged search reports, in order: pages with progress after each, then exactly one of
/// `finished`, `failed` or `cancelled`, then the sequence ends.
public enum PagedSearchEvent<Item: Sendable>: Sendable {
    /// A page arrived with the items to show.
    case page(PageArrival<Item>)
    /// Counters after a page or a rate-limit refusal.
    case progress(PagingProgress)
    /// Every page was fetched.
    case finished(PagingProgress)
    /// The search stopped on an error; the counters say how far it got.
    case failed(PindropError, PagingProgress)
    /// The task iterating the search was cancelled; no request is sent after this.
    case cancelled(PagingProgress)

    /// The counters, for the terminal events; nil otherwise.
    public var finalProgress: PagingProgress? {
        switch self {
        case .finished(let p), .failed(_, let p), .cancelled(let p): p
        case .page, .progress: nil
        }
    }
}

/// How a paged search pages and paces itself.
public struct PagingOptions: Sendable, Hashable {
    /// Records per request, 1...100 (100 is MusicBrainz's maximum and the default).
    public var pageSize: Int
    /// Stop after this many pages; nil fetches every page.
    public var maxPages: Int?
    /// How requests are spaced.
    public var mode: RequestSchedulingMode
    /// The service's documented spacing between requests (MusicBrainz: 1 second).
    public var interval: Duration
    /// 503s in a row tolerated before failing.
    public var maxConsecutiveRateLimited: Int

    /// Makes options; values out of range are clamped (page size to 1...100, at least one page and one retry).
    public init(pageSize: Int = 100, maxPages: Int? = nil, mode: RequestSchedulingMode = .polite,
                interval: Duration = .seconds(1), maxConsecutiveRateLimited: Int = 5) {
        self.pageSize = Swift.min(Swift.max(pageSize, 1), 100)
        self.maxPages = maxPages.map { Swift.max($0, 1) }
        self.mode = mode
        self.interval = Swift.max(interval, .zero)
        self.maxConsecutiveRateLimited = Swift.max(maxConsecutiveRateLimited, 1)
    }
}

/// Fetches every page of a query from a `PagedCollection`, one request at a time, spaced by a
/// `RequestScheduler`, as an async sequence of `PagedSearchEvent`s. Nothing is sent until the sequence is
/// iterated; work happens only while the consumer waits for the next event, so cancelling the consuming
/// task (or stopping iteration) stops network work at once: a sleeping wait ends immediately and an
/// in-flight request is cancelled.
///
/// ```swift
/// for await event in PagedSearch(collection: search, options: options) {
///     if case .page(let page) = event { show(page.items) }
/// }
/// ```
public struct PagedSearch<Item: Sendable>: AsyncSequence, Sendable {
    public typealias Element = PagedSearchEvent<Item>
    public typealias Failure = Never

    /// The options the search runs with.
    public let options: PagingOptions
    private let providerName: String
    private let clock: any PagingClock
    private let fetch: @Sendable (PageRequest) async throws -> ErasedFetchResult<Item>

    /// Makes a search over `collection`; `clock` is real time unless a test injects another.
    public init<Collection: PagedCollection>(collection: Collection, options: PagingOptions,
                                             clock: any PagingClock = ContinuousPagingClock())
    where Collection.Item == Item {
        self.options = options
        self.providerName = collection.providerName
        self.clock = clock
        self.fetch = { request in
            switch try await collection.fetchPage(request) {
            case .rateLimited(let advice):
                return .rateLimited(advice)
            case .page(let page):
                let records = page.records
                return .page(recordCount: records.count, totalCount: page.totalCount, advice: page.advice,
                             prepare: { try await collection.prepare(records) })
            }
        }
    }

    /// The counters before the first request: zeros, with the cap and the mode.
    public var startingProgress: PagingProgress {
        var progress = PagingProgress()
        progress.pagesCap = options.maxPages
        progress.mode = options.mode
        return progress
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(search: self)
    }

    /// Produces the events; each `next()` does the network work needed for the next event.
    public struct Iterator: AsyncIteratorProtocol {
        private let search: PagedSearch
        private var scheduler: RequestScheduler
        private var progress = PagingProgress()
        private var pending: [PagedSearchEvent<Item>] = []
        private var startedAt: Duration?
        private var nextOffset = 0
        private var isDone = false

        init(search: PagedSearch) {
            self.search = search
            progress = search.startingProgress
            self.scheduler = RequestScheduler(mode: search.options.mode, interval: search.options.interval,
                                              maxConsecutiveRateLimited: search.options.maxConsecutiveRateLimited)
        }

        public mutating func next() async -> PagedSearchEvent<Item>? {
            if pending.isEmpty, !isDone {
                do {
                    try await advance()
                } catch {
                    finish(with: error)
                }
            }
            return pending.isEmpty ? nil : pending.removeFirst()
        }

        /// Waits for the scheduler, sends the next request, and turns its answer into events.
        private mutating func advance() async throws {
            let clock = search.clock
            if startedAt == nil { startedAt = clock.now }
            try Task.checkCancellation()
            let wait = scheduler.earliestNextRequest() - clock.now
            if wait > .zero { try await clock.sleep(for: wait) }
            try Task.checkCancellation()

            scheduler.requestSent(at: clock.now)
            progress.requests += 1
            let request = PageRequest(offset: nextOffset, limit: search.options.pageSize)
            let result = try await search.fetch(request)
            let answeredAt = clock.now
            try Task.checkCancellation()

            switch result {
            case .rateLimited(let advice):
                progress.rateLimited += 1
                let retry = scheduler.rateLimited(at: answeredAt, advice: advice)
                guard retry else {
                    throw PindropError.rateLimited(
                        provider: search.providerName,
                        message: "still refused after \(scheduler.consecutiveRateLimited) rate-limited answers in a row; try again later")
                }
                pending.append(.progress(stamped(progress)))

            case .page(let recordCount, let totalCount, let advice, let prepare):
                scheduler.answered(at: answeredAt, advice: advice)
                let prepared = try await prepare()
                try Task.checkCancellation()

                let pageIndex = progress.pagesDone
                progress.pagesDone += 1
                progress.placesFetched += recordCount
                progress.placesShown += prepared.items.count
                progress.placesSkipped += prepared.skipped
                let neededPages = (Swift.max(0, totalCount) + search.options.pageSize - 1) / search.options.pageSize
                progress.pagesTotal = Swift.max(progress.pagesDone, Swift.min(neededPages, search.options.maxPages ?? .max))
                progress.pagesInAll = Swift.max(progress.pagesDone, neededPages)
                if progress.firstPageAfter == nil { progress.firstPageAfter = clock.now - (startedAt ?? .zero) }
                nextOffset += recordCount

                pending.append(.page(PageArrival(pageIndex: pageIndex, offset: request.offset, items: prepared.items)))
                pending.append(.progress(stamped(progress)))
                let isComplete = recordCount == 0 || nextOffset >= totalCount
                    || progress.pagesDone >= (search.options.maxPages ?? .max)
                if isComplete {
                    progress.pagesTotal = progress.pagesDone
                    pending.append(.finished(stamped(progress)))
                    isDone = true
                }
            }
        }

        private mutating func finish(with error: any Error) {
            isDone = true
            let final = stamped(progress)
            if Task.isCancelled || error is CancellationError {
                pending.append(.cancelled(final))
            } else if let error = error as? PindropError {
                pending.append(.failed(error, final))
            } else {
                pending.append(.failed(.upstream(provider: search.providerName, message: String(describing: error)), final))
            }
        }

        private func stamped(_ progress: PagingProgress) -> PagingProgress {
            var copy = progress
            copy.elapsed = search.clock.now - (startedAt ?? search.clock.now)
            return copy
        }
    }
}

/// A page fetch with the collection's record type hidden behind its `prepare` step.
enum ErasedFetchResult<Item: Sendable>: Sendable {
    case rateLimited(RateLimitAdvice)
    case page(recordCount: Int, totalCount: Int, advice: RateLimitAdvice,
              prepare: @Sendable () async throws -> PreparedPage<Item>)
}
