import PindropCore

/// `AddressContext.containingTown` without looking at every GeoNames place within 30 km, whose number grows with
/// the data's density (reverse's "near X, Town" at ×50 took 58× its ×1 time). The whole tree stores, for each
/// node, the largest population below it; the lookup walks it biggest places first and skips a subtree whose
/// largest place could not reach the point, or could not beat the town found so far. The answer is the same,
/// ties included: of equal populations the one `SpatialIndex.within` visits first, which is the lowest pre-order
/// position in the tree.
struct TownFinder: Sendable {
    /// Each place's slot in the whole tree.
    let slotOfPlace: Column<Int32>
    /// Each place's town: `containingTown` at the place's own point, which reverse names ("near Kamppi, Helsinki");
    /// -1 where no place's reach covers it (then the lookup's fallback, the nearest place, is asked at query time).
    /// Stored, so that reverse reads one value where it walked the tree (74 nodes at ×50's median). Empty in a
    /// finder made for an import, which writes them (`townsOfPlaces`) beside it.
    let townOfPlace: Column<Int32>
    /// The section of the structures file that holds `townOfPlace`.
    static let townsSection = "town.of_place"
    /// The squared-chord cap of a covering place: 30 km (`AddressContext.townNameReach`), as the scan took them.
    static let farthest = Geo.unitChord(forMeters: AddressContext.townNameReach) * (1 + 1e-9)

    /// From the stored columns; `verify` checks every value (as the import does).
    init(_ file: MappedStructures, spatial: SpatialIndex, verify: Bool) throws(PindropError) {
        slotOfPlace = try file.column("town.slot_of_place")
        townOfPlace = try file.column(Self.townsSection)
        guard slotOfPlace.count == spatial.count, townOfPlace.count == spatial.count,
              !verify || slotOfPlace.allSatisfy({ $0 >= 0 && Int($0) < spatial.count }) && townOfPlace.allSatisfy({ $0 >= -1 && Int($0) < spatial.count }) else {
            throw .indexUnavailable("the index is corrupt: its town lookup does not agree with its places; rebuild it")
        }
    }

    /// The town of the place at `slot` (a GeoNames row), `containingTown` at its point `c`: stored, or asked when
    /// none covers it (or none is stored).
    func town(ofPlace slot: Int, at c: Coordinate, spatial: SpatialIndex) -> Int? {
        let town = slot < townOfPlace.count ? townOfPlace[slot] : -1
        return town >= 0 ? Int(town) : containingTown(at: c, spatial: spatial)
    }

    /// The order in which `SpatialIndex.within` visits the whole tree's slot (node, then left, then right).
    func visitOrder(ofPlace place: Int, count: Int) -> Int { Self.visitOrder(ofSlot: Int(slotOfPlace[place]), count: count) }

    /// The pre-order rank of a tree slot.
    static func visitOrder(ofSlot slot: Int, count: Int) -> Int {
        var lo = 0, hi = count, rank = 0
        while true {
            let mid = (lo + hi) >> 1
            if slot == mid { return rank }
            rank += 1
            if slot < mid { hi = mid } else { rank += mid - lo; lo = mid + 1 }
        }
    }

    /// A place whose reach covers a point: its row, population, slot and pre-order rank in the tree (of equal
    /// populations the first in pre-order wins).
    struct Town {
        var place: Int32, population: Int32, slot: Int, order: Int
    }

    /// A subtree of the whole tree: slots [lo, hi), its node's pre-order rank `order`.
    struct Span {
        var lo, hi, order: Int
        var mid: Int { (lo + hi) >> 1 }
        var left: Span { Span(lo: lo, hi: mid, order: order + 1) }
        var right: Span { Span(lo: mid + 1, hi: hi, order: order + 1 + mid - lo) }
    }

    /// `d2 <= c * c` for `c = min(farthest, Geo.unitChord(forMeters: meters) * (1 + 1e-9))`, decided as that expression
    /// decides it, but with the sine computed only when `d2` lies within a hair of the bound: a chord is at most its
    /// arc `x` and at least `x - x³/24`, and the walk asks this of every subtree it weighs.
    @inline(__always)
    static func chord2(_ d2: Double, within meters: Double) -> Bool {
        let arc = meters / Geo.earthRadiusMeters
        let upper = min(farthest, arc * (1 + 1e-9) * (1 + 1e-12))
        if d2 > upper * upper { return false }
        let lower = min(farthest, (arc - arc * arc * arc / 24) * (1 + 1e-9) * (1 - 1e-12))
        if d2 <= lower * lower { return true }
        let chord = min(farthest, Geo.unitChord(forMeters: meters) * (1 + 1e-9))
        return d2 <= chord * chord
    }

    /// `Geo.meters(forUnitChord: chord) <= meters`, with the arcsine computed only near the bound: the arc of a chord c
    /// (at most 0.1 here) is at least c and at most c·(1 + c²/24 + c⁴/100).
    @inline(__always)
    static func chord(_ chord: Double, reaches meters: Double) -> Bool {
        let least = chord * Geo.earthRadiusMeters * (1 - 1e-12)
        if least > meters { return false }
        let c2 = chord * chord
        if least * (1 + c2 / 24 + c2 * c2 / 100) * (1 + 1e-12) * (1 + 1e-12) <= meters { return true }
        return Geo.meters(forUnitChord: chord) <= meters
    }

    /// As `AddressContext.containingTown`.
    func containingTown(at c: Coordinate, spatial: SpatialIndex) -> Int? {
        if let best = Self.biggestCovering(Geo.unitVector(latitude: c.latitude, longitude: c.longitude), spatial: spatial) {
            return Int(best.place)
        }
        // Else the nearest place within 30 km: every place at the nearest distance, the first visited.
        guard let nearest = spatial.nearest(latitude: c.latitude, longitude: c.longitude) else { return nil }
        var hits: [(place: Int32, chord2: Double)] = []
        spatial.within(latitude: c.latitude, longitude: c.longitude, chord: nearest.chord2.squareRoot() * (1 + 1e-9), into: &hits)
        var found: (slot: Int, chord2: Double, order: Int)?
        for hit in hits where hit.chord2 <= Self.farthest * Self.farthest {
            let order = visitOrder(ofPlace: Int(hit.place), count: spatial.count)
            if let f = found, hit.chord2 > f.chord2 || (hit.chord2 == f.chord2 && order >= f.order) { continue }
            found = (Int(hit.place), hit.chord2, order)
        }
        return found?.slot
    }

    /// Of the places whose reach covers the unit vector `q` (within 30 km), the most populous, of equals the first
    /// in pre-order.
    static func biggestCovering(_ q: (Double, Double, Double), spatial: SpatialIndex) -> Town? {
        var best: Town?
        walk(q, spatial: spatial, Span(lo: 0, hi: spatial.count, order: 0), best: &best)
        return best
    }

    /// `best` made the biggest of itself and the places of `span` whose reach covers `q`, walking the subtree
    /// biggest places first and skipping what could not reach `q` or could not beat `best`.
    static func walk(_ q: (Double, Double, Double), spatial: SpatialIndex, _ span: Span, best: inout Town?) {
        let (qx, qy, qz) = q
        // Pre-order: a node's rank is `order`, its left subtree's ranks follow, then its right subtree's.
        func visit(_ lo: Int, _ hi: Int, _ order: Int) {
            guard lo < hi else { return }
            let mid = (lo + hi) >> 1, node = spatial.nodes[mid], top = node.topWeight
            if let b = best, top < b.population || (top == b.population && order >= b.order) { return }
            guard top >= 0, Self.chord2(node.boxDistance2(qx, qy, qz), within: AddressContext.reach(population: top)) else { return }
            // The children are likely next, and theirs after them: their nodes asked for now arrive while this one
            // and the first child are weighed.
            spatial.prefetchBelow(lo, hi)
            let d2 = node.distance2(qx, qy, qz), population = node.weight
            if d2 <= farthest * farthest, Self.chord(d2.squareRoot(), reaches: AddressContext.reach(population: population)),
               population >= best?.population ?? 0, best.map({ population > $0.population || order < $0.order }) ?? true {
                best = Town(place: node.place, population: population, slot: mid, order: order)
            }
            // The subtree holding the bigger place first; of equals the left one, whose ranks are lower.
            let right = mid + 1 < hi ? spatial.nodes[(mid + 1 + hi) >> 1].topWeight : .min
            let left = lo < mid ? spatial.nodes[(lo + mid) >> 1].topWeight : .min
            if right > left {
                visit(mid + 1, hi, order + 1 + mid - lo)
                visit(lo, mid, order + 1)
            } else {
                visit(lo, mid, order + 1)
                visit(mid + 1, hi, order + 1 + mid - lo)
            }
        }
        visit(span.lo, span.hi, span.order)
    }
}
