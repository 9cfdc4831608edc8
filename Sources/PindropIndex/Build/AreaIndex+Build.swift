import PindropCore

/// Making the areas from an import's, and their stored form.
extension AreaIndex {
    /// From the imported areas, with what each takes from its place node where it has one (`labels`, one per area).
    init(_ osm: [OSMArea], labels: [(placeType: String?, postcode: String?)] = []) {
        var lats: [Double] = [], lons: [Double] = [], ringStart: [Int32] = [0], areaRingStart: [Int32] = [0]
        var areas: [Area] = []
        for (a, area) in osm.enumerated() {
            for ring in area.rings {
                for c in ring { lats.append(c.latitude); lons.append(c.longitude) }
                ringStart.append(Int32(lats.count))
            }
            areaRingStart.append(Int32(ringStart.count - 1))
            let box = BoundingBox(covering: area.rings.joined()) ?? BoundingBox(south: 0, west: 0, north: 0, east: 0)
            areas.append(Area(id: area.id, name: area.name, level: area.level, adminLevel: area.adminLevel ?? 0, box: box,
                              postcode: a < labels.count ? labels[a].postcode : area.postcode,
                              placeType: a < labels.count ? labels[a].placeType : nil, subdivisionCode: area.subdivisionCode))
        }
        self.init(areas: areas, latitudes: lats, longitudes: lons, ringStart: ringStart, areaRingStart: areaRingStart)
        twins = [Int32](repeating: -1, count: areas.count)
    }

    /// The areas as the structures file stores them; the bands are made again at open.
    func blobs() -> [StoredArray] {
        var text: [UInt8] = [], textStart: [UInt32] = [0]
        for area in areas {
            // id, name, postcode, place type and ISO 3166-2 code, a NUL between each two
            for (n, part) in [area.id, area.name, area.postcode ?? "", area.placeType ?? "", area.subdivisionCode ?? ""].enumerated() {
                if n > 0 { text.append(0) }
                text += part.utf8
            }
            textStart.append(UInt32(text.count))
        }
        var coordinates: [Double] = []
        coordinates.reserveCapacity(2 * latitudes.count)
        for (lat, lon) in zip(latitudes, longitudes) { coordinates.append(lat); coordinates.append(lon) }
        return [StoredArray("area.level", areas.map { UInt8($0.level.rawValue) }),
                StoredArray("area.admin_level", areas.map { UInt8(clamping: $0.adminLevel) }),
                StoredArray("area.text", text), StoredArray("area.text_start", textStart),
                StoredArray("area.ring_start", ringStart), StoredArray("area.area_ring_start", areaRingStart),
                StoredArray("area.coordinates", coordinates), StoredArray("area.twin", twins)]
    }
}
