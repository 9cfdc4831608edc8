extension WireEncoding {
    /// A response document for a provider chain's answer: as `document(query:results:format:)`, plus who
    /// answered, whether it was a fallback and why, whether it came from the cache, and the store's correction
    /// when it offers one:
    /// `{"query": {...}, "provider": "embedded", "fallback": true, "fromCache": false,
    ///   "failures": [{"provider": "photon", "code": "upstream_failed", "message": "Photon: ..."}],
    ///   "didYouMean": "Helsinki", "results": [...]}`.
    /// In GeoJSON these are foreign members of the FeatureCollection.
    public static func document(query: [(String, QueryValue)], answer: ProviderAnswer, format: ResultFormat) -> JSONWriter {
        var w = JSONWriter(capacity: 512 + answer.results.count * 320)
        w.beginObject()
        if format == .geojson { w.key("type"); w.string("FeatureCollection") }
        w.key("query")
        writeQuery(query, into: &w)
        w.key("provider"); w.string(answer.provider)
        w.key("fallback"); w.bool(answer.isFallback)
        w.key("fromCache"); w.bool(answer.fromCache)
        w.key("failures")
        w.beginArray()
        for failure in answer.failures {
            w.beginObject()
            w.key("provider"); w.string(failure.provider)
            writeErrorFields(failure.error, into: &w)
            w.endObject()
        }
        w.endArray()
        w.field("didYouMean", answer.didYouMean)
        writeResults(answer.results, format: format, into: &w)
        if let page = answer.page { writePage(page, into: &w) }
        w.endObject()
        return w
    }

    /// The provider list for `GET /v1/providers` and `pindrop providers --json`:
    /// `{"providers": [{"name", "displayName", "configured", "capabilities", "attribution", "unavailableReason"?}],
    ///   "chains": {"search": ["photon", "embedded"], "suggest": [...], "reverse": [...], "nearby": [...]}}`.
    public static func providersDocument(_ service: PlaceService) -> JSONWriter {
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        w.key("providers")
        w.beginArray()
        for d in service.descriptions {
            w.beginObject()
            w.key("name"); w.string(d.name)
            w.key("displayName"); w.string(d.displayName)
            w.key("configured"); w.bool(d.isConfigured)
            w.key("capabilities"); w.strings(d.capabilities.lazy.map(\.rawValue))
            w.key("attribution"); w.string(d.attribution)
            w.field("unavailableReason", d.unavailableReason)
            w.endObject()
        }
        w.endArray()
        w.key("chains")
        w.beginObject()
        for capability in ProviderCapability.allCases {
            w.key(named: capability.rawValue); w.strings(service.chains[capability] ?? [])
        }
        w.endObject()
        w.endObject()
        return w
    }
}
