import Hummingbird
import PindropCore
import Synchronization

/// `/v1/music/places`: a music place search (MusicBrainz behind `MusicPlaceSearching`) streamed to the client as
/// Server-Sent Events while its pages arrive. The search runs only while the client listens: when the connection
/// closes, the search's task is cancelled and no further upstream request is sent. At most
/// `maxConcurrentSearches` streams run at once (503 `overloaded` beyond): the service's requests are shared by all.
struct MusicController<Context: RequestContext>: Sendable {
    /// nil when the server was started without a music service: every request is a 503.
    let music: (any MusicPlaceSearching)?
    /// The streams running.
    let streams = Streams()

    /// A count of the streams running.
    final class Streams: Sendable {
        fileprivate let running = Atomic<Int>(0)

        /// A slot for one more stream, held until it is let go of, unless `limit` run already.
        func enter(limit: Int) -> Slot? {
            guard running.add(1, ordering: .relaxed).newValue <= limit else {
                running.subtract(1, ordering: .relaxed)
                return nil
            }
            return Slot(streams: self)
        }

        /// A stream's slot: given back when the answer that holds it goes, however it ends (written, or dropped
        /// with its connection before a byte of it was).
        final class Slot: Sendable {
            let streams: Streams
            init(streams: Streams) { self.streams = streams }
            deinit { streams.running.subtract(1, ordering: .relaxed) }
        }
    }

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("music/places", use: places)
    }

    @Sendable func places(_ request: Request, context: Context) async throws -> Response {
        guard let music else {
            throw PindropError.notConfigured("music search is not configured on this server; start pindrop serve with "
                + "--musicbrainz-contact (for the public MusicBrainz) or --musicbrainz-url")
        }
        let search = music.searchMusicPlaces(try Self.searchRequest(try QueryParameters(request)))
        guard let slot = streams.enter(limit: music.maxConcurrentSearches) else {
            throw PindropError.overloaded("\(music.maxConcurrentSearches) music searches are running, the most this server runs at once"
                                          + " (they share the service's requests); try again in a few seconds", retryAfter: 10)
        }
        let headers: HTTPFields = [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store"]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            defer { withExtendedLifetime(slot) {} }
            // Hummingbird cancels the operation when the client's side of the connection closes; cancelling the
            // task that iterates a `PagedSearch` stops its waits and its request in flight at once.
            try await request.body.consumeWithCancellationOnInboundClose { _ in
                try await writer.write(MusicEventStream.event(.progress(search.startingProgress)))
                for await event in search {
                    try await writer.write(MusicEventStream.event(event))
                }
            }
            try await writer.finish(nil)
        })
    }

    /// `q` (required, not blank), `mode` (polite, fixed or adaptive; default polite), `since` (a year; default 1990).
    static func searchRequest(_ query: QueryParameters) throws -> MusicSearchRequest {
        let text = try query.requiredString("q")
        var mode = RequestSchedulingMode.polite
        if let name = query.string("mode") {
            guard let parsed = RequestSchedulingMode(rawValue: name.lowercased()) else {
                let names = RequestSchedulingMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw PindropError.invalidInput("\"mode\" must be one of \(names), got \"\(name.prefix(40))\"")
            }
            mode = parsed
        }
        let since = try query.integer("since", default: MusicSearchRequest.defaultSinceYear,
                                      in: MusicSearchRequest.earliestSinceYear...9999)
        return try MusicSearchRequest(text: text, sinceYear: since, mode: mode)
    }
}

/// The Server-Sent Events of a music search, each one `event: NAME` and one `data:` line of JSON:
/// - `progress`: the counters (`MusicWireEncoding.writeProgress`), first at the start, then after every page
///   and every rate-limited answer;
/// - `places`: `{"page": N, "offset": N, "places": [...]}` for every page as it arrives;
/// - then exactly one of `done`, `error` or `cancelled`, holding the summary (`MusicWireEncoding.writeSummary`;
///   `error` adds `{"code", "message"}`), after which the server ends the stream.
enum MusicEventStream {
    /// One event, ready to write.
    static func event(_ event: PagedSearchEvent<MusicPlace>) -> ByteBuffer {
        var w = JSONWriter(capacity: 512)
        let name: String
        switch event {
        case .progress(let progress):
            name = "progress"
            MusicWireEncoding.writeProgress(progress, into: &w)
        case .page(let page):
            name = "places"
            w = JSONWriter(capacity: 256 + page.items.count * 320)
            w.beginObject()
            w.key("page"); w.number(page.pageIndex)
            w.key("offset"); w.number(page.offset)
            w.key("places")
            w.beginArray()
            for place in page.items { MusicWireEncoding.writePlace(place, into: &w) }
            w.endArray()
            w.endObject()
        case .finished(let progress):
            name = "done"
            MusicWireEncoding.writeSummary(progress, status: "finished", into: &w)
        case .failed(let error, let progress):
            name = "error"
            MusicWireEncoding.writeSummary(progress, status: "failed", error: error, into: &w)
        case .cancelled(let progress):
            name = "cancelled"
            MusicWireEncoding.writeSummary(progress, status: "cancelled", into: &w)
        }
        // JSONWriter escapes line breaks inside strings, so the document is one `data:` line.
        var buffer = ByteBuffer()
        buffer.writeString("event: \(name)\ndata: ")
        w.withUnsafeBytes { _ = buffer.writeBytes($0) }
        buffer.writeString("\n\n")
        return buffer
    }
}
