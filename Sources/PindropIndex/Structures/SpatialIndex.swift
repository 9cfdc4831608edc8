import PindropCore

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

    /// Whether the cell arrays are absent or well formed (for a damaged index file); with `verify`, every
    /// candidate slot too (a pass over all of them, which the import makes and opening does not).
    func cellsAreConsistent(verify: Bool) -> Bool {
        cellStart.isEmpty || (cellStart.count == Self.cellCount + 1 && cellStart.first == 0
            && Int(cellStart.last!) == cellSlots.count && cellBound.count == cellSlots.count && cellStart.isAscending
            && (!verify || cellSlots.allSatisfy { $0 >= 0 && Int($0) < count }))
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
    func treeNearest(_ q: (Double, Double, Double)) -> (slot: Int, chord2: Double)? {
        guard count > 0 else { return nil }
        let (qx, qy, qz) = q
        var bestSlot = 0
        var bestD2 = Double.infinity
        let p = nodes.buffer
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
}
