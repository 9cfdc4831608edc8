import PindropCore

/// `AddressContext.containingTown` without looking at every GeoNames place within 30 km, whose number grows with
/// the data's density (reverse's "near X, Town" at ×50 took 58× its ×1 time). The whole tree stores, for each
/// node, the largest population below it; the lookup walks it biggest places first and skips a subtree whose
/// largest place could not reach the point, or could not beat the town found so far. The answer is the same,
/// ties included: of equal populations the one `SpatialIndex.within` visits first, which is the lowest pre-order
/// position in the tree.
struct TownFinder: Sendable {
    /// Two values a slot of the whole tree: at 2·slot the largest population in the subtree whose node is there,
    /// at 2·slot + 1 the population of the node's own place. Side by side, one memory read gives the walk both;
    /// the place table's population, in place order, was a cache miss at most nodes of a large index.
    let populations: Column<Int32>
    /// Each place's slot in the whole tree.
    let slotOfPlace: Column<Int32>

    init(places: PlaceTable, spatial: SpatialIndex) {
        let n = spatial.count
        var values = [Int32](repeating: 0, count: 2 * n)
        func fill(_ lo: Int, _ hi: Int) -> Int32 {
            guard lo < hi else { return .min }
            let mid = (lo + hi) >> 1
            values[2 * mid + 1] = places.population[Int(spatial.slotPlace[mid])]
            values[2 * mid] = max(values[2 * mid + 1], fill(lo, mid), fill(mid + 1, hi))
            return values[2 * mid]
        }
        _ = fill(0, n)
        populations = Column(values)
        var slots = [Int32](repeating: 0, count: n)
        for (slot, place) in spatial.slotPlace.enumerated() { slots[Int(place)] = Int32(slot) }
        slotOfPlace = Column(slots)
    }

    /// Stored in the index: made at open or on the first reverse, it was a pass over every place.
    func blobs() -> [StoredArray] {
        [StoredArray("town.populations", populations), StoredArray("town.slot_of_place", slotOfPlace)]
    }

    /// From the stored columns; `verify` checks every value (as the import does).
    init(_ file: MappedStructures, spatial: SpatialIndex, verify: Bool) throws(PindropError) {
        populations = try file.column("town.populations")
        slotOfPlace = try file.column("town.slot_of_place")
        guard populations.count == 2 * spatial.count, slotOfPlace.count == spatial.count,
              !verify || slotOfPlace.allSatisfy({ $0 >= 0 && Int($0) < spatial.count }) else {
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

    /// Starts loading the populations of the children and grandchildren of the subtree [lo, hi), which the
    /// walk reads to order and prune them (as `SpatialIndex.prefetchBelow` their nodes).
    @inline(__always)
    func prefetchTops(_ lo: Int, _ hi: Int) {
        let mid = (lo + hi) >> 1, left = (lo + mid) >> 1, right = (mid + 1 + hi) >> 1
        if lo < mid { populations.prefetch(2 * left); populations.prefetch(2 * ((lo + left) >> 1)); populations.prefetch(2 * ((left + 1 + mid) >> 1)) }
        if mid + 1 < hi {
            populations.prefetch(2 * right); populations.prefetch(2 * ((mid + 1 + right) >> 1)); populations.prefetch(2 * ((right + 1 + hi) >> 1))
        }
    }

    /// As `AddressContext.containingTown`.
    func containingTown(at c: Coordinate, places: PlaceTable, spatial: SpatialIndex) -> Int? {
        // A covering place counts within 30 km, as the scan took them.
        let farthest = Geo.unitChord(forMeters: AddressContext.townNameReach) * (1 + 1e-9)
        let (qx, qy, qz) = Geo.unitVector(latitude: c.latitude, longitude: c.longitude)
        var best: (slot: Int, population: Int32, order: Int)?
        // Pre-order: a node's rank is `order`, its left subtree's ranks follow, then its right subtree's.
        func visit(_ lo: Int, _ hi: Int, _ order: Int) {
            guard lo < hi else { return }
            let mid = (lo + hi) >> 1, top = populations[2 * mid]
            if let b = best, top < b.population || (top == b.population && order >= b.order) { return }
            let chord = min(farthest, Geo.unitChord(forMeters: AddressContext.reach(population: top)) * (1 + 1e-9))
            guard top >= 0, spatial.boxDistance2(slot: mid, qx, qy, qz) <= chord * chord else { return }
            // The children are likely next, and theirs after them: their nodes asked for now arrive while this one
            // and the first child are weighed.
            spatial.prefetchBelow(lo, hi)
            prefetchTops(lo, hi)
            let dx = spatial.xyz[3 * mid] - qx, dy = spatial.xyz[3 * mid + 1] - qy, dz = spatial.xyz[3 * mid + 2] - qz
            let d2 = dx * dx + dy * dy + dz * dz, population = populations[2 * mid + 1]
            if d2 <= farthest * farthest, Geo.meters(forUnitChord: d2.squareRoot()) <= AddressContext.reach(population: population),
               population >= best?.population ?? 0, best.map({ population > $0.population || order < $0.order }) ?? true {
                best = (Int(spatial.slotPlace[mid]), population, order)
            }
            // The subtree holding the bigger place first; of equals the left one, whose ranks are lower.
            let right = mid + 1 < hi ? populations[2 * ((mid + 1 + hi) >> 1)] : .min
            let left = lo < mid ? populations[2 * ((lo + mid) >> 1)] : .min
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
