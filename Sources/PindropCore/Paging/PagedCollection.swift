/// One page to fetch: `limit` records from `offset`.
public struct PageRequest: Sendable, Hashable {
    /// Index of the first record, 0-based.
    public var offset: Int
    /// Records per page.
    public var limit: Int

    /// Makes a page request.
    public init(offset: Int, limit: Int) {
        self.offset = offset; self.limit = limit
    }
}

/// One page as the service answered it.
public struct FetchedPage<Record: Sendable>: Sendable {
    /// The records of this page, in the service's order.
    public var records: [Record]
    /// How many records the whole query matches, as the service said on this page.
    public var totalCount: Int
    /// The service's rate-limit headers on this answer.
    public var advice: RateLimitAdvice

    /// Makes a page.
    public init(records: [Record], totalCount: Int, advice: RateLimitAdvice = .none) {
        self.records = records; self.totalCount = totalCount; self.advice = advice
    }
}

/// The answer to one page request: the page, or a rate-limit refusal (HTTP 503/429) to be retried.
public enum PageFetchResult<Record: Sendable>: Sendable {
    /// The service answered with a page.
    case page(FetchedPage<Record>)
    /// The service refused because of its rate limit; the request will be retried as the scheduler decides.
    case rateLimited(RateLimitAdvice)
}

/// A page's records made ready to show: the items kept, and how many could not be shown.
public struct PreparedPage<Item: Sendable>: Sendable {
    /// Items to show, in the service's order.
    public var items: [Item]
    /// Records that qualified but could not be shown (a place with no coordinates and no usable address).
    public var skipped: Int

    /// Makes a prepared page.
    public init(items: [Item], skipped: Int) {
        self.items = items; self.skipped = skipped
    }
}

/// A remote collection read page by page, such as a MusicBrainz search. Fetching (one HTTP request, timed
/// by the scheduler) and preparing (filtering, geocoding) are separate so preparation never delays the
/// schedule.
public protocol PagedCollection<Item>: Sendable {
    /// A record as the service returns it.
    associatedtype Record: Sendable
    /// A record ready to show.
    associatedtype Item: Sendable

    /// The service's name, for error messages ("MusicBrainz").
    var providerName: String { get }

    /// Sends one request for one page. Throws `PindropError` for failures; returns `.rateLimited` for a
    /// rate-limit refusal. Must stop promptly when the task is cancelled.
    func fetchPage(_ request: PageRequest) async throws -> PageFetchResult<Record>

    /// Turns a page's records into items to show, counting those that cannot be shown.
    func prepare(_ records: [Record]) async throws -> PreparedPage<Item>
}
