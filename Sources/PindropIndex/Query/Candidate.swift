/// A place found for a text, through name entry `entry` (the best of its names that matched). `score` orders a tier;
/// it is the sum of the terms beside it, each kept where it is computed so that `explain` can show them.
struct Candidate {
    var row: Int; var tier: Int; var score: Float; var entry: Int
    /// log2(population + 100) plus the row kind's bonus (`Ranking.importance`).
    var importance: Float
    /// What the kind of name takes off (`NameIndex.Kind.penalty`, and `Ranking.alternateDemotion` when own names come
    /// first), and for a typo an arbitrary edit's `Ranking.arbitraryTypoPenalty`.
    var nameTerm: Float
    /// What the distance from `near` adds or takes off (`Ranking.nearness`); 0 without it.
    var distanceTerm: Float = 0

    /// Which matches count: exact and prefix (search), prefix (suggest), exact only (a head before a qualifier).
    enum Mode { case search, suggest, exact }
}

/// The rows a query has met: a short list while it is short (most queries meet a few dozen), a set after.
struct RowSet {
    private var list: [Int32] = []
    private var set: Set<Int32>?

    /// Adds `row`; whether it was new.
    mutating func insert(_ row: Int32) -> Bool {
        if set != nil { return set!.insert(row).inserted }
        if list.contains(row) { return false }
        if list.count == 64 { set = Set(list + [row]); return true }
        if list.isEmpty { list.reserveCapacity(64) }
        list.append(row)
        return true
    }
}
