/// Why the embedded index ranked a result where it did (`explain=1`, `--explain`): how the text met which of the
/// place's names, and the terms its score adds up from. Results rank by `tier` first (a higher tier always comes
/// first), then by `score` = `importance` + `nameTerm` + `distanceTerm`, all in log2 population units.
public struct MatchExplanation: Sendable, Hashable, Codable {
    /// How the text met the name.
    public enum Match: String, Sendable, Hashable, Codable {
        /// The whole name, as typed.
        case exact
        /// The name starts with the text.
        case prefix
        /// Within one or two edits of the name (of its start, for a suggestion).
        case typo
    }

    /// Which of the place's names the text met.
    public enum NameKind: String, Sendable, Hashable, Codable {
        /// The place's own name.
        case name
        /// Another of its names ("Helsingfors" for Helsinki).
        case alternate
        /// A later word of its own name ("York" of "New York").
        case innerWord
    }

    /// What kind of row the place is: a GeoNames place, or an OpenStreetMap venue, address, street or area.
    public typealias RowKind = PlaceKind

    public var match: Match
    public var nameKind: NameKind
    /// The text as the index compared it (folded: "helsinky").
    public var text: String
    /// The name that matched, as written: "Helsinki", "Helsingfors", "York" (of "New York").
    public var matchedName: String
    /// A typo's edits as a person reads them ("'y' for 'i'", "missing 'l'", "swapped 'ki'"); nil unless `match` is
    /// `.typo`.
    public var edit: String?
    public var rowKind: RowKind
    /// Inhabitants, 0 when unknown.
    public var population: Int
    /// log2(population + 100) + `kindBonus`: where the score starts.
    public var importance: Double
    /// What the row kind adds to the importance (a venue 1, a street 1.5): with no population to go by.
    public var kindBonus: Double
    /// What the kind of name takes off (0 or less): 3 for an alternate name, 8 for an inner word, and 32 more for an
    /// alternate name that only starts with text of five letters or fewer (own names first).
    public var nameTerm: Double
    /// Great-circle metres from the request's location, and what that distance took off the score (0 or less);
    /// nil without a location.
    public var distanceMeters: Double?
    public var distanceTerm: Double?
    /// 3 exact, 2 prefix (every as-typed match of a suggestion), 1 one typo, 0 two typos.
    public var tier: Int
    /// The order within a tier.
    public var score: Double

    /// Makes an explanation from its parts.
    public init(match: Match, nameKind: NameKind, text: String, matchedName: String, edit: String?, rowKind: RowKind,
                population: Int, importance: Double, kindBonus: Double, nameTerm: Double, distanceMeters: Double?,
                distanceTerm: Double?, tier: Int, score: Double) {
        self.match = match; self.nameKind = nameKind; self.text = text; self.matchedName = matchedName; self.edit = edit
        self.rowKind = rowKind; self.population = population; self.importance = importance; self.kindBonus = kindBonus
        self.nameTerm = nameTerm; self.distanceMeters = distanceMeters; self.distanceTerm = distanceTerm
        self.tier = tier; self.score = score
    }
}
