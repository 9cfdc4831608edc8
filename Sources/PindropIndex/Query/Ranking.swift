import Foundation
import PindropCore

/// How search and suggest order what they find: every weight of the ranking, each with why it is what it is, and
/// the re-ranking of drawn candidates by distance with `near`. Scores are in log2 units of population ("importance"):
/// one unit weighs as a place twice the size. Candidates are ordered by tier (an exact match above a prefix above a
/// typo), then by score, the sum of the terms a `Candidate` keeps (importance, name term, distance term), which
/// `--explain` shows.
struct Ranking {
    let contents: IndexContents

    // MARK: Importance

    /// A row's importance: log2 of its population plus 100 (people expect the biggest place of a name first; the 100
    /// keeps a place of unknown population above nothing), a capital's population at least `capitalPopulation`, plus
    /// its kind's bonus, plus `landmarkBonus` for a landmark.
    static func importance(population: Int32, kind: PlaceTable.RowKind, landmark: Bool = false, capital: Bool = false) -> Float {
        let people = capital ? max(Double(population), capitalPopulation) : Double(population)
        return Float(log2(people + 100)) + kindBonus(kind) + (landmark ? landmarkBonus : 0)
    }

    /// What a landmark adds to a venue's importance (`PlaceTable.landmark`): a peak, a lake or a hamlet ranks as a
    /// village of ~1,500 people would, above the shops and cafés of the same name.
    static let landmarkBonus: Float = 3

    /// A country's capital counts as a city of at least 100,000 people: a capital is what people mean before the
    /// villages of its name ("Vadu": Vaduz, 5,197 people, before Romanian villages of 13,000), while a bigger city
    /// still comes first ("Val": Valencia before Valletta; "mana": Manaus before Managua).
    static let capitalPopulation: Double = 100_000

    /// What a row's kind adds to its importance: with no population to go by, a street outranks one of its addresses,
    /// a venue its address, an area (a district, a county) ranks as a village of ~800 people would, and a postcode as
    /// one of ~1,500.
    static func kindBonus(_ kind: PlaceTable.RowKind) -> Float {
        switch kind { case .geonames, .address: 0; case .venue: 1; case .street: 1.5; case .area: 3; case .postcode: 4 }
    }

    // MARK: Names

    /// An alternate name counts as 1/8 of the population: a place's own name is what most people type.
    static let alternateNamePenalty: Float = 3
    /// A match on a later word ("york" in "new york") counts as 1/256: it ranks below names that start so.
    static let innerWordPenalty: Float = 8
    /// Subtracted from an alternate name's score when own names come first: more than the widest gap in importance
    /// between two places, so every own-name entry ranks above every alternate-name entry.
    static let alternateDemotion: Float = 32
    /// Typed text of at most this many letters starts many names by chance: a prefix match through an alternate name
    /// ("hel" → Heleb, an old name of Aleppo) then ranks below every match of a place's own name; the whole alternate
    /// name ("Wien") does not.
    static let shortTextLetters = 5

    // MARK: Tiers

    /// The whole name typed: always above a name the text only starts.
    static let exactTier = 3
    /// The text starts the name (and, in search, a whole name one likely slip away).
    static let prefixTier = 2

    /// The tier of a match `edits` typos away: below every match as typed, one edit above two.
    static func typoTier(edits: Int) -> Int { 1 - edits }

    // MARK: Typos

    /// Typo tolerance starts at this many letters: below, one edit reaches too many names to mean anything.
    static let typoLetters = 4
    /// Two typos are tried, keeping the first letter, from this many letters and only when one finds nothing: the
    /// two-edit neighbourhood of a shorter word is most of the dictionary.
    static let twoTypoLetters = 9
    /// How much less likely an arbitrary one-letter change is than a likely slip (a swap, a doubled or dropped letter,
    /// a neighbouring key): a likely slip of a town ranks above an arbitrary change of a place up to 2^4 = 16 times bigger.
    static let arbitraryTypoPenalty: Float = 4

    /// What a one-edit typo match costs; nothing for a likely slip.
    static func typoPenalty(_ edit: TypoEdit?) -> Float {
        edit.map { $0.isLikelySlip ? 0 : arbitraryTypoPenalty } ?? 0
    }

    // MARK: Did you mean

    /// The best as-typed match is weak below the score of a place of 1,000 people (name term included): a hamlet, a
    /// place of unknown population, a street-level row...
    static let weakMatchScore = Float(log2(1000.0 + 100))
    /// ...when a one-edit spelling's best match scores at least this much more: 256 times the people ("Warsow", a
    /// German village of 718 → Warsaw). Bigger places matched as typed are answers, not slips.
    static let weakMatchGap: Float = 8
    /// Places of at least this many people are what a weak match may be corrected to: 256 times a place of unknown
    /// population (counted as 100), so `weakMatchGap` over any own-name match.
    static let correctionMinimumScore = Float(log2(25_000.0 + 100))

    // MARK: Nearness

    /// Candidates drawn with `near`, at least: enough that a nearby small place is among them to be re-ranked.
    static let nearDraw = 200
    /// A GeoNames place loses this much per doubling of the distance past `placeNearnessMeters`: 1.5 doublings of
    /// population, so a nearby town beats a distant city of the same name.
    static let placeNearnessWeight: Float = 1.5
    static let placeNearnessMeters = 10_000.0
    /// A street-level row has no population to weigh: at the user's door it counts as a town of 70,000–200,000 people
    /// (this plus its importance)...
    static let streetLevelNearby: Float = 9.5
    /// ...losing this much per doubling of the distance past `streetLevelNearnessMeters`, so across a city the nearer
    /// answer wins and a big city far away still beats a venue a few kilometres off ("Par" in Tampere: Paris, not a
    /// barber's in Helsinki).
    static let streetLevelNearnessWeight: Float = 3
    static let streetLevelNearnessMeters = 200.0

    /// Location bias, added to a candidate's score with `near`.
    func nearness(_ row: Int, _ near: Coordinate) -> Float {
        guard row >= contents.firstStreetLevelRow else {
            return -Self.placeNearnessWeight * Float(log2(1 + contents.distance(row, near) / Self.placeNearnessMeters))
        }
        return Self.streetLevelNearby - Self.streetLevelNearnessWeight * Float(log2(1 + streetLevelDistance(row, near) / Self.streetLevelNearnessMeters))
    }

    /// Metres from `c` to a street-level row: a street's nearest point along it, another row's own point.
    func streetLevelDistance(_ row: Int, _ c: Coordinate) -> Double {
        contents.street.withLevel(ofRow: row) { level, r in
            let start = level.lookups.pointStart, slots = level.lookups.pointSlots
            let points = Int(start[r])..<Int(start[r + 1])
            guard !points.isEmpty else { return contents.distance(row, c) }
            let (qx, qy, qz) = Geo.unitVector(latitude: c.latitude, longitude: c.longitude)
            var best = Double.infinity
            for i in points { best = min(best, level.streetPoints.nodes[Int(slots[i])].distance2(qx, qy, qz)) }
            return Geo.meters(forUnitChord: best.squareRoot())
        }
    }

    // MARK: Order

    /// Puts the candidates in order and keeps `limit` of them: re-ranked by distance with `near` (each keeps its
    /// distance term), and with `sections` a section folded under its city, an address under its street while the
    /// typed `key` has not reached its number ("manne": Mannerheimintie, not also its 200 doors). In place: a copy of
    /// the list would cost an array each answer.
    func order(_ found: inout [Candidate], near: Coordinate?, limit: Int, sections: Bool, key: [UInt8]) {
        guard let near else {
            if found.count > limit { found.removeSubrange(limit...) }
            return
        }
        for i in found.indices {
            found[i].distanceTerm = nearness(found[i].row, near)
            found[i].score += found[i].distanceTerm
        }
        found.sort { $0.tier != $1.tier ? $0.tier > $1.tier : $0.score > $1.score }
        found = sections ? folded(found, limit: limit, key: key) : Array(found.prefix(limit))
    }

    /// `found` without the sections of a city it holds, and without the addresses of a street it holds whose number
    /// the typed `key` has not reached.
    private func folded(_ found: [Candidate], limit: Int, key: [UInt8]) -> [Candidate] {
        let towns = found.filter { $0.row < contents.firstStreetLevelRow }
        let streets = found.filter { contents.places.rowKind($0.row) == .street }.map { Array(TextFolding.fold(contents.places.name($0.row)).utf8) + [0x20] }
        var kept: [Candidate] = []
        for c in found where kept.count < limit {
            if c.row < contents.firstStreetLevelRow {
                if contents.places.couldBeSection(c.row), towns.contains(where: { contents.places.isSection(c.row, of: $0.row) }) { continue }
            } else if contents.places.rowKind(c.row) == .address, contents.names.kind(c.entry) == NameIndex.Kind.primary.rawValue {
                let name = contents.names.key(c.entry)
                if streets.contains(where: { key.count < $0.count && name.starts(with: $0) }) { continue }
            }
            kept.append(c)
        }
        return kept
    }
}
