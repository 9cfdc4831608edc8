import AsyncHTTPClient
import Foundation
import NIOCore
import PindropCore

/// MusicBrainz's web service (`/ws/2`) over HTTP: one request per call, errors as `PindropError`,
/// rate-limit refusals (503) returned with the server's advice so a `RequestScheduler` can pace retries.
/// As a `MusicPlaceSearching` it runs whole paged searches.
public struct MusicBrainzClient: MusicPlaceSearching {
    /// The name used in errors.
    public static let providerName = "MusicBrainz"
    /// Records per request: MusicBrainz's maximum.
    public static let pageSize = 100

    /// Where and how to reach the service.
    public let configuration: MusicBrainzConfiguration
    /// Geocodes places that come without coordinates; nil skips them.
    public let geocoder: (any PlaceSearching)?
    /// The requests of every search to the service's host, one an interval, shared by the whole process.
    public let pace: UpstreamPace
    private let httpClient: HTTPClient

    /// Makes a client. `geocoder` (usually the embedded index) places those without coordinates.
    public init(configuration: MusicBrainzConfiguration, geocoder: (any PlaceSearching)? = nil,
                httpClient: HTTPClient = MusicBrainzClient.defaultHTTPClient) {
        self.configuration = configuration
        self.geocoder = geocoder
        self.httpClient = httpClient
        self.pace = UpstreamPace.of(host: configuration.host, interval: configuration.requestInterval)
    }

    /// How many searches may run at once: as many as the service's pace serves a page each ten seconds (10 for
    /// MusicBrainz's one request a second), at most 64. More would each wait longer than a person does.
    public var maxConcurrentSearches: Int {
        let perTenSeconds = configuration.requestInterval > .zero ? Int(10 / configuration.requestInterval.seconds) : .max
        return min(64, max(1, perTenSeconds))
    }

    /// A paged search of music places, 100 per request, paced by `request.mode` within the configuration's
    /// `mostEagerMode`, at most `maxPagesPerSearch` pages.
    public func searchMusicPlaces(_ request: MusicSearchRequest) -> PagedSearch<MusicPlace> {
        searchMusicPlaces(request, pageSize: Self.pageSize, clock: ContinuousPagingClock())
    }

    /// As `searchMusicPlaces(_:)`, with another page size (1...100; to compare with the original app's 20) or clock.
    public func searchMusicPlaces(_ request: MusicSearchRequest, pageSize: Int,
                                  clock: any PagingClock) -> PagedSearch<MusicPlace> {
        let cap = configuration.maxPagesPerSearch, mode = request.mode.within(configuration.mostEagerMode)
        let options = PagingOptions(pageSize: pageSize, maxPages: min(request.maxPages ?? cap, cap), mode: mode,
                                    interval: configuration.requestInterval)
        let collection = MusicBrainzPlaceSearch(client: self, text: request.text, sinceYear: request.sinceYear, isPaced: mode != .adaptive)
        return PagedSearch(collection: collection, options: options, clock: clock)
    }

    /// A process-wide HTTP client that reports a refused connection at once (AsyncHTTPClient's default retries
    /// until the connect timeout, which leaves a user with a wrong URL waiting). Never shut down.
    public static let defaultHTTPClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(10)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Sends one place-search request: `GET /ws/2/place?query=…&limit=…&offset=…&fmt=json`.
    public func fetchPlaces(query: String, page: PageRequest) async throws -> PageFetchResult<MusicBrainzPlace?> {
        let url = "\(configuration.baseURL)/ws/2/place?query=\(ProviderHTTP.percentEncoded(query))&limit=\(page.limit)&offset=\(page.offset)&fmt=json"
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: configuration.userAgent)
        request.headers.add(name: "Accept", value: "application/json")

        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await httpClient.execute(request, timeout: .nanoseconds(configuration.requestTimeout.wholeNanoseconds))
            body = try await response.body.collect(upTo: 32 << 20)
        } catch {
            if Task.isCancelled { throw CancellationError() }
            throw describe(error)
        }
        let advice = RateLimitAdvice(
            limitHeader: response.headers.first(name: "X-RateLimit-Limit"),
            remainingHeader: response.headers.first(name: "X-RateLimit-Remaining"),
            resetHeader: response.headers.first(name: "X-RateLimit-Reset"),
            retryAfterHeader: response.headers.first(name: "Retry-After"),
            nowEpochSeconds: Date().timeIntervalSince1970)
        let bytes = Data(body.readableBytesView)

        switch response.status.code {
        case 200:
            do {
                let decoded = try JSONDecoder().decode(MusicBrainzPlaceSearchResponse.self, from: bytes)
                return .page(FetchedPage(records: decoded.places, totalCount: decoded.count, advice: advice))
            } catch {
                throw PindropError.upstream(provider: Self.providerName,
                                            message: "answered with JSON that is not a place search result (\(ProviderHTTP.summary(of: error)))")
            }
        case 503, 429:
            return .rateLimited(advice)
        // Our words with the status, never the service's error text or reason phrase (as for every provider).
        case 400..<500:
            throw PindropError.upstream(provider: Self.providerName, message: "refused the request with HTTP \(response.status.code)")
        default:
            throw PindropError.upstream(provider: Self.providerName, message: "answered HTTP \(response.status.code)")
        }
    }

    /// A sentence for a transport failure (refused, timed out, bad URL), from its kind alone: no error description
    /// (which may hold the service's text). It still names the base URL, which `pindrop music` users read to
    /// check their `--musicbrainz-url` (docs/providers.md, "Left out").
    private func describe(_ error: any Error) -> PindropError {
        let base = configuration.baseURL
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout:
                return .upstream(provider: Self.providerName,
                                 message: "\(base) did not answer within \(Int(configuration.requestTimeout.seconds)) s")
            case .invalidURL, .emptyHost, .emptyScheme:
                return .invalidInput("the MusicBrainz URL \(base) is not a valid URL")
            default:
                break
            }
        }
        let reason = ProviderHTTP.plainReason(error)
        // "could not connect (connection refused)" → "could not connect to http://… (connection refused)".
        let placed = reason.hasPrefix("could not connect") ? reason.replacingOccurrences(of: "could not connect", with: "could not connect to \(base)")
            : "\(base) \(reason)"
        return .upstream(provider: Self.providerName, message: placed)
    }
}
