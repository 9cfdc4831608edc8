import PindropCore

/// Draws the candidates for a folded key from the name index: the ranges of entries a mode reads (exact, prefix, one
/// likely slip, typos), best first by tier and score through the segment trees, each place once, through its best
/// entry, as many as wanted; with `near`, the street-level rows of those ranges too, which a draw by importance
/// would leave out.
struct CandidateDraw {
    let contents: IndexContents

    /// Entries drawn at most at once by `collect`.
    static let batch = 16
    /// Entries a draw reads at most: a filter that rejects nearly everything must not scan a whole prefix range.
    static let entryLimit = 5_000
    /// Street-level entries read per query at most: a prefix's matches in a city's extract are far fewer.
    static let streetLevelScan = 5_000

    /// The best candidates for `key` in `mode`, `wanted` of them, that `accept` keeps. Search: exact (tier 3) > prefix
    /// (2), and text that only starts names also matches whole names one likely slip away, as prefixes (2); suggest:
    /// prefix (2). With `typos`, only typo-tolerant matches instead (`Ranking.typoTier`). With `sections`, a section of a
    /// city drawn after it is left out ("zur": Zürich, not also its twelve Kreise).
    func candidates(_ key: [UInt8], mode: Candidate.Mode, wanted: Int, near: Bool, typos: Bool, sections: Bool,
                    accept: (Int32) -> Bool) -> [Candidate] {
        let letters = QueryReadings.letterCount(key)
        if typos {
            var fuzzy = letters >= Ranking.typoLetters ? contents.names.fuzzyRanges(key, maxEdits: 1, asPrefix: mode == .suggest) : []
            // Two edits only when one finds nothing, and then keeping the first letter.
            if fuzzy.isEmpty, letters >= Ranking.twoTypoLetters {
                fuzzy = contents.names.fuzzyRanges(key, maxEdits: 2, asPrefix: mode == .suggest, exactFirstByte: true)
            }
            return collect(fuzzy.map { .init(range: $0.range, tier: Ranking.typoTier(edits: $0.edits), penalty: Ranking.typoPenalty($0.edit)) },
                           wanted: wanted, accept: accept, sections: sections)
        }
        let ranges = ranges(key, mode: mode, letters: letters)
        var found = collect(ranges, wanted: wanted, accept: accept, sections: sections)
        if near { found += streetLevelMatches(ranges, besides: found, accept: accept) }
        return found
    }

    /// The ranges of entries `mode` reads for `key`, as typed: of each run of the name index, the GeoNames run's first.
    private func ranges(_ key: [UInt8], mode: Candidate.Mode, letters: Int) -> [NameIndex.TieredRange] {
        let (g, s, o) = contents.names.ranges(prefix: key)
        let ownNamesFirst = letters <= Ranking.shortTextLetters
        func prefixes(_ r: NameRuns.PrefixRanges) -> NameIndex.TieredRange {
            .init(range: r.exact.upperBound..<r.all.upperBound, tier: Ranking.prefixTier, ownNamesFirst: ownNamesFirst)
        }
        // Each run's whole-name matches, then (but for `.exact`) each run's prefix matches; the overlay's run is
        // empty but after an update, and its ranges are left out of the walk until then.
        let overlaid = contents.names.overlay.count > 0, tier = mode == .suggest ? Ranking.prefixTier : Ranking.exactTier
        var ranges: [NameIndex.TieredRange] = []
        ranges.reserveCapacity(8)
        ranges.append(.init(range: g.exact, tier: tier))
        ranges.append(.init(range: s.exact, tier: tier))
        if overlaid { ranges.append(.init(range: o.exact, tier: tier)) }
        guard mode != .exact else { return ranges }
        ranges.append(prefixes(g))
        ranges.append(prefixes(s))
        if overlaid { ranges.append(prefixes(o)) }
        // Text that only starts names ("Wawr", "Histo"): a whole name one likely slip away (Wawer, Histon) is as
        // good a reading, so it competes with the prefix matches by importance.
        if mode == .search, g.exact.isEmpty && s.exact.isEmpty && o.exact.isEmpty, !(g.all.isEmpty && s.all.isEmpty && o.all.isEmpty),
           letters >= Ranking.typoLetters {
            for slip in contents.names.fuzzyRanges(key, maxEdits: 1, asPrefix: false) where slip.edit?.isLikelySlip == true {
                ranges.append(.init(range: slip.range, tier: Ranking.prefixTier, ownNamesFirst: ownNamesFirst))
            }
        }
        return ranges
    }

    /// The best places of the ranges, best first. With `sections`, a section of a city already found is left out.
    func collect(_ ranges: [NameIndex.TieredRange], wanted: Int, accept: (Int32) -> Bool, sections: Bool) -> [Candidate] {
        var found: [Candidate] = []
        found.reserveCapacity(min(wanted, 256))
        var seen = RowSet()
        var visited = 0
        var walk = contents.names.bestFirst(ranges)
        // Entries are drawn a few at a time, and what ranking reads of their places is asked for before any is read:
        // the rows lie far apart, so nearly every read misses the cache, and misses asked for together are waited
        // for together. The order they are looked at in is the walk's, batch or not.
        var batch: [(entry: Int, tier: Int, score: Float)] = []
        batch.reserveCapacity(Self.batch)
        while found.count < wanted, visited < Self.entryLimit {
            batch.removeAll(keepingCapacity: true)
            while batch.count < min(Self.batch, wanted - found.count), let next = contents.names.nextBest(&walk) { batch.append(next) }
            guard !batch.isEmpty else { break }
            for drawn in batch { contents.names.prefetchPlace(drawn.entry) }
            contents.places.prefetchRanking(batch.lazy.map { Int(contents.names.place($0.entry)) })
            for (entry, tier, score) in batch {
                visited += 1
                let row = contents.names.place(entry)
                if seen.insert(row), accept(row),
                   !sections || !contents.places.couldBeSection(Int(row)) || !found.contains(where: { contents.places.isSection(Int(row), of: $0.row) }) {
                    // What the range took off: the demotion of an alternate name, a typo's penalty.
                    let lowered = contents.names.score(entry) - score
                    let importance = contents.places.importance(Int(row))
                    let nameTerm = -(NameIndex.Kind(rawValue: contents.names.kind(entry))?.penalty ?? 0) - lowered
                    found.append(Candidate(row: Int(row), tier: tier, score: importance + nameTerm, entry: entry,
                                           importance: importance, nameTerm: nameTerm))
                }
                if found.count >= wanted || visited >= Self.entryLimit { break }
            }
        }
        return found
    }

    /// The street-level rows matching in `ranges` that `found` lacks, each through its best entry (bounded by
    /// `streetLevelScan`); `Ranking.nearness` then ranks them against the GeoNames contents.places. They never make the
    /// draw by importance when many GeoNames places share a prefix, so they are read from the street level's run.
    private func streetLevelMatches(_ ranges: [NameIndex.TieredRange], besides found: [Candidate], accept: (Int32) -> Bool) -> [Candidate] {
        var position = Dictionary(uniqueKeysWithValues: found.map { ($0.row, -1) })
        var matches: [Candidate] = []
        var scanned = 0
        for r in ranges where r.range.lowerBound >= contents.names.streetStart {
            for e in r.range {
                guard scanned < Self.streetLevelScan else { break }
                let row = Int(contents.names.place(e))
                scanned += 1
                guard position[row] != -1, accept(Int32(row)) else { continue }
                let lowered = r.ownNamesFirst && contents.names.kind(e) == NameIndex.Kind.alternate.rawValue ? Ranking.alternateDemotion : 0
                let importance = contents.places.importance(row)
                let nameTerm = -(NameIndex.Kind(rawValue: contents.names.kind(e))?.penalty ?? 0) - lowered
                let c = Candidate(row: row, tier: r.tier, score: importance + nameTerm, entry: e, importance: importance, nameTerm: nameTerm)
                if let i = position[row] {
                    // The best entry as the draw by importance would pick it: by its score, its kind's penalty in.
                    if (c.tier, c.score) > (matches[i].tier, matches[i].score) { matches[i] = c }
                } else {
                    position[row] = matches.count
                    matches.append(c)
                }
            }
        }
        return matches
    }
}
