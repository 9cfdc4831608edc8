import PindropCore

/// `AddressContext.containingTown` without looking at every GeoNames place within 30 km, whose number grows with
/// the data's density (reverse's "near X, Town" at ×50 took 58× its ×1 time). A place whose reach is at most
/// `smallReach` can only cover a point that near, so those come from a small search of the whole tree; the rest
/// (populations over 40,000, few) from a tree of their own. The answer is the same, ties included: of equal
/// populations the one `SpatialIndex.within` visits first, which is the lowest pre-order position in the tree.
struct TownFinder: Sendable {
    static let smallReach = 3_000.0
    /// Places whose reach may pass `smallReach`, in a tree of their own (its places are indices into `bigPlace`).
    let big: SpatialIndex
    let bigPlace: Column<Int32>
    /// Each place's slot in the whole tree.
    let slotOfPlace: Column<Int32>

    init(places: PlaceTable, spatial: SpatialIndex) {
        // reach(p) = 15 √p ≤ 3,000 m exactly when p ≤ 200² = 40,000.
        let limit = Int32((Self.smallReach / 15) * (Self.smallReach / 15))
        let n = spatial.count
        let bigPlace = (0..<n).filter { places.population[$0] > limit }.map(Int32.init)
        big = SpatialIndex(latitudes: bigPlace.map { places.latitude[Int($0)] }, longitudes: bigPlace.map { places.longitude[Int($0)] })
        self.bigPlace = Column(bigPlace)
        var slots = [Int32](repeating: 0, count: n)
        for (slot, place) in spatial.slotPlace.enumerated() { slots[Int(place)] = Int32(slot) }
        slotOfPlace = Column(slots)
    }

    /// Stored in the index: made at open or on the first reverse, it was a pass over every place.
    func blobs() -> [StoredArray] {
        [StoredArray("town.big.xyz", big.xyz), StoredArray("town.big.place", big.slotPlace), StoredArray("town.big.axis", big.axis),
         StoredArray("town.big.box", big.box), StoredArray("town.big_place", bigPlace), StoredArray("town.slot_of_place", slotOfPlace)]
    }

    /// From the stored columns; `verify` checks every value (as the import does).
    init(_ file: MappedStructures, spatial: SpatialIndex, verify: Bool) throws(PindropError) {
        big = SpatialIndex(xyz: try file.column("town.big.xyz"), slotPlace: try file.column("town.big.place"),
                           axis: try file.column("town.big.axis"), box: try file.column("town.big.box"))
        bigPlace = try file.column("town.big_place")
        slotOfPlace = try file.column("town.slot_of_place")
        guard big.xyz.count == 3 * big.count, big.box.count == 6 * big.count, big.axis.count == big.count, bigPlace.count == big.count,
              slotOfPlace.count == spatial.count,
              !verify || (big.slotPlace.allSatisfy { $0 >= 0 && Int($0) < big.count } && big.axis.allSatisfy { $0 < 3 }
                          && bigPlace.allSatisfy { $0 >= 0 && Int($0) < spatial.count }
                          && slotOfPlace.allSatisfy { $0 >= 0 && Int($0) < spatial.count }) else {
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

    /// As `AddressContext.containingTown`.
    func containingTown(at c: Coordinate, places: PlaceTable, spatial: SpatialIndex) -> Int? {
        var best: (slot: Int, population: Int32, order: Int)?
        func offer(_ i: Int, _ chord2: Double) {
            let population = places.population[i]
            guard Geo.meters(forUnitChord: chord2.squareRoot()) <= AddressContext.reach(population: population),
                  population >= best?.population ?? 0 else { return }
            let order = visitOrder(ofPlace: i, count: spatial.count)
            if let b = best, population == b.population, order >= b.order { return }
            best = (i, population, order)
        }
        var hits: [(place: Int32, chord2: Double)] = []
        spatial.within(c, meters: Self.smallReach, into: &hits)
        for hit in hits { offer(Int(hit.place), hit.chord2) }
        hits.removeAll(keepingCapacity: true)
        big.within(c, meters: AddressContext.townNameReach, into: &hits)
        for hit in hits { offer(Int(bigPlace[Int(hit.place)]), hit.chord2) }
        if let best { return best.slot }
        // Else the nearest place within 30 km: every place at the nearest distance, the first visited.
        guard let nearest = spatial.nearest(latitude: c.latitude, longitude: c.longitude) else { return nil }
        hits.removeAll(keepingCapacity: true)
        spatial.within(latitude: c.latitude, longitude: c.longitude, chord: nearest.chord2.squareRoot() * (1 + 1e-9), into: &hits)
        let reach = Geo.unitChord(forMeters: AddressContext.townNameReach) * (1 + 1e-9)
        var found: (slot: Int, chord2: Double, order: Int)?
        for hit in hits where hit.chord2 <= reach * reach {
            let order = visitOrder(ofPlace: Int(hit.place), count: spatial.count)
            if let f = found, hit.chord2 > f.chord2 || (hit.chord2 == f.chord2 && order >= f.order) { continue }
            found = (Int(hit.place), hit.chord2, order)
        }
        return found?.slot
    }
}
