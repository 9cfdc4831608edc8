import Foundation

/// Output formats that other tools read.
public enum ResultFormat: String, Sendable, CaseIterable {
    /// `{"query": {...}, "results": [...]}`.
    case json
    /// An RFC 7946 FeatureCollection; coordinates as [longitude, latitude].
    case geojson
}

/// A value echoed back in a response's `query` object.
public enum QueryValue: Sendable, Hashable {
    case text(String)
    case number(Double)
    case integer(Int)
}

/// The versioned wire shape of results, shared by the CLI and the HTTP API (v1).
public enum WireEncoding {
    /// A whole response document: the query echoed back and the results, in the given format.
    /// A page of a longer list adds `total` (how many in all, when known) and `next` (the cursor of the next page, null on
    /// the last).
    public static func document(query: [(String, QueryValue)], results: [PlaceResult], format: ResultFormat,
                                page: ResultPage? = nil) -> JSONWriter {
        var w = JSONWriter(capacity: 256 + results.count * 320)
        w.beginObject()
        if format == .geojson { w.key("type"); w.string("FeatureCollection") }
        w.key("query")
        writeQuery(query, into: &w)
        writeResults(results, format: format, into: &w)
        if let page { writePage(page, into: &w) }
        w.endObject()
        return w
    }

    /// Writes a page's `total` (null when unknown) and `next` (null on the last page).
    static func writePage(_ page: ResultPage, into w: inout JSONWriter) {
        w.field("total", page.total)
        w.key("next")
        if let next = page.next { w.string(next) } else { w.null() }
    }

    /// Writes the `results` member (`features` in GeoJSON) of a response document.
    static func writeResults(_ results: [PlaceResult], format: ResultFormat, into w: inout JSONWriter) {
        w.key(format == .geojson ? "features" : "results")
        w.beginArray()
        // Read where the array keeps them: a loop over the values, or the array's subscript, copied each result
        // (retaining its dozen strings) to read it.
        results.withUnsafeBufferPointer { results in
            for i in results.indices {
                if format == .geojson { writeFeature(results[i], into: &w) } else { writeResult(results[i], into: &w) }
            }
        }
        w.endArray()
    }

    /// Writes the `query` echo object.
    public static func writeQuery(_ query: [(String, QueryValue)], into w: inout JSONWriter) {
        w.beginObject()
        for (name, value) in query {
            w.key(named: name)
            switch value {
            case .text(let s): w.string(s)
            case .number(let d): w.number(d)
            case .integer(let i): w.number(i)
            }
        }
        w.endObject()
    }

    /// Writes an error as `{"code": "invalid_input", "message": "..."}`: the one shape of every error on the wire
    /// (HTTP error bodies, batch lines, provider failures, the music stream's last event).
    public static func writeError(_ error: PindropError, into w: inout JSONWriter) {
        w.beginObject()
        writeErrorFields(error, into: &w)
        w.endObject()
    }

    /// Writes an error's `code` and `message` into an object already open (a provider failure adds its name).
    public static func writeErrorFields(_ error: PindropError, into w: inout JSONWriter) {
        w.key("code"); w.string(error.code)
        w.key("message"); w.string(error.message)
    }

    /// A whole error document: `{"error": {"code": ..., "message": ...}}`.
    public static func errorDocument(_ error: PindropError) -> JSONWriter {
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        w.key("error")
        writeError(error, into: &w)
        w.endObject()
        return w
    }

    /// What a store says about itself (`/v1/status`, `pindrop status --json`):
    /// `{"status": "ok", "store": {"name", "placeCount", "location", "attribution": [...]}}`. The document is
    /// public, so `location` names the store without saying where it lives (`publicLocation`); the full path is
    /// for the operator, in `pindrop status`'s text.
    public static func statusDocument(_ status: StoreStatus) -> JSONWriter {
        var w = JSONWriter()
        w.beginObject()
        w.key("status"); w.string("ok")
        w.key("store")
        w.beginObject()
        w.key("name"); w.string(status.name)
        w.key("placeCount"); w.number(status.placeCount)
        w.key("location"); w.string(publicLocation(status.location))
        w.key("attribution"); w.strings(status.attribution)
        if let updated = status.dataUpdated { w.key("dataUpdated"); w.string(isoDate(updated)) }
        if let sequence = status.replicationSequence { w.key("replicationSequence"); w.number(sequence) }
        w.endObject()
        w.endObject()
        return w
    }

    /// A moment as ISO 8601 in UTC to the second, "2026-11-29T05:03:47+00:00" (the form Nominatim's `data_updated` has).
    public static func isoDate(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date).replacingOccurrences(of: "Z", with: "+00:00")
    }

    /// A store's location as the public may see it: a file's name without its folders ("index.sqlite"), a
    /// URL's scheme alone ("postgresql"), never a path, host, user or password.
    private static func publicLocation(_ location: String) -> String {
        if let scheme = location.range(of: "://").map({ String(location[..<$0.lowerBound]) }) { return scheme }
        return location.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
    }

    /// One line of batch output: the query echoed, then its results or its error.
    public static func batchLine(query: [(String, QueryValue)], _ answer: Result<[PlaceResult], PindropError>) -> JSONWriter {
        var w = JSONWriter(capacity: 512)
        writeLine(into: &w, query: { writeQuery(query, into: &$0) }) { w in
            switch answer {
            case .success(let results):
                w.key("results")
                w.beginArray()
                for r in results { writeResult(r, into: &w) }
                w.endArray()
            case .failure(let error):
                w.key("error")
                writeError(error, into: &w)
            }
        }
        return w
    }

    /// The batch line of a reverse question answered by one place, as `batchLine` writes it, from the place's
    /// members written once ahead (`placeMembers`, without its source) and the answer's own: for a fast path that
    /// keeps each place's members and reuses one writer (`BatchReversing`), so that a line allocates nothing.
    public static func writeReverseBatchLine(latitude: Double, longitude: Double, placeMembers: [UInt8], distanceMeters: Double,
                                             source: String, into w: inout JSONWriter) {
        writeLine(into: &w, query: { w in
            w.beginObject()
            w.key("latitude"); w.number(latitude)
            w.key("longitude"); w.number(longitude)
            w.endObject()
        }) { w in
            w.key("results")
            w.beginArray()
            w.beginObject()
            w.members(placeMembers)
            writeAnswerProperties(distanceMeters: distanceMeters, matchedName: nil, source: source, explanation: nil, into: &w)
            w.endObject()
            w.endArray()
        }
    }

    /// A result object's members that come from its place (all but the distance, the matched name, the source and
    /// the explanation), for `writeReverseBatchLine`.
    public static func placeMembers(_ place: Place) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        writePlaceProperties(place, into: &w, withCoordinates: true)
        return w.membersOfObject
    }

    /// A batch line's envelope: `{"query": ..., ...}`, the query written by `query` and the rest by `answer`.
    @inline(__always)
    private static func writeLine(into w: inout JSONWriter, query: (inout JSONWriter) -> Void, answer: (inout JSONWriter) -> Void) {
        w.beginObject()
        w.key("query")
        query(&w)
        answer(&w)
        w.endObject()
    }

    /// Writes one result as a flat JSON object (the fields every front end shares).
    public static func writeResult(_ result: PlaceResult, into w: inout JSONWriter) {
        w.beginObject()
        writeProperties(result, into: &w, withCoordinates: true)
        w.endObject()
    }

    /// Writes one result as a GeoJSON Feature with a Point geometry.
    public static func writeFeature(_ result: PlaceResult, into w: inout JSONWriter) {
        writePointFeature(id: result.place.idText, at: result.place.coordinate, into: &w) { w in
            writeProperties(result, into: &w, withCoordinates: true)
        }
    }

    /// Writes a GeoJSON Feature with a Point geometry; `properties` writes the members of its `properties` object.
    @inline(__always)  // keeps the closure from costing a call per feature
    static func writePointFeature(id: PlaceText, at coordinate: Coordinate, into w: inout JSONWriter,
                                  properties: (inout JSONWriter) -> Void) {
        w.beginObject()
        w.key("type"); w.string("Feature")
        w.key("id"); w.string(id)
        w.key("geometry")
        w.beginObject()
        w.key("type"); w.string("Point")
        w.key("coordinates")
        w.beginArray(); w.degrees(coordinate.longitude); w.degrees(coordinate.latitude); w.endArray()
        w.endObject()
        w.key("properties")
        w.beginObject()
        properties(&w)
        w.endObject()
        w.endObject()
    }

    private static func writeProperties(_ result: PlaceResult, into w: inout JSONWriter, withCoordinates: Bool) {
        writePlaceProperties(result.place, into: &w, withCoordinates: withCoordinates)
        writeAnswerProperties(distanceMeters: result.distanceMeters, matchedName: result.matchedName, source: result.place.source,
                              explanation: result.explanation, into: &w)
    }

    /// A result's members that come from its place, up to its box.
    private static func writePlaceProperties(_ place: Place, into w: inout JSONWriter, withCoordinates: Bool) {
        w.key("id"); w.string(place.idText)
        w.key("name"); w.string(place.name)
        w.key("displayName"); w.string(place.displayText)
        if withCoordinates {
            w.key("latitude"); w.degrees(place.coordinate.latitude)
            w.key("longitude"); w.degrees(place.coordinate.longitude)
        }
        w.field("countryCode", place.countryCode)
        w.field("admin1", place.admin1)
        w.key("population"); w.number(place.population)
        w.field("category", place.category)
        if let address = place.address, !address.isEmpty {
            w.key("address")
            w.beginObject()
            w.field("houseNumber", address.houseNumber)
            w.field("street", address.street)
            w.field("postcode", address.postcode)
            w.field("town", address.town)
            w.field("suburb", address.suburb)
            w.field("county", address.county)
            w.field("state", address.state)
            w.field("country", address.country)
            w.field("neighbourhood", address.neighbourhood)
            w.field("townKind", address.townKind)
            w.field("place", address.place)
            w.field("placeKind", address.placeKind)
            if let codes = address.subdivisionCodes, !codes.isEmpty {
                w.key("subdivisionCodes"); w.beginArray()
                for code in codes {
                    w.beginObject(); w.key("adminLevel"); w.number(code.adminLevel); w.field("code", code.code); w.endObject()
                }
                w.endArray()
            }
            // As the country writes it, lines separated by "\n" (`AddressFormatter`).
            w.key("formatted"); w.string(AddressFormatter.format(address, countryCode: place.countryCode))
            w.endObject()
        }
        if let box = place.boundingBox {
            w.key("boundingBox")
            w.beginObject()
            w.key("south"); w.degrees(box.south); w.key("west"); w.degrees(box.west)
            w.key("north"); w.degrees(box.north); w.key("east"); w.degrees(box.east)
            w.endObject()
        }
        w.field("boundaryId", place.boundaryID)
        if let tags = place.tags, !tags.isEmpty { writeTags(tags, into: &w) }
        if let entrances = place.entrances, !entrances.isEmpty { writeEntrances(entrances, into: &w) }
    }

    /// A place's `entrances`: each node's id, kind, point and other tags.
    private static func writeEntrances(_ entrances: [PlaceEntrance], into w: inout JSONWriter) {
        w.key("entrances")
        w.beginArray()
        for e in entrances {
            w.beginObject()
            w.field("id", PlaceID.osm(.init(.node, e.nodeID)).description)
            w.field("kind", e.kind)
            w.key("latitude"); w.degrees(e.coordinate.latitude)
            w.key("longitude"); w.degrees(e.coordinate.longitude)
            if let tags = e.tags, !tags.isEmpty {
                w.key("tags")
                w.beginObject()
                for (key, value) in tags.sorted(by: { $0.key < $1.key }) { w.key(named: key); w.string(value) }
                w.endObject()
            }
            w.endObject()
        }
        w.endArray()
    }

    /// A place's `names` (every name it has, by OSM key) and `extratags` (its other kept tags), each sorted by key.
    private static func writeTags(_ tags: [String: String], into w: inout JSONWriter) {
        let sorted = tags.sorted { $0.key < $1.key }
        for (member, names) in [("names", true), ("extratags", false)] {
            let chosen = sorted.filter { PlaceTags.isName($0.key) == names }
            guard !chosen.isEmpty else { continue }
            w.key(named: member)
            w.beginObject()
            for (key, value) in chosen { w.key(named: key); w.string(value) }
            w.endObject()
        }
    }

    /// A result's members that come from the question: its distance (to a tenth of a metre), the name it matched as
    /// written, its source and why it ranked where it did.
    private static func writeAnswerProperties(distanceMeters: Double?, matchedName: String?, source: String?, explanation: MatchExplanation?,
                                              into w: inout JSONWriter) {
        if let d = distanceMeters { w.key("distanceMeters"); w.number((d * 10).rounded() / 10) }
        w.field("matchedName", matchedName)
        w.field("source", source)
        if let explanation { writeExplanation(explanation, into: &w) }
    }

    /// Writes a result's `explain` object; scores to two decimals, which is all they say.
    static func writeExplanation(_ e: MatchExplanation, into w: inout JSONWriter) {
        func rounded(_ x: Double) -> Double { (x * 100).rounded() / 100 }
        w.key("explain")
        w.beginObject()
        w.key("match"); w.string(e.match.rawValue)
        w.key("nameKind"); w.string(e.nameKind.rawValue)
        w.key("text"); w.string(e.text)
        w.key("matchedName"); w.string(e.matchedName)
        w.field("edit", e.edit)
        w.key("rowKind"); w.string(e.rowKind.rawValue)
        w.key("population"); w.number(e.population)
        w.key("importance"); w.number(rounded(e.importance))
        w.key("kindBonus"); w.number(rounded(e.kindBonus))
        w.key("nameTerm"); w.number(rounded(e.nameTerm))
        w.field("distanceMeters", e.distanceMeters.map { ($0 * 10).rounded() / 10 })
        w.field("distanceTerm", e.distanceTerm.map(rounded))
        w.key("tier"); w.number(e.tier)
        w.key("score"); w.number(rounded(e.score))
        w.endObject()
    }
}
