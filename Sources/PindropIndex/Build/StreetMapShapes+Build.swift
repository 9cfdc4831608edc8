import PindropCore

/// Making the street map's shapes from an import's features, and their stored form.
extension StreetMapShapes {
    /// From an import's features, by kind in `storedKinds` order: streets first, so that a limit keeps the streets.
    /// Venues (`.poi`) are not shapes: they are left out.
    init(features: [MapFeature]) {
        var kinds: [UInt8] = [], lineCounts: [UInt32] = [], pointCounts: [UInt32] = [], coordinates: [Double] = []
        var text: [UInt8] = [], textStart: [UInt32] = [0]
        // Sized up front and filled in a pass per kind rather than from a sorted copy: at
        // country size the features and their flat copy are most of an import's peak.
        coordinates.reserveCapacity(2 * features.reduce(0) { $0 + $1.lines.reduce(0) { $0 + $1.count } })
        for (code, kind) in Self.storedKinds.enumerated() {
            for f in features where f.kind == kind {
                kinds.append(UInt8(code))
                lineCounts.append(UInt32(f.lines.count))
                for line in f.lines {
                    pointCounts.append(UInt32(line.count))
                    for c in line { coordinates.append(c.latitude); coordinates.append(c.longitude) }
                }
                PlaceTable.appendExtras(to: &text, PlaceExtras(id: f.id, category: f.category, categoryKey: nil, address: Address(street: f.name)))
                textStart.append(UInt32(text.count))
            }
        }
        self.init(kinds: Column(kinds), lineCounts: Column(lineCounts), pointCounts: Column(pointCounts), coordinates: Column(coordinates),
                  text: Column(text), textStart: Column(textStart))
    }

    func blobs() -> [StoredArray] {
        [StoredArray("map.kind", kinds), StoredArray("map.line_count", lineCounts),
         StoredArray("map.point_count", pointCounts), StoredArray("map.coordinates", coordinates),
         StoredArray("map.text", labels.extraBytes), StoredArray("map.text_start", labels.extraStart)]
    }
}
