import Dispatch
import PindropCore

/// One slot of a `SpatialIndex`: what a walk reads of a node, in one 64-byte cache line (the tree's slots
/// used to lie in four columns, so a node deep in a large tree cost a cache miss for each).
struct SpatialNode: BitwiseCopyable, Sendable {
    /// The node's point: a unit vector.
    var x, y, z: Double
    /// The bounding box of the subtree whose node this is, in `Float` rounded outward (half the memory of
    /// `Double`, at most ~0.4 m looser, and a box only prunes). Pruning by box instead of by split plane alone
    /// keeps far-from-everything queries (mid-ocean) cheap.
    var minX, minY, minZ, maxX, maxY, maxZ: Float
    /// The node's place.
    var place: Int32
    /// The place's weight, and the largest weight in the subtree (the place tree's populations, for the town
    /// lookup); 0 in trees built without weights.
    var weight: Int32, topWeight: Int32
    /// The split axis (0, 1, 2 for x, y, z).
    var axis: UInt8
    /// The record's last three bytes, named so they are zero: implicit padding is whatever memory held, and the
    /// file would differ from one import of the same data to the next.
    var padding: (UInt8, UInt8, UInt8) = (0, 0, 0)

    /// Squared chord from a unit vector to the node's point.
    @inline(__always)
    func distance2(_ qx: Double, _ qy: Double, _ qz: Double) -> Double {
        let dx = x - qx, dy = y - qy, dz = z - qz
        return dx * dx + dy * dy + dz * dz
    }

    /// Squared chord from a unit vector to the subtree's box (0 inside it): no place of the subtree is nearer.
    @inline(__always)
    func boxDistance2(_ qx: Double, _ qy: Double, _ qz: Double) -> Double {
        let dx = max(Double(minX) - qx, 0, qx - Double(maxX))
        let dy = max(Double(minY) - qy, 0, qy - Double(maxY))
        let dz = max(Double(minZ) - qz, 0, qz - Double(maxZ))
        return dx * dx + dy * dy + dz * dz
    }

    /// Squared chord from a unit vector to the farthest corner of the subtree's box: every place of it is nearer.
    @inline(__always)
    func farthestBoxDistance2(_ qx: Double, _ qy: Double, _ qz: Double) -> Double {
        let fx = max(qx - Double(minX), Double(maxX) - qx), fy = max(qy - Double(minY), Double(maxY) - qy)
        let fz = max(qz - Double(minZ), Double(maxZ) - qz)
        return fx * fx + fy * fy + fz * fz
    }

    /// The coordinate on the split axis.
    @inline(__always)
    func coordinate(_ axis: Int) -> Double { axis == 0 ? x : axis == 1 ? y : z }
}

/// A k-d tree over points on the unit sphere (x, y, z). Straight-line distance through the sphere grows with
/// great-circle distance, so the nearest point by chord is the true great-circle nearest, with no degree
/// distortion near the poles or across the antimeridian.
struct SpatialIndex: Sendable {
    /// The nodes in tree order: the node of the subtree in slots [lo, hi) is at (lo + hi) / 2.
    var nodes: Column<SpatialNode>

    /// Optional shortcut for `nearest`: the globe cut into 1° × 1° cells, and for each cell the slots of every
    /// place that can be the nearest to some point in it, when there are at most `cellCandidateLimit` (the
    /// open ocean, deserts, the poles). A cell with none stored is answered by the tree. Empty: no shortcut.
    var cellStart: Column<Int32> = []
    /// The candidate slots, cell after cell, nearest the cell's centre first.
    var cellSlots: Column<Int32> = []
    /// For each candidate, a lower bound on its chord to any point of its cell (distance to the centre minus
    /// the cell's radius): once it passes the best found, no later candidate can win.
    var cellBound: Column<Float> = []

    static let cellCandidateLimit = 160
    static let cellCount = 180 * 360

    var count: Int { nodes.count }

    /// The place in a slot.
    func place(atSlot slot: Int) -> Int32 { nodes[slot].place }

    /// Builds a balanced tree from coordinates (one per place), each node weighed by `weight` of its place.
    init<C: Collection<Double>>(latitudes: C, longitudes: C, weight: (Int32) -> Int32 = { _ in 0 }) {
        let n = latitudes.count
        // The points move as they are ordered (not their numbers, which made every comparison a read far away).
        var items: [BuildPoint] = []
        items.reserveCapacity(n)
        for (latitude, longitude) in zip(latitudes, longitudes) {
            let (x, y, z) = Geo.unitVector(latitude: latitude, longitude: longitude)
            items.append(BuildPoint(x: x, y: y, z: z, place: Int32(items.count)))
        }
        var axis = [UInt8](repeating: 0, count: n)
        items.withUnsafeMutableBufferPointer { items in
            axis.withUnsafeMutableBufferPointer { axis in
                nonisolated(unsafe) let (items, axis) = (items, axis)
                /// Puts the middle of [lo, hi) by its widest dimension at the middle, smaller before, larger after.
                func split(_ lo: Int, _ hi: Int) {
                    var minV = (Double.infinity, Double.infinity, Double.infinity)
                    var maxV = (-Double.infinity, -Double.infinity, -Double.infinity)
                    for i in lo..<hi {
                        let p = items[i]
                        minV = (min(minV.0, p.x), min(minV.1, p.y), min(minV.2, p.z))
                        maxV = (max(maxV.0, p.x), max(maxV.1, p.y), max(maxV.2, p.z))
                    }
                    let spread = (maxV.0 - minV.0, maxV.1 - minV.1, maxV.2 - minV.2)
                    let a = spread.0 >= spread.1 && spread.0 >= spread.2 ? 0 : (spread.1 >= spread.2 ? 1 : 2)
                    let mid = (lo + hi) / 2
                    switch a {
                    case 0: Self.select(items, lo, hi, mid) { $0.x }
                    case 1: Self.select(items, lo, hi, mid) { $0.y }
                    default: Self.select(items, lo, hi, mid) { $0.z }
                    }
                    axis[mid] = UInt8(a)
                }
                func build(_ lo: Int, _ hi: Int) {
                    guard hi - lo > 1 else { return }
                    split(lo, hi)
                    build(lo, (lo + hi) / 2)
                    build((lo + hi) / 2 + 1, hi)
                }
                // Below the top three splits the eight subtrees are independent: the cores share them out (a small
                // tree, such as one category's venues, costs less than handing it out).
                guard n >= 16_384 else { return build(0, n) }
                var subtrees = [(lo: 0, hi: n)]
                for _ in 0..<3 {
                    subtrees = subtrees.flatMap { t -> [(lo: Int, hi: Int)] in
                        guard t.hi - t.lo > 1 else { return [] }
                        split(t.lo, t.hi)
                        return [(t.lo, (t.lo + t.hi) / 2), ((t.lo + t.hi) / 2 + 1, t.hi)]
                    }
                }
                _ = subtrees.concurrentMap { build($0.lo, $0.hi) }
            }
        }
        var nodes = (0..<n).map { slot in
            let p = items[slot]
            return SpatialNode(x: p.x, y: p.y, z: p.z, minX: 0, minY: 0, minZ: 0, maxX: 0, maxY: 0, maxZ: 0,
                               place: p.place, weight: 0, topWeight: 0, axis: axis[slot])
        }
        items = []
        // Each subtree's box from its children's and its node's point: rounding outward is monotone, so the union
        // of rounded boxes is the rounded union, and one pass makes every box, and every subtree's largest weight.
        nodes.withUnsafeMutableBufferPointer { nodes in
            typealias Box = (Float, Float, Float, Float, Float, Float)
            func fill(_ lo: Int, _ hi: Int) -> (box: Box, top: Int32) {
                guard lo < hi else { return ((.infinity, .infinity, .infinity, -.infinity, -.infinity, -.infinity), .min) }
                let mid = (lo + hi) / 2
                let (l, lTop) = fill(lo, mid), (r, rTop) = fill(mid + 1, hi)
                let x = nodes[mid].x, y = nodes[mid].y, z = nodes[mid].z
                let b = (min(l.0, r.0, Self.below(x)), min(l.1, r.1, Self.below(y)), min(l.2, r.2, Self.below(z)),
                         max(l.3, r.3, Self.above(x)), max(l.4, r.4, Self.above(y)), max(l.5, r.5, Self.above(z)))
                (nodes[mid].minX, nodes[mid].minY, nodes[mid].minZ, nodes[mid].maxX, nodes[mid].maxY, nodes[mid].maxZ) = b
                nodes[mid].weight = weight(nodes[mid].place)
                nodes[mid].topWeight = max(nodes[mid].weight, lTop, rTop)
                return (b, nodes[mid].topWeight)
            }
            _ = fill(0, n)
        }
        self.nodes = Column(nodes)
    }

    /// Each place's slot (the inverse of the nodes' places).
    func slotOfPlace() -> [Int32] {
        var slots = [Int32](repeating: 0, count: count)
        for (slot, node) in nodes.enumerated() { slots[Int(node.place)] = Int32(slot) }
        return slots
    }

    /// The largest `Float` at or below x.
    static func below(_ x: Double) -> Float { let f = Float(x); return Double(f) > x ? f.nextDown : f }
    /// The smallest `Float` at or above x.
    static func above(_ x: Double) -> Float { let f = Float(x); return Double(f) < x ? f.nextUp : f }

    /// From stored columns.
    init(nodes: Column<SpatialNode>, cellStart: Column<Int32> = [], cellSlots: Column<Int32> = [], cellBound: Column<Float> = []) {
        self.nodes = nodes
        self.cellStart = cellStart; self.cellSlots = cellSlots; self.cellBound = cellBound
    }

    /// Whether every node's place is below `places` and its axis one of three (a pass over every node, which the
    /// import makes and opening does not).
    func nodesAreValid(places: Int) -> Bool {
        nodes.allSatisfy { $0.place >= 0 && Int($0.place) < places && $0.axis < 3 }
    }

    /// Trees one after another in one set of columns, each tree's places renumbered by `places`. A subtree's shape
    /// depends only on its range of slots, so each part stays a tree of its own over its slots (`count`'s `slots`).
    init(concatenating parts: [(tree: SpatialIndex, places: [Int32])]) {
        var nodes: [SpatialNode] = []
        for (tree, places) in parts {
            nodes += tree.nodes.map { node in
                var node = node
                node.place = places[Int(node.place)]
                return node
            }
        }
        self.init(nodes: Column(nodes))
    }

    /// Fills the cell shortcut. Any point q of a cell is within r (the cell's chord radius) of its centre c, so
    /// q's nearest place is no farther from q than c's nearest n, |q - n| ≤ r + |c - n|, and no farther from c
    /// than |c - n| + 2r: the places in that ball around c are every possible answer for the cell.
    mutating func addNearestCells() {
        let slotOfPlace = slotOfPlace()
        // The cells are independent: the cores take bands of them (a row of cells each, as places crowd some
        // rows and leave others empty), and the bands are joined in cell order.
        let cellsPerBand = 360
        let bands = (0..<(Self.cellCount / cellsPerBand)).concurrentMap { band in
            nearestCandidates((band * cellsPerBand)..<((band + 1) * cellsPerBand), slotOfPlace: slotOfPlace)
        }
        var start: [Int32] = [0], slots: [Int32] = [], bounds: [Float] = []
        start.reserveCapacity(Self.cellCount + 1)
        for band in bands {
            for n in band.counts { start.append(start[start.count - 1] + n) }
            slots += band.slots
            bounds += band.bounds
        }
        cellStart = Column(start)
        cellSlots = Column(slots)
        cellBound = Column(bounds)
    }

    /// For each of `cells` in order: how many candidates it has, and their slots and lower bounds, nearest first.
    private func nearestCandidates(_ cells: Range<Int>, slotOfPlace: [Int32]) -> (counts: [Int32], slots: [Int32], bounds: [Float]) {
        var counts: [Int32] = [], slots: [Int32] = [], bounds: [Float] = []
        var found: [(place: Int32, chord2: Double)] = []
        func unit(_ lat: Double, _ lon: Double) -> (Double, Double, Double) { Geo.unitVector(latitude: lat, longitude: lon) }
        func chord(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
            ((a.0 - b.0) * (a.0 - b.0) + (a.1 - b.1) * (a.1 - b.1) + (a.2 - b.2) * (a.2 - b.2)).squareRoot()
        }
        for cell in cells {
            let south = Double(cell / 360) - 90, west = Double(cell % 360) - 180
            let centre = unit(south + 0.5, west + 0.5)
            // The farthest points of a cell from its centre are on its border: corners and edge middles.
            var radius = 0.0
            for (dLat, dLon) in [(0.0, 0.0), (0, 0.5), (0, 1), (0.5, 0), (0.5, 1), (1, 0), (1, 0.5), (1, 1)] {
                radius = max(radius, chord(centre, unit(south + dLat, west + dLon)))
            }
            radius *= 1.001
            found.removeAll(keepingCapacity: true)
            if let nearest = treeNearest(centre) {
                let reach = nearest.chord2.squareRoot() + 2 * radius + 1e-12
                within(latitude: south + 0.5, longitude: west + 0.5, chord: reach, into: &found, limit: Self.cellCandidateLimit)
            }
            if found.count <= Self.cellCandidateLimit {
                let candidates = found.map { hit in
                    let slot = slotOfPlace[Int(hit.place)]
                    let node = nodes[Int(slot)]
                    return (slot: slot, bound: chord(centre, (node.x, node.y, node.z)) - radius)
                }.sorted { $0.bound < $1.bound }
                slots += candidates.map(\.slot)
                bounds += candidates.map { Float($0.bound) }
                counts.append(Int32(candidates.count))
            } else {
                counts.append(0)
            }
        }
        return (counts, slots, bounds)
    }

    /// Whether the cell arrays are absent or well formed (for a damaged index file); with `verify`, every
    /// candidate slot too (a pass over all of them, which the import makes and opening does not).
    func cellsAreConsistent(verify: Bool) -> Bool {
        cellStart.isEmpty || (cellStart.count == Self.cellCount + 1 && cellStart.first == 0
            && Int(cellStart.last!) == cellSlots.count && cellBound.count == cellSlots.count && zip(cellStart, cellStart.dropFirst()).allSatisfy { $0 <= $1 }
            && (!verify || cellSlots.allSatisfy { $0 >= 0 && Int($0) < count }))
    }

    /// A point on its way into the tree: where it is, and its place.
    private struct BuildPoint {
        var x, y, z: Double
        var place: Int32
    }

    /// Quickselect: puts the element of rank `k` (by `value`) at k, smaller before, larger after.
    @inline(__always)
    private static func select(_ a: UnsafeMutableBufferPointer<BuildPoint>, _ lo: Int, _ hi: Int, _ k: Int,
                               _ value: (BuildPoint) -> Double) {
        var lo = lo, hi = hi - 1
        while hi > lo {
            let pivot = value(a[(lo + hi) / 2])
            var i = lo, j = hi
            while i <= j {
                while value(a[i]) < pivot { i += 1 }
                while value(a[j]) > pivot { j -= 1 }
                if i <= j { a.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return }
        }
    }

    /// The nearest place and its squared chord distance; nil for an empty tree. Of places at the same
    /// distance (GeoNames has some at one coordinate) the lowest place number wins, by either path.
    func nearest(latitude: Double, longitude: Double) -> (place: Int32, chord2: Double)? {
        let q = Geo.unitVector(latitude: latitude, longitude: longitude)
        if !cellStart.isEmpty, (-90...90).contains(latitude), (-180...180).contains(longitude) {
            let row = min(179, Int(latitude + 90)), column = Int(longitude + 180) % 360
            let cell = row * 360 + column
            let lo = Int(cellStart[cell]), hi = Int(cellStart[cell + 1])
            if lo < hi {
                var bestSlot = 0, bestD2 = Double.infinity, best = Double.infinity
                for i in lo..<hi {
                    // The margin covers the bound's rounding to Float (~1e-7).
                    if Double(cellBound[i]) > best + 1e-5 { break }
                    let s = Int(cellSlots[i])
                    let d2 = nodes[s].distance2(q.0, q.1, q.2)
                    if d2 < bestD2 || (d2 == bestD2 && nodes[s].place < nodes[bestSlot].place) { bestD2 = d2; bestSlot = s; best = d2.squareRoot() }
                }
                return (nodes[bestSlot].place, bestD2)
            }
        }
        return treeNearest(q).map { (nodes[$0.slot].place, $0.chord2) }
    }

    /// The nearest slot to a unit vector by walking the tree; nil for an empty tree.
    private func treeNearest(_ q: (Double, Double, Double)) -> (slot: Int, chord2: Double)? {
        guard count > 0 else { return nil }
        let (qx, qy, qz) = q
        var bestSlot = 0
        var bestD2 = Double.infinity
        nodes.withUnsafeBufferPointer { p in
            /// Squared distance from the query to the box of the subtree in [lo, hi) (0 inside it).
            @inline(__always) func boxDistance2(_ lo: Int, _ hi: Int) -> Double {
                p[(lo + hi) >> 1].boxDistance2(qx, qy, qz)
            }
            // Depth-first with an explicit stack of (lo, hi, box distance): the tree is balanced, so 64
            // entries cover any size.
            withUnsafeTemporaryAllocation(of: (Int, Int, Double).self, capacity: 64) { stack in
                var top = 0
                stack[0] = (0, count, 0)
                top = 1
                while top > 0 {
                    top -= 1
                    let (lo, hi, boxD2) = stack[top]
                    if boxD2 > bestD2 { continue }
                    if hi - lo <= 16 {
                        for s in lo..<hi {
                            let d2 = p[s].distance2(qx, qy, qz)
                            if d2 < bestD2 || (d2 == bestD2 && p[s].place < p[bestSlot].place) { bestD2 = d2; bestSlot = s }
                        }
                        continue
                    }
                    let mid = (lo + hi) >> 1
                    // The children's boxes are read next, and their own children's nodes after: asked for now.
                    prefetchBelow(lo, hi)
                    let d2 = p[mid].distance2(qx, qy, qz)
                    if d2 < bestD2 || (d2 == bestD2 && p[mid].place < p[bestSlot].place) { bestD2 = d2; bestSlot = mid }
                    let left = boxDistance2(lo, mid), right = mid + 1 < hi ? boxDistance2(mid + 1, hi) : .infinity
                    // Push the farther child first so the nearer one is searched first.
                    if left <= right {
                        if right <= bestD2 { stack[top] = (mid + 1, hi, right); top += 1 }
                        if left <= bestD2 { stack[top] = (lo, mid, left); top += 1 }
                    } else {
                        if left <= bestD2 { stack[top] = (lo, mid, left); top += 1 }
                        if right <= bestD2 { stack[top] = (mid + 1, hi, right); top += 1 }
                    }
                }
            }
        }
        return (bestSlot, bestD2)
    }

    /// Starts loading the node of the subtree [lo, hi) without waiting: the nodes of a deep tree lie far apart, so
    /// a walk that asks for its children's nodes before it reaches them waits for their cache misses beside its
    /// own work instead of after it.
    @inline(__always)
    func prefetchNode(_ lo: Int, _ hi: Int) {
        guard lo < hi else { return }
        nodes.prefetch((lo + hi) >> 1)
    }

    /// `prefetchNode` of both children of the subtree [lo, hi) and of their children.
    @inline(__always)
    func prefetchBelow(_ lo: Int, _ hi: Int) {
        let mid = (lo + hi) >> 1
        prefetchNode(lo, mid); prefetchNode(mid + 1, hi)
        prefetchNode(lo, (lo + mid) >> 1); prefetchNode((lo + mid) >> 1, mid)
        prefetchNode(mid + 1, (mid + 1 + hi) >> 1); prefetchNode((mid + 1 + hi) >> 1, hi)
    }

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
        return nodes.withUnsafeBufferPointer { p in
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
    }

    /// Every place within `chord` (unit-sphere straight-line distance), with its squared chord, unordered; or,
    /// once more than `limit` are found, some `limit + 1` of them (for a caller that has no use for more).
    func within(latitude: Double, longitude: Double, chord: Double, into found: inout [(place: Int32, chord2: Double)],
                limit: Int = .max) {
        guard count > 0 else { return }
        let (qx, qy, qz) = Geo.unitVector(latitude: latitude, longitude: longitude)
        let r2 = chord * chord
        nodes.withUnsafeBufferPointer { p in
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
        nodes.withUnsafeBufferPointer { p in
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
        }
        return best.map { ($0.place, $0.chord2) }
    }

    /// A walk over the places in the view `box` (latitudes and longitudes; west past east crosses the antimeridian),
    /// biggest first: by weight (the place tree's populations), then the lower place number; none below `minimum`.
    func biggestFirst(in box: BoundingBox, atLeast minimum: Int32) -> BiggestFirstWalk {
        BiggestFirstWalk(tree: self, box: box, minimum: minimum)
    }

    /// The smallest box of unit vectors holding every point of a latitude/longitude box, a hair wider. With the
    /// cosine of the latitude never negative, each coordinate of a unit vector is largest and smallest where the
    /// latitude and the longitude each are at an end of their range or where their functions turn (the equator, and
    /// the meridians at multiples of 90°), so those points are enough.
    static func unitBox(of box: BoundingBox) -> (low: (Double, Double, Double), high: (Double, Double, Double)) {
        let south = max(-90, min(90, box.south)), north = max(-90, min(90, box.north))
        let latitudes = [south, north] + (south < 0 && north > 0 ? [0] : [])
        let spans = box.west <= box.east ? [(box.west, box.east)] : [(box.west, 180.0), (-180.0, box.east)]
        var low = (Double.infinity, Double.infinity, Double.infinity), high = (-Double.infinity, -Double.infinity, -Double.infinity)
        for (west, east) in spans {
            let longitudes = [west, east] + [-180.0, -90, 0, 90, 180].filter { $0 > west && $0 < east }
            for latitude in latitudes {
                for longitude in longitudes {
                    let (x, y, z) = Geo.unitVector(latitude: latitude, longitude: longitude)
                    low = (min(low.0, x), min(low.1, y), min(low.2, z)); high = (max(high.0, x), max(high.1, y), max(high.2, z))
                }
            }
        }
        let margin = 1e-9
        return ((low.0 - margin, low.1 - margin, low.2 - margin), (high.0 + margin, high.1 + margin, high.2 + margin))
    }
}

/// `SpatialIndex.biggestFirst`: it opens, biggest first, the subtrees that meet the view and hold a place at least as
/// big as the next one to give, so its cost grows with the places it gives and the subtrees around them, not with
/// the bigger places elsewhere on Earth (which a list of every place by size reads first).
struct BiggestFirstWalk {
    /// What a step did.
    enum Step { case place(Int32), opened, done }

    private let tree: SpatialIndex
    private let low: (Double, Double, Double), high: (Double, Double, Double)
    private let minimum: Int32
    private var waiting = Heap<BiggestFirstEntry>(capacity: 64)

    init(tree: SpatialIndex, box: BoundingBox, minimum: Int32) {
        self.tree = tree
        (low, high) = SpatialIndex.unitBox(of: box)
        self.minimum = minimum
        offer(0, tree.count)
    }

    /// Gives the next place or opens one subtree. `inside` says whether a place lies in the view: the tree's boxes
    /// only rule out what misses the view's box of unit vectors.
    mutating func step(inside: (Int32) -> Bool) -> Step {
        guard let next = waiting.pop() else { return .done }
        if next.place >= 0 { return .place(next.place) }
        let lo = Int(next.lo), hi = Int(next.hi), mid = (lo + hi) >> 1, node = tree.nodes[mid]
        tree.prefetchBelow(lo, hi)
        if node.weight >= minimum, node.x >= low.0, node.x <= high.0, node.y >= low.1, node.y <= high.1,
           node.z >= low.2, node.z <= high.2, inside(node.place) {
            waiting.push(BiggestFirstEntry(weight: node.weight, place: node.place, lo: 0, hi: 0))
        }
        offer(lo, mid)
        offer(mid + 1, hi)
        return .opened
    }

    /// Queues the subtree [lo, hi) if its box meets the view's and it holds a place of `minimum` or more.
    private mutating func offer(_ lo: Int, _ hi: Int) {
        guard lo < hi else { return }
        let n = tree.nodes[(lo + hi) >> 1]
        guard n.topWeight >= minimum, Double(n.minX) <= high.0, Double(n.maxX) >= low.0, Double(n.minY) <= high.1,
              Double(n.maxY) >= low.1, Double(n.minZ) <= high.2, Double(n.maxZ) >= low.2 else { return }
        waiting.push(BiggestFirstEntry(weight: n.topWeight, place: -1, lo: Int32(lo), hi: Int32(hi)))
    }
}

/// A place or a subtree `SpatialIndex.biggestFirst` has yet to give or open: a place (`place` ≥ 0), or the subtree
/// [lo, hi) with the largest weight in it (`place` -1).
struct BiggestFirstEntry: HeapOrdered {
    var weight: Int32; var place: Int32; var lo: Int32; var hi: Int32

    /// Bigger first; of equal weight a subtree (its -1 sorts first: it may hold a place of that weight with a lower
    /// number), then places by number.
    func precedes(_ other: BiggestFirstEntry) -> Bool { weight != other.weight ? weight > other.weight : place < other.place }
}
