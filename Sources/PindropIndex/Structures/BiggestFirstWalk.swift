import PindropCore

extension SpatialIndex {
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
