import PindropCore

extension SpatialIndex {
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
}
