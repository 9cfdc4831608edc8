import ArgumentParser
import Dispatch
import Foundation
import PindropCore
import PindropProviders
import Synchronization

extension RequestSchedulingMode: ExpressibleByArgument {}

/// `pindrop music "Copenhagen"`: every page of a MusicBrainz place search under its rate limit, with a
/// progress bar, the places opened since 1990 and a summary. Ctrl-C cancels and prints what arrived.
struct MusicCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "music",
        abstract: "Find music places (studios, venues, ...) on MusicBrainz: every page, under its rate limit.",
        discussion: "Places opened before --since (default 1990) or without an opening date are left out; each kept "
            + "place has a pin lifespan of (opening year - since) seconds. A place without coordinates is geocoded from "
            + "its address with the embedded index; without either it is skipped and counted. MusicBrainz asks for a "
            + "contact in the User-Agent: set PINDROP_MUSICBRAINZ_CONTACT or --contact. Ctrl-C cancels and prints what arrived.")

    @Argument(help: "What to search for, in MusicBrainz's Lucene syntax: \"Copenhagen\", \"type:studio AND area:Berlin\".")
    var text: String

    @Option(help: "How requests are spaced: polite (honours the rate-limit headers, no 503), fixed (one request, then 1 s), adaptive (fast until a 503).")
    var mode: RequestSchedulingMode = .polite

    @Option(help: "Only places opened in or after this year.")
    var since: Int = MusicSearchRequest.defaultSinceYear

    @Option(help: "Stop after this many pages of 100 places.")
    var maxPages: Int?

    @Option(name: .customLong("musicbrainz-url"),
            help: "The MusicBrainz service (default: $PINDROP_MUSICBRAINZ_URL, else https://musicbrainz.org).")
    var musicBrainzURL: String?

    @Option(help: "Your e-mail address or website, sent in the User-Agent (default: $PINDROP_MUSICBRAINZ_CONTACT).")
    var contact: String?

    @OptionGroup var output: OutputOptions
    @OptionGroup var store: StoreOptions

    func run() async throws {
        let (request, configuration) = try await reportingErrors {
            (try MusicSearchRequest(text: text, sinceYear: since, mode: mode, maxPages: maxPages),
             try MusicBrainzConfiguration.resolve(baseURL: musicBrainzURL, contact: contact))
        }
        let client = MusicBrainzClient(configuration: configuration, geocoder: StoreOnFirstUse(location: try await reportingErrors { try store.location }))
        let report = MusicReport(format: output.format, showsProgress: isatty(2) == 1, sinceYear: request.sinceYear)
        let search = client.searchMusicPlaces(request)

        // Ctrl-C cancels the search (stopping its network work at once) instead of killing the process.
        let consumer = Task { await report.consume(search) }
        let interrupt = Self.onInterrupt { consumer.cancel() }
        let end = await consumer.value
        interrupt.cancel()
        signal(SIGINT, SIG_DFL)

        report.finish(query: request, end: end)
        switch end {
        case .finished, nil: return
        case .cancelled: throw ExitCode(130)
        case .failed(let error, _):
            Terminal.note("error: \(error.message)")
            throw ExitCode(error.exitCode)
        case .page, .progress: return
        }
    }
}

extension MusicCommand {
    /// Runs `action` (off the main actor) on Ctrl-C instead of exiting.
    static func onInterrupt(_ action: @escaping @Sendable () -> Void) -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: action)
        source.resume()
        return source
    }
}

/// The store, opened when the first place needs geocoding (building it on first use takes a while, and most
/// searches need no geocoding). If it cannot be opened, geocoding is off and places without coordinates are
/// skipped, with one note saying so.
actor StoreOnFirstUse: PlaceSearching {
    private let location: StoreLocation
    private var store: (any PlaceStore)?
    private var tried = false

    init(location: StoreLocation) { self.location = location }

    func search(_ request: SearchRequest) async throws -> [PlaceResult] {
        if !tried {
            tried = true
            do {
                store = try await location.open()
            } catch {
                Terminal.note("geocoding is off, places without coordinates are skipped: \((error as? PindropError)?.message ?? "\(error)")")
            }
        }
        return try await store?.search(request) ?? []
    }
}

/// Writes a music search as it runs: places as lines on stdout as pages arrive (or one JSON / GeoJSON
/// document at the end), a progress bar on stderr when it is a terminal, and the summary.
final class MusicReport: Sendable {
    let format: ResultFormat?
    let showsProgress: Bool
    let sinceYear: Int
    private let collected = Mutex<[MusicPlace]>([])

    init(format: ResultFormat?, showsProgress: Bool, sinceYear: Int) {
        self.format = format; self.showsProgress = showsProgress; self.sinceYear = sinceYear
    }

    /// Runs the search to its end and returns the terminal event.
    func consume(_ search: PagedSearch<MusicPlace>) async -> PagedSearchEvent<MusicPlace>? {
        var end: PagedSearchEvent<MusicPlace>?
        for await event in search {
            switch event {
            case .page(let page):
                collected.withLock { $0 += page.items }
                if format == nil, !page.items.isEmpty {
                    clearProgress()
                    Terminal.write(Array(page.items.map(Self.line).joined().utf8))
                }
            case .progress(let progress):
                drawProgress(progress)
            case .finished, .failed, .cancelled:
                end = event
            }
        }
        clearProgress()
        return end
    }

    /// Prints the summary (text) or the whole document (JSON, GeoJSON).
    func finish(query: MusicSearchRequest, end: PagedSearchEvent<MusicPlace>?) {
        let places = collected.withLock { $0 }
        let progress = end?.finalProgress ?? PagingProgress()
        let (status, error): (String, PindropError?) = switch end {
        case .failed(let error, _): ("failed", error)
        case .cancelled: ("cancelled", nil)
        default: ("finished", nil)
        }
        guard let format else {
            if places.isEmpty, status == "finished" { Terminal.write(Array("No Results\n".utf8)) }
            Terminal.write(Array(Self.summaryLine(progress, status: status, sinceYear: sinceYear).utf8))
            return
        }
        var w = JSONWriter(capacity: 512 + places.count * 300)
        w.beginObject()
        if format == .geojson { w.key("type"); w.string("FeatureCollection") }
        w.key("query")
        WireEncoding.writeQuery([("text", .text(query.text)), ("mode", .text(query.mode.rawValue)),
                                 ("since", .integer(query.sinceYear))], into: &w)
        w.key(format == .geojson ? "features" : "results")
        w.beginArray()
        for place in places {
            if format == .geojson { MusicWireEncoding.writeFeature(place, into: &w) } else { MusicWireEncoding.writePlace(place, into: &w) }
        }
        w.endArray()
        w.key("summary")
        MusicWireEncoding.writeSummary(progress, status: status, error: error, into: &w)
        w.endObject()
        Terminal.write(w.bytes + [0x0A])
    }

    /// "2017  27 s  Indoor arena  Royal Arena — Hannemanns Allé 18, 2300 København S  (55.62528, 12.57639)".
    static func line(_ place: MusicPlace) -> String {
        let type = (place.type ?? "-").padding(toLength: max(12, place.type?.count ?? 0), withPad: " ", startingAt: 0)
        let whereabouts = place.address ?? place.area ?? ""
        let point = String(format: "(%.5f, %.5f)", place.coordinate.latitude, place.coordinate.longitude)
        // MusicBrainz's texts, escaped: a name is anyone's edit.
        return ControlCharacters.escaped("\(place.openYear)  \(String(format: "%3d", place.lifespanSeconds)) s  \(type)  \(place.name)"
            + (whereabouts.isEmpty ? "" : " — \(whereabouts)") + "  \(point)" + (place.isGeocoded ? " geocoded" : "")) + "\n"
    }

    static func summaryLine(_ p: PagingProgress, status: String, sinceYear: Int) -> String {
        let verb = switch status {
        case "cancelled": "Cancelled after"
        case "failed": "Failed after"
        default: "Done:"
        }
        return "\(verb) \(p.pagesDone) pages, \(p.placesFetched) places, \(p.placesShown) kept (opened \(sinceYear) or later), "
            + "\(p.placesSkipped) skipped (no location), \(p.requests) requests, \(p.rateLimited) rate-limited (503), "
            + String(format: "%.1f s\n", p.elapsed.seconds)
    }

    private func drawProgress(_ p: PagingProgress) {
        guard showsProgress else { return }
        let width = 24
        let fraction = p.pagesTotal > 0 ? Double(p.pagesDone) / Double(p.pagesTotal) : 0
        let filled = min(width, Int(fraction * Double(width)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = "\r[\(bar)] \(p.pagesDone)/\(p.pagesTotal) pages · \(p.placesShown) kept · \(p.placesSkipped) skipped · "
            + "\(p.rateLimited)×503 · " + String(format: "%.1f s", p.elapsed.seconds) + "\u{1B}[K"
        FileHandle.standardError.write(Data(line.utf8))
    }

    private func clearProgress() {
        guard showsProgress else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
