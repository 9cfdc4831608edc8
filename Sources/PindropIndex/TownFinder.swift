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

    /// For `spatial` built weighed by population: each node then holds its place's population and the largest
    /// below it, beside its point and box, so the walk reads one cache line a node.
    init(spatial: SpatialIndex) {
        slotOfPlace = Column(spatial.slotOfPlace())
        townOfPlace = Column([])
    }

    /// Stored in the index: made at open or on the first reverse, it was a pass over every place.
    func blobs() -> [StoredArray] {
        [StoredArray("town.slot_of_place", slotOfPlace)]
    }

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

    /// A squared chord at most the one `chord(_:reaches:)` accepts for `population`'s reach (capped at `farthest`): every
    /// point that near is covered (the arc of a chord this short exceeds it by less than the margin).
    static func surelyCovered2(population: Int32) -> Double {
        population < 0 ? -1 : min(farthest * farthest, Double(population) * (225 / (Geo.earthRadiusMeters * Geo.earthRadiusMeters))) * (1 - 1e-5)
    }

    /// A squared chord at least the one `chord2(_:within:)` accepts for `population`'s reach (-1 for none):
    /// a cheap test that keeps every place or subtree that may cover a point, and a few more.
    static func reachBound2(population: Int32) -> Double {
        // (15 m × √population / R)², without the root: the reach's arc squared, a hair larger.
        population < 0 ? -1 : min(farthest * farthest, Double(population) * (225 * (1 + 1e-7) / (Geo.earthRadiusMeters * Geo.earthRadiusMeters)))
    }

    /// Each place's town (`townOfPlace`), -1 where none covers it. One walk of the tree for all its places, not one
    /// from the root for each (`TownSweep`). The cores share the subtrees below the top three splits.
    static func townsOfPlaces(spatial: SpatialIndex) -> [Int32] {
        var towns = [Int32](repeating: -1, count: spatial.count)
        towns.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out
            var top = TownSweep(spatial: spatial, out: out)
            let whole = Span(lo: 0, hi: spatial.count, order: 0)
            top.spans = [whole]
            top.solve(whole, singlesFrom: 0, spansFrom: 0, handOutBelow: 3)
            _ = top.handedOut.concurrentMap { task in
                var sweep = TownSweep(spatial: spatial, out: out)
                (sweep.singles, sweep.spans) = (task.singles, task.spans)
                sweep.solve(task.span, singlesFrom: 0, spansFrom: 0, floor: task.floor, handOutBelow: nil)
            }
        }
        return towns
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

/// `TownFinder.townsOfPlaces`' walk: a subtree of points carries the places (`singles`) and the subtrees (`spans`)
/// whose reach may meet its box, opening those larger than itself as it narrows (all of them at a leaf) and dropping
/// every place smaller than one that surely covers the whole box (a city's reach decides every point inside it);
/// each point then weighs only that short list, biggest first. The lists of the subtrees being walked lie one after
/// another in two stacks, so no array is made per node.
struct TownSweep {
    typealias Town = TownFinder.Town
    typealias Span = TownFinder.Span
    /// A place that may cover a point, with its `TownFinder.reachBound2`.
    struct Single { var town: Town, bound2: Double }

    let spatial: SpatialIndex
    let out: UnsafeMutableBufferPointer<Int32>
    var singles: [Single] = [], spans: [Span] = [], pending: [Span] = []
    /// Subtrees left for other threads, with their lists.
    var handedOut: [(span: Span, singles: [Single], spans: [Span], floor: Int32)] = []

    /// The reach of a place, or of a subtree's largest, may meet a box: no point of the box is nearer than the gap.
    func reaches(_ t: Single, _ box: SpatialNode) -> Bool {
        let p = spatial.nodes[t.town.slot]
        return box.boxDistance2(p.x, p.y, p.z) <= t.bound2
    }

    func reaches(_ r: Span, _ box: SpatialNode) -> Bool {
        let a = spatial.nodes[r.mid]
        let dx = max(Double(a.minX) - Double(box.maxX), 0, Double(box.minX) - Double(a.maxX))
        let dy = max(Double(a.minY) - Double(box.maxY), 0, Double(box.minY) - Double(a.maxY))
        let dz = max(Double(a.minZ) - Double(box.maxZ), 0, Double(box.minZ) - Double(a.maxZ))
        return dx * dx + dy * dy + dz * dz <= TownFinder.reachBound2(population: a.topWeight)
    }

    /// Whether a place surely covers every point of a box.
    func surelyCovers(_ t: Single, _ box: SpatialNode) -> Bool {
        let p = spatial.nodes[t.town.slot]
        return box.farthestBoxDistance2(p.x, p.y, p.z) <= TownFinder.surelyCovered2(population: t.town.population)
    }

    /// The points of `s`, given its parent's lists: `singles[singlesFrom...]` (biggest first) and `spans[spansFrom...]`,
    /// and `floor`, the population of a place that surely covers all of them (no smaller place can be a point's town).
    /// At depth `handOutBelow` the subtree is handed out instead.
    mutating func solve(_ s: Span, singlesFrom: Int, spansFrom: Int, floor: Int32 = .min, handOutBelow: Int?, depth: Int = 0) {
        guard s.lo < s.hi else { return }
        if depth == handOutBelow {
            return handedOut.append((s, Array(singles[singlesFrom...]), Array(spans[spansFrom...]), floor))
        }
        let box = spatial.nodes[s.mid], leaf = s.hi - s.lo <= 64
        let mySingles = singles.count, mySpans = spans.count
        var floor = floor
        // At a leaf each point is a candidate for itself: nothing smaller than the smallest of them can win.
        if leaf {
            var least = Int32.max
            for slot in s.lo..<s.hi { least = min(least, spatial.nodes[slot].weight) }
            floor = max(floor, least)
        }
        for i in singlesFrom..<mySingles {
            let t = singles[i]
            if t.town.population < floor { break }
            guard reaches(t, box) else { continue }
            singles.append(t)
            if t.town.population > floor, surelyCovers(t, box) { floor = t.town.population }
        }
        let opened = singles.count
        pending.append(contentsOf: spans[spansFrom..<mySpans])
        while let r = pending.popLast() {
            guard r.lo < r.hi, spatial.nodes[r.mid].topWeight >= floor, reaches(r, box) else { continue }
            guard leaf || r.hi - r.lo > s.hi - s.lo else { spans.append(r); continue }
            let node = spatial.nodes[r.mid]
            let single = Single(town: Town(place: node.place, population: node.weight, slot: r.mid, order: r.order),
                                bound2: TownFinder.reachBound2(population: node.weight))
            if node.weight >= 0, node.weight >= floor, reaches(single, box) {
                singles.append(single)
                if node.weight > floor, surelyCovers(single, box) { floor = node.weight }
            }
            pending.append(r.left)
            pending.append(r.right)
        }
        // The biggest first (`answer` stops at the first smaller than its best), none smaller than the floor.
        if singles.count > opened {
            // In place: sorting the array's slice would copy the whole array (the slice shares its storage).
            singles.withUnsafeMutableBufferPointer { $0[mySingles...].sort { $0.town.population > $1.town.population } }
        }
        if let smaller = singles[mySingles...].firstIndex(where: { $0.town.population < floor }) { singles.removeSubrange(smaller...) }
        var kept = mySpans
        for i in mySpans..<spans.count where spatial.nodes[spans[i].mid].topWeight >= floor { spans[kept] = spans[i]; kept += 1 }
        spans.removeSubrange(kept...)
        if leaf {
            for slot in s.lo..<s.hi { answer(slot, singlesFrom: mySingles, spansFrom: mySpans) }
        } else {
            answer(s.mid, singlesFrom: mySingles, spansFrom: mySpans)
            solve(s.left, singlesFrom: mySingles, spansFrom: mySpans, floor: floor, handOutBelow: handOutBelow, depth: depth + 1)
            solve(s.right, singlesFrom: mySingles, spansFrom: mySpans, floor: floor, handOutBelow: handOutBelow, depth: depth + 1)
        }
        singles.removeSubrange(mySingles...)
        spans.removeSubrange(mySpans...)
    }

    /// The point at `slot`: the best of itself, `singles[singlesFrom...]` and the places of `spans[spansFrom...]`
    /// that cover it.
    func answer(_ slot: Int, singlesFrom: Int, spansFrom: Int) {
        let node = spatial.nodes[slot], q = (node.x, node.y, node.z)
        var best = node.weight >= 0
            ? Town(place: node.place, population: node.weight, slot: slot, order: TownFinder.visitOrder(ofSlot: slot, count: spatial.count)) : nil
        for t in singles[singlesFrom...] {
            if let b = best {
                // Biggest first: once smaller than the best, none after can beat it.
                if t.town.population < b.population { break }
                if t.town.population == b.population && t.town.order >= b.order { continue }
            }
            let d2 = spatial.nodes[t.town.slot].distance2(q.0, q.1, q.2)
            if d2 <= t.bound2, d2 <= TownFinder.farthest * TownFinder.farthest,
               TownFinder.chord(d2.squareRoot(), reaches: AddressContext.reach(population: t.town.population)) { best = t.town }
        }
        for r in spans[spansFrom...] { TownFinder.walk(q, spatial: spatial, r, best: &best) }
        out[Int(node.place)] = best?.place ?? -1
    }
}
