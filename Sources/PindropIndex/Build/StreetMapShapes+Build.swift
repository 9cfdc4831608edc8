import PindropCore

/// Making the street map's shapes from an import's features, and their stored form.
extension StreetMapShapes {
    /// From an import's features, by kind in `storedKinds` order: streets first, so that a limit keeps the streets.
    /// Venues (`.poi`) are not shapes: they are left out.
    init(features: [MapFeature]) {
        var kinds: [UInt8] = [], lineStart: [Int32] = [0], pointStart: [Int32] = [0], coordinates: [Double] = [], boxes: [BoundingBox] = []
        var text: [UInt8] = [], textStart: [UInt32] = [0]
        // Sized up front and filled in a pass per kind rather than from a sorted copy: at
        // country size the features and their flat copy are most of an import's peak.
        coordinates.reserveCapacity(2 * features.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.count } })
        for i in Self.storedOrder(of: features) {
            let f = features[i]
            kinds.append(UInt8(Self.storedKinds.firstIndex(of: f.kind)!))
            lineStart.append(lineStart[lineStart.count - 1] + Int32(f.lines.count))
            for line in f.lines {
                pointStart.append(pointStart[pointStart.count - 1] + Int32(line.count))
                for c in line { coordinates.append(c.latitude); coordinates.append(c.longitude) }
            }
            boxes.append(BoundingBox(covering: f.lines.joined()) ?? BoundingBox(south: 0, west: 0, north: 0, east: 0))
            PlaceTable.appendExtras(to: &text, PlaceExtras(id: f.id, category: f.category, categoryKey: nil, address: Address(street: f.name)))
            textStart.append(UInt32(text.count))
        }
        self.init(kinds: Column(kinds), lineStart: Column(lineStart), pointStart: Column(pointStart), coordinates: Column(coordinates),
                  text: Column(text), textStart: Column(textStart), boxCorners: Column(boxes.flatMap { [$0.south, $0.west, $0.north, $0.east] }),
                  grid: BoxGrid(boxes: boxes))
    }

    /// The order features are stored in: kind after kind (`storedKinds`), each kind's in the order given. Feature f of
    /// the stored shapes is `features[storedOrder(of: features)[f]]`.
    static func storedOrder(of features: [MapFeature]) -> [Int] {
        storedKinds.flatMap { kind in features.indices.filter { features[$0].kind == kind } }
    }

    /// Whether feature `f` is `feature` as an answer reads it (`feature(f) == feature`), compared in place; `scratch`
    /// holds the bytes of its labels.
    func holds(_ feature: MapFeature, at f: Int, scratch: inout [UInt8]) -> Bool {
        let lines = Int(lineStart[f])..<Int(lineStart[f + 1])
        guard kind(f) == feature.kind, lines.count == feature.lines.count else { return false }
        for (line, points) in zip(lines, feature.lines) {
            let from = Int(pointStart[line]), to = Int(pointStart[line + 1])
            guard to - from == points.count else { return false }
            for (p, c) in zip(from..<to, points) where coordinates[2 * p] != c.latitude || coordinates[2 * p + 1] != c.longitude {
                return false
            }
        }
        scratch.removeAll(keepingCapacity: true)
        PlaceTable.appendExtras(to: &scratch, PlaceExtras(id: feature.id, category: feature.category, categoryKey: nil,
                                                          address: Address(street: feature.name)))
        return labels.extraBytes.buffer[Int(labels.extraStart[f])..<Int(labels.extraStart[f + 1])].elementsEqual(scratch)
    }

    func blobs() -> [StoredArray] {
        [StoredArray("map.kind", kinds), StoredArray("map.line_start", lineStart),
         StoredArray("map.point_start", pointStart), StoredArray("map.coordinates", coordinates),
         StoredArray("map.text", labels.extraBytes), StoredArray("map.text_start", labels.extraStart), StoredArray("map.boxes", boxCorners),
         StoredArray("map.grid_keys", grid.keys), StoredArray("map.grid_start", grid.cellStart), StoredArray("map.grid_boxes", grid.cellBoxes),
         StoredArray("map.grid_large", grid.large)]
    }
}
