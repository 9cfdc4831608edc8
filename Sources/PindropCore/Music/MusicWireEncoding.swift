/// The wire shape of music places and paging progress, shared by the CLI (`--json`, `--geojson`) and the
/// server's event stream.
public enum MusicWireEncoding {
    /// Writes one place: `id`, `name`, `type`, `latitude`, `longitude`, `address`, `area`, `openYear`,
    /// `lifespanSeconds`, `geocoded` (absent type, address and area are `null`).
    public static func writePlace(_ place: MusicPlace, into w: inout JSONWriter) {
        w.beginObject()
        writePlaceProperties(place, into: &w, withCoordinates: true)
        w.endObject()
    }

    /// Writes one place as a GeoJSON Feature with a Point geometry.
    public static func writeFeature(_ place: MusicPlace, into w: inout JSONWriter) {
        WireEncoding.writePointFeature(id: .written(place.id), at: place.coordinate, into: &w) { w in
            writePlaceProperties(place, into: &w, withCoordinates: false)
        }
    }

    /// Writes the running counters: `pagesDone`, `pagesTotal`, `placesFetched`, `placesShown`,
    /// `placesSkipped`, `requests`, `rateLimited`, `elapsedSeconds`, and how the search runs (`writeLimits`).
    public static func writeProgress(_ progress: PagingProgress, into w: inout JSONWriter) {
        w.beginObject()
        writeCounters(["pagesDone": progress.pagesDone, "pagesTotal": progress.pagesTotal,
                       "placesFetched": progress.placesFetched, "placesShown": progress.placesShown,
                       "placesSkipped": progress.placesSkipped, "requests": progress.requests,
                       "rateLimited": progress.rateLimited], elapsed: progress.elapsed, into: &w)
        writeLimits(progress, into: &w)
        w.endObject()
    }

    /// How the search runs, as the server decided it: `mode` (the one asked for, within what the server allows),
    /// `pagesCap` (the most pages fetched, null for all) and `pagesInAll` (the pages the service holds for the
    /// query, 0 before the first page): a search of more pages than the cap says so.
    static func writeLimits(_ progress: PagingProgress, into w: inout JSONWriter) {
        w.key("mode"); w.string(progress.mode.rawValue)
        w.key("pagesCap"); if let cap = progress.pagesCap { w.number(cap) } else { w.null() }
        w.key("pagesInAll"); w.number(progress.pagesInAll)
    }

    /// Writes the end-of-search summary: `status` ("finished", "failed", "cancelled"), `pages`, `places`
    /// (fetched), `requests`, `rateLimited`, `kept`, `skipped`, `elapsedSeconds`, and `error` when failed.
    public static func writeSummary(_ progress: PagingProgress, status: String, error: PindropError? = nil,
                                    into w: inout JSONWriter) {
        w.beginObject()
        w.key("status"); w.string(status)
        writeCounters(["pages": progress.pagesDone, "places": progress.placesFetched, "requests": progress.requests,
                       "rateLimited": progress.rateLimited, "kept": progress.placesShown,
                       "skipped": progress.placesSkipped], elapsed: progress.elapsed, into: &w)
        writeLimits(progress, into: &w)
        if let error {
            w.key("error")
            WireEncoding.writeError(error, into: &w)
        }
        w.endObject()
    }

    private static func writePlaceProperties(_ place: MusicPlace, into w: inout JSONWriter, withCoordinates: Bool) {
        w.key("id"); w.string(place.id)
        w.key("name"); w.string(place.name)
        w.key("type"); optionalString(place.type, into: &w)
        if withCoordinates {
            w.key("latitude"); w.degrees(place.coordinate.latitude)
            w.key("longitude"); w.degrees(place.coordinate.longitude)
        }
        w.key("address"); optionalString(place.address, into: &w)
        w.key("area"); optionalString(place.area, into: &w)
        w.key("openYear"); w.number(place.openYear)
        w.key("lifespanSeconds"); w.number(place.lifespanSeconds)
        w.key("geocoded"); w.bool(place.isGeocoded)
    }

    /// Writes the counters in the order given (the progress event and the summary name them differently),
    /// then `elapsedSeconds`.
    private static func writeCounters(_ counters: KeyValuePairs<String, Int>, elapsed: Duration, into w: inout JSONWriter) {
        for (name, value) in counters { w.key(named: name); w.number(value) }
        w.key("elapsedSeconds"); w.number(roundedSeconds(elapsed))
    }

    private static func optionalString(_ value: String?, into w: inout JSONWriter) {
        if let value { w.string(value) } else { w.null() }
    }

    /// Seconds with millisecond precision.
    static func roundedSeconds(_ duration: Duration) -> Double {
        (duration.seconds * 1000).rounded() / 1000
    }
}
