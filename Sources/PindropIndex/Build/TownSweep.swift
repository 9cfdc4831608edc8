import PindropCore

/// Making the town lookup, and each place's town, at import.
extension TownFinder {
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
