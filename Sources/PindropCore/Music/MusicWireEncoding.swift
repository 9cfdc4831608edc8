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
        w.beginObject()
        w.key("type"); w.string("Feature")
        w.key("id"); w.string(place.id)
        w.key("geometry")
        w.beginObject()
        w.key("type"); w.string("Point")
        w.key("coordinates")
        w.beginArray(); w.number(place.coordinate.longitude); w.number(place.coordinate.latitude); w.endArray()
        w.endObject()
        w.key("properties")
        w.beginObject()
        writePlaceProperties(place, into: &w, withCoordinates: false)
        w.endObject()
        w.endObject()
    }

    /// Writes the running counters: `pagesDone`, `pagesTotal`, `placesFetched`, `placesShown`,
    /// `placesSkipped`, `requests`, `rateLimited`, `elapsedSeconds`.
    public static func writeProgress(_ progress: PagingProgress, into w: inout JSONWriter) {
        w.beginObject()
        w.key("pagesDone"); w.number(progress.pagesDone)
        w.key("pagesTotal"); w.number(progress.pagesTotal)
        w.key("placesFetched"); w.number(progress.placesFetched)
        w.key("placesShown"); w.number(progress.placesShown)
        w.key("placesSkipped"); w.number(progress.placesSkipped)
        w.key("requests"); w.number(progress.requests)
        w.key("rateLimited"); w.number(progress.rateLimited)
        w.key("elapsedSeconds"); w.number(roundedSeconds(progress.elapsed))
        w.endObject()
    }

    /// Writes the end-of-search summary: `status` ("finished", "failed", "cancelled"), `pages`, `places`
    /// (fetched), `requests`, `rateLimited`, `kept`, `skipped`, `elapsedSeconds`, and `error` when failed.
    public static func writeSummary(_ progress: PagingProgress, status: String, error: PindropError? = nil,
                                    into w: inout JSONWriter) {
        w.beginObject()
        w.key("status"); w.string(status)
        w.key("pages"); w.number(progress.pagesDone)
        w.key("places"); w.number(progress.placesFetched)
        w.key("requests"); w.number(progress.requests)
        w.key("rateLimited"); w.number(progress.rateLimited)
        w.key("kept"); w.number(progress.placesShown)
        w.key("skipped"); w.number(progress.placesSkipped)
        w.key("elapsedSeconds"); w.number(roundedSeconds(progress.elapsed))
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
            w.key("latitude"); w.number(place.coordinate.latitude)
            w.key("longitude"); w.number(place.coordinate.longitude)
        }
        w.key("address"); optionalString(place.address, into: &w)
        w.key("area"); optionalString(place.area, into: &w)
        w.key("openYear"); w.number(place.openYear)
        w.key("lifespanSeconds"); w.number(place.lifespanSeconds)
        w.key("geocoded"); w.bool(place.isGeocoded)
    }

    private static func optionalString(_ value: String?, into w: inout JSONWriter) {
        if let value { w.string(value) } else { w.null() }
    }

    /// Seconds with millisecond precision.
    static func roundedSeconds(_ duration: Duration) -> Double {
        (duration.seconds * 1000).rounded() / 1000
    }
}
