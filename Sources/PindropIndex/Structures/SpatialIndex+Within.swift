import PindropCore

extension SpatialIndex {
    /// Walks the places within `chord` of the point (as `within` takes them), nearer subtrees first, handing each
    /// to `visit` with its squared chord; returns how many `visit` accepted. A subtree wholly within `sure` whose
    /// nearest possible place is farther than `needed()` (a squared chord: the caller needs nothing past it) is
    /// counted whole, unopened: the caller vouches that `visit` accepts every place within `sure` (nil: none
    /// counted unopened). So the walk opens the subtrees near the point and those across the circle's edge, and
    /// its cost grows with the edge, not with the places inside.
    /// `slots` is the tree to walk when the columns hold several (`init(concatenating:)`); nil: the whole.
    func count(latitude: Double, longitude: Double, chord: Double, sure: Double?, slots: Range<Int>? = nil, needed: () -> Double,
               visit: (Int32, Double) -> Bool) -> Int {
        let slots = slots ?? 0..<count
        guard !slots.isEmpty else { return 0 }
        let (qx, qy, qz) = Geo.unitVector(latitude: latitude, longitude: longitude)
        let r2 = chord * chord, sure2 = sure.map { $0 * $0 } ?? -1
        // Each step returns what it counted: a count the nested walk added to would be a captured variable, and
        // every access to it checked at run time for exclusivity.
        let p = nodes.buffer
        /// The least squared chord to the box of the subtree [lo, hi) (0 inside it).
        @inline(__always) func least(_ lo: Int, _ hi: Int) -> Double {
            lo < hi ? p[(lo + hi) >> 1].boxDistance2(qx, qy, qz) : .infinity
        }
        /// A place within `sure` and past `needed` counts without a visit.
        @inline(__always) func take(_ s: Int) -> Int {
            let d2 = p[s].distance2(qx, qy, qz)
            return d2 <= r2 && (d2 <= sure2 && d2 > needed() || visit(p[s].place, d2)) ? 1 : 0
        }
        func walk(_ lo: Int, _ hi: Int, _ near2: Double) -> Int {
            guard near2 <= r2 else { return 0 }
            let mid = (lo + hi) >> 1
            if near2 > needed(), p[mid].farthestBoxDistance2(qx, qy, qz) <= sure2 { return hi - lo }
            // A small subtree's places lie side by side: reading them in a row is cheaper than its boxes.
            if hi - lo <= 16 {
                var taken = 0
                for s in lo..<hi { taken += take(s) }
                return taken
            }
            prefetchBelow(lo, hi)
            let own = take(mid)
            let left = least(lo, mid), right = least(mid + 1, hi)
            // The nearer subtree first.
            if left <= right { return own + walk(lo, mid, left) + walk(mid + 1, hi, right) }
            return own + walk(mid + 1, hi, right) + walk(lo, mid, left)
        }
        return walk(slots.lowerBound, slots.upperBound, least(slots.lowerBound, slots.upperBound))
    }

    /// Every place within `chord` (unit-sphere straight-line distance), with its squared chord, unordered; or,
    /// once more than `limit` are found, some `limit + 1` of them (for a caller that has no use for more).
    func within(latitude: Double, longitude: Double, chord: Double, into found: inout [(place: Int32, chord2: Double)],
                limit: Int = .max) {
        guard count > 0 else { return }
        let (qx, qy, qz) = Geo.unitVector(latitude: latitude, longitude: longitude)
        let r2 = chord * chord
        let p = nodes.buffer
        func visit(_ lo: Int, _ hi: Int) {
            guard lo < hi, found.count <= limit else { return }
            let mid = (lo + hi) >> 1
            // A subtree's box prunes what its split planes cannot: a wide circle with few places in it
            // (an ocean cell's candidates, a town search far from any) otherwise opens every subtree
            // its planes cross. Small subtrees are cheaper to open than to test.
            if hi - lo > 8, p[mid].boxDistance2(qx, qy, qz) > r2 { return }
            prefetchNode(lo, mid); prefetchNode(mid + 1, hi)
            let d2 = p[mid].distance2(qx, qy, qz)
            if d2 <= r2 { found.append((p[mid].place, d2)) }
            let a = Int(p[mid].axis)
            let diff = (a == 0 ? qx : a == 1 ? qy : qz) - p[mid].coordinate(a)
            if diff <= chord { visit(lo, mid) }
            if diff >= -chord { visit(mid + 1, hi) }
        }
        visit(0, count)
    }

    /// Every place within `meters` of `c` by great-circle distance, and possibly a hair beyond (callers
    /// filter by exact distance): the chord gets a little slack so rounding never drops a place on the edge.
    func within(_ c: Coordinate, meters: Double, into found: inout [(place: Int32, chord2: Double)]) {
        within(latitude: c.latitude, longitude: c.longitude, chord: Geo.unitChord(forMeters: meters) * (1 + 1e-9), into: &found)
    }

    /// The `k` nearest places, nearest first, with squared chords; of places at the same distance, the one first in
    /// the tree's pre-order (a node, then its left subtree, then its right) first. The walk opens the nearer subtree
    /// first, keeps the k best so far, and skips a subtree whose box lies past the k-th: its cost grows with k and the
    /// tree's depth. (Widening a circle until it held k places read every place inside it: far from every place, as
    /// in Antarctica, the whole Earth's, 1.6 s a question at ×50.)
    func nearest(latitude: Double, longitude: Double, k: Int) -> [(place: Int32, chord2: Double)] {
        guard count > 0, k > 0 else { return [] }
        if k == 1 { return nearest(latitude: latitude, longitude: longitude).map { [$0] } ?? [] }
        let (qx, qy, qz) = Geo.unitVector(latitude: latitude, longitude: longitude)
        // The best so far, nearest first: squared chord, then pre-order rank.
        var best: [(chord2: Double, order: Int, place: Int32)] = []
        best.reserveCapacity(k + 1)
        let p = nodes.buffer
        /// The subtree [lo, hi), whose node is `order`-th in pre-order and whose box is `near2` away.
        func walk(_ lo: Int, _ hi: Int, _ order: Int, _ near2: Double) {
            // A place as far as the k-th could still come before it by its rank: only a box farther is skipped.
            guard lo < hi, best.count < k || near2 <= best[best.count - 1].chord2 else { return }
            let mid = (lo + hi) >> 1
            prefetchBelow(lo, hi)
            let d2 = p[mid].distance2(qx, qy, qz)
            if best.count < k || (d2, order) < (best[best.count - 1].chord2, best[best.count - 1].order) {
                var at = best.count
                while at > 0, (d2, order) < (best[at - 1].chord2, best[at - 1].order) { at -= 1 }
                best.insert((d2, order, p[mid].place), at: at)
                if best.count > k { best.removeLast() }
            }
            let left = lo < mid ? p[(lo + mid) >> 1].boxDistance2(qx, qy, qz) : .infinity
            let right = mid + 1 < hi ? p[(mid + 1 + hi) >> 1].boxDistance2(qx, qy, qz) : .infinity
            if left <= right {
                walk(lo, mid, order + 1, left)
                walk(mid + 1, hi, order + 1 + mid - lo, right)
            } else {
                walk(mid + 1, hi, order + 1 + mid - lo, right)
                walk(lo, mid, order + 1, left)
            }
        }
        walk(0, count, 0, p[count >> 1].boxDistance2(qx, qy, qz))
        return best.map { ($0.place, $0.chord2) }
    }

    /// The `k` nearest places `keeping` keeps, nearest first (ordered as `nearest(latitude:longitude:k:)` orders them):
    /// the nearest `asking`, then four times as many each time until `k` of them are kept, the tree has no more, or
    /// the farthest asked is `beyond` the caller's reach (by its squared chord). For a mask that holds few places.
    func nearest(latitude: Double, longitude: Double, k: Int, asking: Int, beyond: (Double) -> Bool = { _ in false },
                 keeping: (Int32) -> Bool) -> [(place: Int32, chord2: Double)] {
        var asked = max(asking, k)
        while true {
            let hits = nearest(latitude: latitude, longitude: longitude, k: asked)
            let kept = hits.filter { keeping($0.place) }
            if kept.count >= k || hits.count < asked || beyond(hits.last?.chord2 ?? 0) { return kept.count > k ? Array(kept.prefix(k)) : kept }
            asked *= 4
        }
    }
}
