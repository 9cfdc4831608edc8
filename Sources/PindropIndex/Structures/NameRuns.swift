import PindropCore

/// The name index in runs, each sorted on its own: the GeoNames places' entries, in the GeoNames structures file
/// that imports of OpenStreetMap data and updates keep as it is; the street level's, which each import writes anew;
/// and the entries of the rows an update laid over the street level (`StreetOverlay`). An entry is one number over
/// all: the GeoNames run's entries, then the street level's from `streetStart`, then the overlay's from
/// `overlayStart`. A range of entries lies in one run; a search returns a range in each.
struct NameRuns: Sendable {
    let geonames: NameIndex
    let street: NameIndex
    let overlay: NameIndex

    init(geonames: NameIndex, street: NameIndex, overlay: NameIndex = .empty) {
        self.geonames = geonames; self.street = street; self.overlay = overlay
    }

    /// The first street-level entry.
    var streetStart: Int { geonames.count }
    /// The first entry of the overlay's run.
    var overlayStart: Int { geonames.count + street.count }
    var count: Int { overlayStart + overlay.count }

    /// The run's entries, as entries of all.
    private func inStreet(_ range: Range<Int>) -> Range<Int> { (range.lowerBound + streetStart)..<(range.upperBound + streetStart) }
    private func inOverlay(_ range: Range<Int>) -> Range<Int> { (range.lowerBound + overlayStart)..<(range.upperBound + overlayStart) }

    /// The row of the place entry e names.
    @inline(__always)
    func place(_ e: Int) -> Int32 {
        e < streetStart ? geonames.entryPlace[e] : e < overlayStart ? street.entryPlace[e - streetStart] : overlay.entryPlace[e - overlayStart]
    }

    /// Asks for entry e's place to be read into the cache.
    @inline(__always)
    func prefetchPlace(_ e: Int) {
        if e < streetStart { geonames.entryPlace.prefetch(e) } else if e < overlayStart { street.entryPlace.prefetch(e - streetStart) }
    }

    /// How entry e's name belongs to its place (`NameIndex.Kind`'s raw value).
    @inline(__always)
    func kind(_ e: Int) -> UInt8 {
        e < streetStart ? geonames.entryKind[e] : e < overlayStart ? street.entryKind[e - streetStart] : overlay.entryKind[e - overlayStart]
    }

    /// Entry e's score (`NameIndex.entryScore`).
    @inline(__always)
    func score(_ e: Int) -> Float {
        e < streetStart ? geonames.entryScore[e] : e < overlayStart ? street.entryScore[e - streetStart] : overlay.entryScore[e - overlayStart]
    }

    /// Entry e's score as a range ranks it (`NameIndex.score(_:ownNamesFirst:)`).
    @inline(__always)
    func score(_ e: Int, ownNamesFirst: Bool) -> Float {
        e < streetStart ? geonames.score(e, ownNamesFirst: ownNamesFirst)
            : e < overlayStart ? street.score(e - streetStart, ownNamesFirst: ownNamesFirst) : overlay.score(e - overlayStart, ownNamesFirst: ownNamesFirst)
    }

    /// Where entry e's alternate name lies in its place's alternate names (`NameIndex.alternateAt`).
    func alternateAt(_ e: Int) -> UInt16 {
        e < streetStart ? geonames.alternateAt[e] : e < overlayStart ? street.alternateAt[e - streetStart] : overlay.alternateAt[e - overlayStart]
    }

    /// Entry e's folded key.
    func key(_ e: Int) -> Slice<Column<UInt8>> {
        e < streetStart ? geonames.key(e) : e < overlayStart ? street.key(e - streetStart) : overlay.key(e - overlayStart)
    }

    /// The entries of each run whose key starts with `prefix`, and within them those equal to it (which sort first).
    func ranges(prefix: [UInt8]) -> (geonames: PrefixRanges, street: PrefixRanges, overlay: PrefixRanges) {
        // An empty overlay's run is not searched: its buckets would be read, a cache miss, for nothing.
        let s = street.ranges(prefix: prefix), o = overlay.count == 0 ? (all: 0..<0, exact: 0..<0) : overlay.ranges(prefix: prefix)
        return (geonames.ranges(prefix: prefix), (inStreet(s.all), inStreet(s.exact)), (inOverlay(o.all), inOverlay(o.exact)))
    }

    /// The entries of a run whose key starts with a prefix, and within them those equal to it.
    typealias PrefixRanges = (all: Range<Int>, exact: Range<Int>)

    /// Keys close to `query` in any run (`NameIndex.fuzzyRanges`).
    func fuzzyRanges(_ query: [UInt8], maxEdits: Int, asPrefix: Bool, exactFirstByte: Bool = false) -> [NameIndex.FuzzyRange] {
        geonames.fuzzyRanges(query, maxEdits: maxEdits, asPrefix: asPrefix, exactFirstByte: exactFirstByte)
            + street.fuzzyRanges(query, maxEdits: maxEdits, asPrefix: asPrefix, exactFirstByte: exactFirstByte).map {
                NameIndex.FuzzyRange(range: inStreet($0.range), edits: $0.edits, edit: $0.edit)
            }
            + (overlay.count == 0 ? [] : overlay.fuzzyRanges(query, maxEdits: maxEdits, asPrefix: asPrefix, exactFirstByte: exactFirstByte).map {
                NameIndex.FuzzyRange(range: inOverlay($0.range), edits: $0.edits, edit: $0.edit)
            })
    }

    /// The best entry of a non-empty range of one run (`NameIndex.best(in:ownNamesFirst:)`).
    @inline(__always)
    func best(in range: Range<Int>, ownNamesFirst: Bool) -> Int {
        guard range.lowerBound >= streetStart else { return geonames.best(in: range, ownNamesFirst: ownNamesFirst) }
        if range.lowerBound >= overlayStart {
            return overlay.best(in: (range.lowerBound - overlayStart)..<(range.upperBound - overlayStart), ownNamesFirst: ownNamesFirst) + overlayStart
        }
        return street.best(in: (range.lowerBound - streetStart)..<(range.upperBound - streetStart), ownNamesFirst: ownNamesFirst) + streetStart
    }
}
