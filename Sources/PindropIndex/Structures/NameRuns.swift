import PindropCore

/// The name index in two runs, each sorted on its own: the GeoNames places' entries, in the GeoNames structures file
/// that imports of OpenStreetMap data and updates keep as it is, and the street level's, which each of them writes
/// anew. An entry is one number over both: the GeoNames run's entries, then the street level's from `streetStart`.
/// A range of entries lies in one run; a search returns a range in each.
struct NameRuns: Sendable {
    let geonames: NameIndex
    let street: NameIndex

    /// The first street-level entry.
    var streetStart: Int { geonames.count }
    var count: Int { geonames.count + street.count }

    /// The run's entries, as entries of both.
    private func inStreet(_ range: Range<Int>) -> Range<Int> { (range.lowerBound + streetStart)..<(range.upperBound + streetStart) }

    /// The row of the place entry e names.
    @inline(__always)
    func place(_ e: Int) -> Int32 { e < streetStart ? geonames.entryPlace[e] : street.entryPlace[e - streetStart] }

    /// Asks for entry e's place to be read into the cache.
    @inline(__always)
    func prefetchPlace(_ e: Int) {
        if e < streetStart { geonames.entryPlace.prefetch(e) } else { street.entryPlace.prefetch(e - streetStart) }
    }

    /// How entry e's name belongs to its place (`NameIndex.Kind`'s raw value).
    @inline(__always)
    func kind(_ e: Int) -> UInt8 { e < streetStart ? geonames.entryKind[e] : street.entryKind[e - streetStart] }

    /// Entry e's score (`NameIndex.entryScore`).
    @inline(__always)
    func score(_ e: Int) -> Float { e < streetStart ? geonames.entryScore[e] : street.entryScore[e - streetStart] }

    /// Entry e's score as a range ranks it (`NameIndex.score(_:ownNamesFirst:)`).
    @inline(__always)
    func score(_ e: Int, ownNamesFirst: Bool) -> Float {
        e < streetStart ? geonames.score(e, ownNamesFirst: ownNamesFirst) : street.score(e - streetStart, ownNamesFirst: ownNamesFirst)
    }

    /// Where entry e's alternate name lies in its place's alternate names (`NameIndex.alternateAt`).
    func alternateAt(_ e: Int) -> UInt16 { e < streetStart ? geonames.alternateAt[e] : street.alternateAt[e - streetStart] }

    /// Entry e's folded key.
    func key(_ e: Int) -> Slice<Column<UInt8>> { e < streetStart ? geonames.key(e) : street.key(e - streetStart) }

    /// The entries of each run whose key starts with `prefix`, and within them those equal to it (which sort first).
    func ranges(prefix: [UInt8]) -> (geonames: PrefixRanges, street: PrefixRanges) {
        let s = street.ranges(prefix: prefix)
        return (geonames.ranges(prefix: prefix), (inStreet(s.all), inStreet(s.exact)))
    }

    /// The entries of a run whose key starts with a prefix, and within them those equal to it.
    typealias PrefixRanges = (all: Range<Int>, exact: Range<Int>)

    /// Keys close to `query` in either run (`NameIndex.fuzzyRanges`).
    func fuzzyRanges(_ query: [UInt8], maxEdits: Int, asPrefix: Bool, exactFirstByte: Bool = false) -> [NameIndex.FuzzyRange] {
        geonames.fuzzyRanges(query, maxEdits: maxEdits, asPrefix: asPrefix, exactFirstByte: exactFirstByte)
            + street.fuzzyRanges(query, maxEdits: maxEdits, asPrefix: asPrefix, exactFirstByte: exactFirstByte).map {
                NameIndex.FuzzyRange(range: inStreet($0.range), edits: $0.edits, edit: $0.edit)
            }
    }

    /// The best entry of a non-empty range of one run (`NameIndex.best(in:ownNamesFirst:)`).
    @inline(__always)
    func best(in range: Range<Int>, ownNamesFirst: Bool) -> Int {
        guard range.lowerBound >= streetStart else { return geonames.best(in: range, ownNamesFirst: ownNamesFirst) }
        return street.best(in: (range.lowerBound - streetStart)..<(range.upperBound - streetStart), ownNamesFirst: ownNamesFirst) + streetStart
    }
}
