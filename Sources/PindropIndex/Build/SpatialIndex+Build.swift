import PindropCore

/// Making the place trees from coordinates.
extension SpatialIndex {
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
            axis.withUnsafeMutableBufferPointer { axis in Self.putInTreeOrder(items, axis: axis) }
        }
        var nodes = (0..<n).map { slot in
            let p = items[slot]
            return SpatialNode(x: p.x, y: p.y, z: p.z, minX: 0, minY: 0, minZ: 0, maxX: 0, maxY: 0, maxZ: 0,
                               place: p.place, weight: 0, topWeight: 0, axis: axis[slot])
        }
        items = []
        nodes.withUnsafeMutableBufferPointer { Self.fillBoxes($0, weight: weight) }
        self.nodes = Column(nodes)
    }

    /// Orders the points as the tree lays them out: the middle of each subtree [lo, hi) by its widest dimension at
    /// (lo + hi) / 2, smaller before, larger after, and that dimension in `axis`.
    private static func putInTreeOrder(_ items: UnsafeMutableBufferPointer<BuildPoint>, axis: UnsafeMutableBufferPointer<UInt8>) {
        nonisolated(unsafe) let (items, axis) = (items, axis)
        let n = items.count
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
            case 0: select(items, lo, hi, mid) { $0.x }
            case 1: select(items, lo, hi, mid) { $0.y }
            default: select(items, lo, hi, mid) { $0.z }
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

    /// Each subtree's box from its children's and its node's point: rounding outward is monotone, so the union of
    /// rounded boxes is the rounded union, and one pass makes every box, and every subtree's largest weight.
    private static func fillBoxes(_ nodes: UnsafeMutableBufferPointer<SpatialNode>, weight: (Int32) -> Int32) {
        typealias Box = (Float, Float, Float, Float, Float, Float)
        func fill(_ lo: Int, _ hi: Int) -> (box: Box, top: Int32) {
            guard lo < hi else { return ((.infinity, .infinity, .infinity, -.infinity, -.infinity, -.infinity), .min) }
            let mid = (lo + hi) / 2
            let (l, lTop) = fill(lo, mid), (r, rTop) = fill(mid + 1, hi)
            let x = nodes[mid].x, y = nodes[mid].y, z = nodes[mid].z
            let b = (min(l.0, r.0, below(x)), min(l.1, r.1, below(y)), min(l.2, r.2, below(z)),
                     max(l.3, r.3, above(x)), max(l.4, r.4, above(y)), max(l.5, r.5, above(z)))
            (nodes[mid].minX, nodes[mid].minY, nodes[mid].minZ, nodes[mid].maxX, nodes[mid].maxY, nodes[mid].maxZ) = b
            nodes[mid].weight = weight(nodes[mid].place)
            nodes[mid].topWeight = max(nodes[mid].weight, lTop, rTop)
            return (b, nodes[mid].topWeight)
        }
        _ = fill(0, nodes.count)
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
}
