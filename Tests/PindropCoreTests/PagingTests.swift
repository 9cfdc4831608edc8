import PindropCore
import Synchronization
import Testing

@Suite("Paged search engine")
struct PagingTests {
    /// 4000 records = 40 pages of 100: the physical minimum at one request per second is 39 s.
    static let fortyPages = 4000

    @Test("fixed mode: every page, no 503, one interval after each answer")
    func fixedMode() async throws {
        let service = ScriptedCollection(total: Self.fortyPages, latency: .milliseconds(20))
        let final = try await service.finish(PagingOptions(mode: .fixed))
        #expect(final.pagesDone == 40 && final.pagesTotal == 40)
        #expect(final.requests == 40 && final.rateLimited == 0 && service.refused == 0)
        // 39 pauses of 1 s after 40 answers of 20 ms.
        #expect(final.elapsed == .seconds(39) + .milliseconds(20 * 40))
        #expect(final.elapsed.seconds <= 39 * 1.1)
    }

    @Test("polite mode: no 503, within 1.05 x the minimum, paced by X-RateLimit-Reset")
    func politeMode() async throws {
        let service = ScriptedCollection(total: Self.fortyPages, latency: .milliseconds(20))
        let final = try await service.finish(PagingOptions(mode: .polite))
        #expect(final.pagesDone == 40 && final.rateLimited == 0 && service.refused == 0)
        // Requests arrive exactly one second apart: the reset time, not "a second after the answer".
        let gaps = zip(service.arrivals.dropFirst(), service.arrivals).map { $0 - $1 }
        #expect(gaps.allSatisfy { $0 == .seconds(1) })
        #expect(final.elapsed == .seconds(39) + .milliseconds(20))
        #expect(final.elapsed.seconds <= 39 * 1.05)
    }

    @Test("polite mode without headers still never exceeds one request per interval")
    func politeWithoutHeaders() async throws {
        let final = try await ScriptedCollection(total: 1000, sendsHeaders: false).finish(PagingOptions(mode: .polite))
        #expect(final.rateLimited == 0 && final.pagesDone == 10)
    }

    @Test("polite mode waits the advised Retry-After after a 503, then continues")
    func politeHonoursRetryAfter() async throws {
        let service = ScriptedCollection(total: 300, interval: .seconds(1))
        // Someone else (another tool on this IP) used the service just now: our first request is refused.
        _ = try await service.fetchPage(PageRequest(offset: 0, limit: 1))
        service.clock.advance(by: .milliseconds(300))
        let start = service.clock.now
        let final = try await service.finish(PagingOptions(mode: .polite))
        #expect(final.rateLimited == 1 && final.pagesDone == 3)
        // The retry came when the server said (0.7 s later), not a full interval or a back-off later.
        #expect(service.arrivals[2] - start == .milliseconds(700))
    }

    @Test("adaptive mode shows 503s, slows for three requests after each, and still fetches every page")
    func adaptiveMode() async throws {
        let service = ScriptedCollection(total: Self.fortyPages, latency: .milliseconds(20))
        let final = try await service.finish(PagingOptions(mode: .adaptive))
        #expect(final.pagesDone == 40)
        #expect(final.rateLimited > 0 && final.rateLimited == service.refused)
        #expect(final.requests == 40 + final.rateLimited)
        // Fast, 503, then three paced requests: one refusal per three pages after the first.
        #expect(final.rateLimited == 13)
    }

    @Test("a service that keeps answering 503 ends the search with a clear rate-limit error after 5 retries")
    func boundedRetries() async throws {
        let service = ScriptedCollection(total: 500, alwaysRateLimited: true)
        let events = await service.events(PagingOptions(mode: .polite))
        guard case .failed(let error, let final) = events.last else { Issue.record("expected failed"); return }
        #expect(error.code == "rate_limited")
        #expect(error.message.contains("Scripted") && error.message.contains("try again later"))
        #expect(final.requests == 6 && service.arrivals.count == 6)
    }

    @Test("events: each page then its progress, counters add up, pages total known from the first page")
    func eventOrderAndCounters() async throws {
        let events = await ScriptedCollection(total: 250).events()
        #expect(events.count == 3 * 2 + 1)
        guard case .page(let first) = events[0], case .progress(let progress) = events[1] else {
            Issue.record("expected a page then progress"); return
        }
        #expect(first.pageIndex == 0 && first.offset == 0 && first.items.count == 80)
        #expect(progress.pagesDone == 1 && progress.pagesTotal == 3 && progress.placesFetched == 100)
        #expect(progress.placesShown == 80 && progress.placesSkipped == 10)
        let final = try #require(events.last?.finalProgress)
        #expect(final.placesFetched == 250 && final.placesShown == 200 && final.placesSkipped == 25)
        #expect(final.firstPageAfter == .zero)
    }

    @Test("maxPages stops early; an empty result is one request and finished")
    func maxPagesAndEmpty() async throws {
        let limited = try await ScriptedCollection(total: 5000).finish(PagingOptions(maxPages: 2, mode: .fixed))
        #expect(limited.pagesDone == 2 && limited.requests == 2)

        let empty = try await ScriptedCollection(total: 0).finish(PagingOptions())
        #expect(empty.requests == 1 && empty.placesFetched == 0)
    }

    @Test("cancelling the consuming task stops at once: cancelled event, no request after it")
    func cancellation() async throws {
        let service = ScriptedCollection(total: 5000)
        let search = PagedSearch(collection: service, options: PagingOptions(mode: .fixed), clock: service.clock)
        let events = await Task {
            var events: [PagedSearchEvent<Int>] = []
            for await event in search {
                events.append(event)
                if case .page = event { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return events
        }.value
        guard case .cancelled(let final) = events.last else { Issue.record("expected cancelled, got \(String(describing: events.last))"); return }
        #expect(final.pagesDone == 1)
        #expect(service.arrivals.count == 1)
    }

    @Test("a failing service ends the search with its error, named after the provider")
    func failures() async throws {
        struct Broken: Error {}
        let typed = await ScriptedCollection(
            total: 10, failure: PindropError.upstream(provider: "Scripted", message: "answered HTTP 500")).events()
        guard case .failed(let error, _) = typed.last else { Issue.record("expected failed"); return }
        #expect(error == .upstream(provider: "Scripted", message: "answered HTTP 500"))

        let untyped = await ScriptedCollection(total: 10, failure: Broken()).events()
        guard case .failed(let other, _) = untyped.last else { Issue.record("expected failed"); return }
        #expect(other.code == "upstream_failed" && other.message.hasPrefix("Scripted:"))
    }
}

@Suite("Request scheduler and rate-limit headers")
struct PagingSchedulerTests {
    @Test("headers: whole and fractional reset, Retry-After in seconds or as an HTTP date, garbage ignored")
    func headerParsing() {
        let now = 1_700_000_000.0
        let advice = RateLimitAdvice(limitHeader: "1200", remainingHeader: " 0", resetHeader: "1700000002",
                                     retryAfterHeader: "3", nowEpochSeconds: now)
        #expect(advice == RateLimitAdvice(limit: 1200, remaining: 0, resetAfter: .seconds(2), retryAfter: .seconds(3)))
        let fractional = RateLimitAdvice(limitHeader: nil, remainingHeader: nil, resetHeader: "1700000000.250",
                                         retryAfterHeader: "0.125", nowEpochSeconds: now)
        #expect(fractional.resetAfter == .milliseconds(250) && fractional.retryAfter == .milliseconds(125))
        // 1700000060 is Tue, 14 Nov 2023 22:14:20 GMT.
        let dated = RateLimitAdvice(limitHeader: "x", remainingHeader: "", resetHeader: "soon",
                                    retryAfterHeader: "Tue, 14 Nov 2023 22:14:20 GMT", nowEpochSeconds: now)
        #expect(dated == RateLimitAdvice(retryAfter: .seconds(60)))
    }

    @Test("adaptive: fast, then one interval for the next three requests after a 503, then fast again")
    func adaptiveSequence() {
        var scheduler = RequestScheduler(mode: .adaptive, interval: .seconds(1))
        scheduler.requestSent(at: .zero)
        scheduler.answered(at: .milliseconds(10), advice: .none)
        #expect(scheduler.earliestNextRequest() == .milliseconds(10))
        scheduler.requestSent(at: .milliseconds(10))
        let willRetry = scheduler.rateLimited(at: .milliseconds(20), advice: .none)
        #expect(willRetry)
        var sendAt = Duration.milliseconds(20)
        for _ in 0..<3 {
            #expect(scheduler.earliestNextRequest() == sendAt + .seconds(1))
            sendAt += .seconds(1)
            scheduler.requestSent(at: sendAt)
            scheduler.answered(at: sendAt, advice: .none)
        }
        #expect(scheduler.earliestNextRequest() == sendAt)
    }

    @Test("polite backs off exponentially when a 503 comes without advice")
    func politeBackOff() {
        var scheduler = RequestScheduler(mode: .polite, interval: .seconds(1))
        scheduler.requestSent(at: .zero)
        _ = scheduler.rateLimited(at: .zero, advice: .none)
        #expect(scheduler.earliestNextRequest() == .seconds(1))
        scheduler.requestSent(at: .seconds(1))
        _ = scheduler.rateLimited(at: .seconds(1), advice: .none)
        #expect(scheduler.earliestNextRequest() == .seconds(3))
    }
}

@Suite("Upstream pace")
struct UpstreamPaceTests {
    @Test("one request per interval; the host's word holds every later one back")
    func turns() async throws {
        let clock = VirtualClock()
        let pace = UpstreamPace(interval: .seconds(1), clock: clock)
        var sent: [Duration] = []
        for wait in [nil, nil, Duration.seconds(5), nil] {
            _ = try await pace.run({ sent.append(clock.now) }, holdOff: { wait })
        }
        // The third answer says "not for 5 s": the fourth goes at 2 + 5.
        #expect(sent == [.zero, .seconds(1), .seconds(2), .seconds(7)])
        #expect(UpstreamPace.of(host: "a.example:1", interval: .seconds(1)) === UpstreamPace.of(host: "a.example:1", interval: .seconds(2)))
        #expect(UpstreamPace.of(host: "a.example:1", interval: .seconds(1)) !== UpstreamPace.of(host: "a.example:2", interval: .seconds(1)))
    }

    @Test("searches waiting at once are served one at a time, first come first served")
    func queue() async throws {
        final class Log: Sendable {
            let order = Mutex<[Int]>([]), inFlight = Mutex((now: 0, most: 0))
        }
        let pace = UpstreamPace(interval: .milliseconds(20)), log = Log()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<5 {
                group.addTask {
                    try await Task.sleep(for: .milliseconds(5 * n))
                    _ = try await pace.run({
                        log.inFlight.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                        log.order.withLock { $0.append(n) }
                        try await Task.sleep(for: .milliseconds(10))
                        log.inFlight.withLock { $0.now -= 1 }
                    }, holdOff: { _ in nil })
                }
            }
            try await group.waitForAll()
        }
        #expect(log.order.withLock { $0 } == [0, 1, 2, 3, 4])
        #expect(log.inFlight.withLock { $0.most } == 1)
    }
}
