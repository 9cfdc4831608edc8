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
        w.endObject()
        w.endObject()
        return w
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
        w.beginObject()
        w.key("query")
        writeQuery(query, into: &w)
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
        w.endObject()
        return w
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
        w.beginArray(); w.number(coordinate.longitude); w.number(coordinate.latitude); w.endArray()
        w.endObject()
        w.key("properties")
        w.beginObject()
        properties(&w)
        w.endObject()
        w.endObject()
    }

    private static func writeProperties(_ result: PlaceResult, into w: inout JSONWriter, withCoordinates: Bool) {
        w.key("id"); w.string(result.place.idText)
        w.key("name"); w.string(result.place.name)
        w.key("displayName"); w.string(result.place.displayText)
        if withCoordinates {
            w.key("latitude"); w.number(result.place.coordinate.latitude)
            w.key("longitude"); w.number(result.place.coordinate.longitude)
        }
        w.field("countryCode", result.place.countryCode)
        w.field("admin1", result.place.admin1)
        w.key("population"); w.number(result.place.population)
        w.field("category", result.place.category)
        if let address = result.place.address, !address.isEmpty {
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
            // As the country writes it, lines separated by "\n" (`AddressFormatter`).
            w.key("formatted"); w.string(AddressFormatter.format(AddressParts(address, countryCode: result.place.countryCode)))
            w.endObject()
        }
        if let box = result.place.boundingBox {
            w.key("boundingBox")
            w.beginObject()
            w.field("south", box.south); w.field("west", box.west); w.field("north", box.north); w.field("east", box.east)
            w.endObject()
        }
        if let d = result.distanceMeters { w.key("distanceMeters"); w.number((d * 10).rounded() / 10) }
        w.field("matchedName", result.matchedName)
        w.field("source", result.place.source)
        if let explanation = result.explanation { writeExplanation(explanation, into: &w) }
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
