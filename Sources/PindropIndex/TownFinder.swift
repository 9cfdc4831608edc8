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

    /// For `spatial` built weighed by population: each node then holds its place's population and the largest
    /// below it, beside its point and box, so the walk reads one cache line a node.
    init(spatial: SpatialIndex) {
        slotOfPlace = Column(spatial.slotOfPlace())
    }

    /// Stored in the index: made at open or on the first reverse, it was a pass over every place.
    func blobs() -> [StoredArray] {
        [StoredArray("town.slot_of_place", slotOfPlace)]
    }

    /// From the stored columns; `verify` checks every value (as the import does).
    init(_ file: MappedStructures, spatial: SpatialIndex, verify: Bool) throws(PindropError) {
        slotOfPlace = try file.column("town.slot_of_place")
        guard slotOfPlace.count == spatial.count, !verify || slotOfPlace.allSatisfy({ $0 >= 0 && Int($0) < spatial.count }) else {
            throw .indexUnavailable("the index is corrupt: its town lookup does not agree with its places; rebuild it")
        }
    }

    /// The order in which `SpatialIndex.within` visits the whole tree's slot (node, then left, then right).
    func visitOrder(ofPlace place: Int, count: Int) -> Int {
        let slot = Int(slotOfPlace[place])
        var lo = 0, hi = count, rank = 0
        while true {
            let mid = (lo + hi) >> 1
            if slot == mid { return rank }
            rank += 1
            if slot < mid { hi = mid } else { rank += mid - lo; lo = mid + 1 }
        }
    }

    /// `d2 <= c * c` for `c = min(farthest, Geo.unitChord(forMeters: meters) * (1 + 1e-9))`, decided as that expression
    /// decides it, but with the sine computed only when `d2` lies within a hair of the bound: a chord is at most its
    /// arc `x` and at least `x - x³/24`, and the walk asks this of every subtree it weighs.
    @inline(__always)
    static func chord2(_ d2: Double, within meters: Double, farthest: Double) -> Bool {
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
        // A covering place counts within 30 km, as the scan took them.
        let farthest = Geo.unitChord(forMeters: AddressContext.townNameReach) * (1 + 1e-9)
        let (qx, qy, qz) = Geo.unitVector(latitude: c.latitude, longitude: c.longitude)
        var best: (slot: Int, population: Int32, order: Int)?
        // Pre-order: a node's rank is `order`, its left subtree's ranks follow, then its right subtree's.
        func visit(_ lo: Int, _ hi: Int, _ order: Int) {
            guard lo < hi else { return }
            let mid = (lo + hi) >> 1, node = spatial.nodes[mid], top = node.topWeight
            if let b = best, top < b.population || (top == b.population && order >= b.order) { return }
            guard top >= 0, Self.chord2(node.boxDistance2(qx, qy, qz), within: AddressContext.reach(population: top), farthest: farthest) else { return }
            // The children are likely next, and theirs after them: their nodes asked for now arrive while this one
            // and the first child are weighed.
            spatial.prefetchBelow(lo, hi)
            let d2 = node.distance2(qx, qy, qz), population = node.weight
            if d2 <= farthest * farthest, Self.chord(d2.squareRoot(), reaches: AddressContext.reach(population: population)),
               population >= best?.population ?? 0, best.map({ population > $0.population || order < $0.order }) ?? true {
                best = (Int(node.place), population, order)
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
        visit(0, spatial.count, 0)
        if let best { return best.slot }
        // Else the nearest place within 30 km: every place at the nearest distance, the first visited.
        guard let nearest = spatial.nearest(latitude: c.latitude, longitude: c.longitude) else { return nil }
        var hits: [(place: Int32, chord2: Double)] = []
        spatial.within(latitude: c.latitude, longitude: c.longitude, chord: nearest.chord2.squareRoot() * (1 + 1e-9), into: &hits)
        var found: (slot: Int, chord2: Double, order: Int)?
        for hit in hits where hit.chord2 <= farthest * farthest {
            let order = visitOrder(ofPlace: Int(hit.place), count: spatial.count)
            if let f = found, hit.chord2 > f.chord2 || (hit.chord2 == f.chord2 && order >= f.order) { continue }
            found = (Int(hit.place), hit.chord2, order)
        }
        return found?.slot
    }
}
