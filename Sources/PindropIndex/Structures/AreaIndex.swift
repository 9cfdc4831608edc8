import PindropCore

/// The areas of the index (OSM administrative boundaries, postcode areas, places drawn as polygons) and which
/// of them hold a point. The rings are stored; the lookup structures are built at open, in milliseconds.
///
/// Each area's box is cut into horizontal bands, and each band lists the ring edges that cross its latitudes,
/// so the even-odd test of a point walks a handful of edges instead of every edge of a country's border.
struct AreaIndex: Sendable {
    /// One area's facts.
    struct Area: Sendable, Hashable {
        var id: String, name: String
        var level: AreaLevel
        /// The OSM `admin_level`, 0 when it has none (postcode and place areas).
        var adminLevel: Int
        var box: BoundingBox
        /// The postcode the boundary carries (`postal_code`), or its own for a postcode area; nil when none.
        var postcode: String? = nil
        /// What its place node calls it ("town" for Vaduz's boundary): Nominatim's address key for it; nil when unknown.
        var placeType: String? = nil
        /// Its ISO 3166-2 code ("LI-10"); nil when none.
        var subdivisionCode: String? = nil
    }

    let areas: [Area]
    /// For each area, the GeoNames place (slot) it is the boundary of, found by name, or -1.
    var twins: [Int32] = []
    /// Ring points, all areas' rings one after another; `ringStart` has one entry more than there are rings.
    let latitudes: [Double], longitudes: [Double]
    let ringStart: [Int32]
    /// Area a's rings are ringStart indices areaRingStart[a] ..< areaRingStart[a + 1].
    let areaRingStart: [Int32]
    private let grid: BoxGrid
    /// The box around every area: a point outside it (most of the world's searches) is in none, at the cost of one test.
    let extent: BoundingBox?
    /// Area a's bands are bandEdgeStart indices areaBandStart[a] ..< areaBandStart[a + 1] - 1 (one closing entry each).
    private let areaBandStart: [Int32]
    private let bandEdgeStart: [Int32]
    /// Edges by band: the index of an edge's first point (the edge runs to the next point of the same ring).
    private let bandEdges: [Int32]

    static let empty = AreaIndex(areas: [], latitudes: [], longitudes: [], ringStart: [0], areaRingStart: [0])

    var isEmpty: Bool { areas.isEmpty }

    /// From the areas and their rings, making the lookup's bands.
    init(areas: [Area], latitudes: [Double], longitudes: [Double], ringStart: [Int32], areaRingStart: [Int32]) {
        self.areas = areas; self.latitudes = latitudes; self.longitudes = longitudes
        self.ringStart = ringStart; self.areaRingStart = areaRingStart
        // ~5.5 km cells: a municipality touches tens of them, a country is checked by its box alone.
        grid = BoxGrid(boxes: areas.map(\.box), cellDegrees: 0.05)
        extent = BoundingBox(covering: areas.flatMap { [Coordinate(latitude: $0.box.south, longitude: $0.box.west),
                                                        Coordinate(latitude: $0.box.north, longitude: $0.box.east)] })
        var areaBandStart: [Int32] = [0], bandEdgeStart: [Int32] = [0], bandEdges: [Int32] = []
        for (a, area) in areas.enumerated() {
            let rings = Int(areaRingStart[a])..<Int(areaRingStart[a + 1])
            let edgeCount = rings.reduce(0) { $0 + Int(ringStart[$1 + 1] - ringStart[$1]) - 1 }
            // About four edges a band; a band per edge of a tiny ring is no use.
            let bands = max(1, min(4096, edgeCount / 4))
            let height = max(area.box.north - area.box.south, 1e-12) / Double(bands)
            var perBand = [[Int32]](repeating: [], count: bands)
            for r in rings {
                for i in Int(ringStart[r])..<(Int(ringStart[r + 1]) - 1) {
                    let low = min(latitudes[i], latitudes[i + 1]), high = max(latitudes[i], latitudes[i + 1])
                    let first = Self.band(low, south: area.box.south, height: height, bands: bands)
                    let last = Self.band(high, south: area.box.south, height: height, bands: bands)
                    for b in first...last { perBand[b].append(Int32(i)) }
                }
            }
            for band in perBand {
                bandEdges += band
                bandEdgeStart.append(Int32(bandEdges.count))
            }
            areaBandStart.append(Int32(bandEdgeStart.count - 1))
        }
        self.areaBandStart = areaBandStart; self.bandEdgeStart = bandEdgeStart; self.bandEdges = bandEdges
    }

    @inline(__always)
    private static func band(_ latitude: Double, south: Double, height: Double, bands: Int) -> Int {
        let b = ((latitude - south) / height).rounded(.down)
        return b.isFinite ? max(0, min(bands - 1, Int(b))) : 0
    }

    /// Whether area `a` holds `c` (even-odd over all its rings: a hole or a lake inside is outside).
    func contains(_ a: Int, _ c: Coordinate) -> Bool {
        let box = areas[a].box
        guard box.contains(c) else { return false }
        let first = Int(areaBandStart[a]), bands = Int(areaBandStart[a + 1]) - first
        let height = max(box.north - box.south, 1e-12) / Double(bands)
        let band = first + Self.band(c.latitude, south: box.south, height: height, bands: bands)
        var inside = false
        for e in Int(bandEdgeStart[band])..<Int(bandEdgeStart[band + 1]) {
            let i = Int(bandEdges[e])
            let lat0 = latitudes[i], lat1 = latitudes[i + 1]
            guard (lat0 > c.latitude) != (lat1 > c.latitude) else { continue }
            let lon0 = longitudes[i], lon1 = longitudes[i + 1]
            if c.longitude < (lon1 - lon0) * (c.latitude - lat0) / (lat1 - lat0) + lon0 { inside.toggle() }
        }
        return inside
    }

    /// The areas holding `c`, coarse to fine (country first), finer admin levels after coarser ones.
    func containing(_ c: Coordinate) -> [Int] {
        guard let extent, extent.contains(c) else { return [] }
        var found: [Int] = []
        for a in grid.candidates(at: c) where contains(Int(a), c) { found.append(Int(a)) }
        guard found.count > 1 else { return found }
        // Sorted by keys read once (comparing the areas themselves would copy their names at every comparison).
        return found.map { a in (areas[a].level, areas[a].adminLevel, -areas[a].box.degreeArea, a) }.sorted(by: <).map(\.3)
    }

    /// The area of each level that holds `c`: where two of one level do (admin levels 7 and 8 both read as a
    /// city), the finer.
    func chain(at c: Coordinate) -> [AreaLevel: Int] {
        var chain: [AreaLevel: Int] = [:]
        for a in containing(c) { chain[areas[a].level] = a }
        return chain
    }

    /// The address parts these areas name (a chain from `containing`, coarse to fine): country, state, county,
    /// town, suburb and postcode, each the finest of its level (admin level 8 over 7; a district over the major
    /// district that holds it), a neighbourhood standing for the suburb only where there is none.
    func address(of chain: [Int]) -> Address {
        var address = Address()
        for a in chain {
            let name = areas[a].name
            switch areas[a].level {
            case .country: address.country = name
            case .state: address.state = name
            case .county: address.county = name
            case .city: address.town = name
            case .suburb: address.suburb = name
            case .neighbourhood: address.suburb = address.suburb ?? name
            case .postcode: address.postcode = name
            }
            if let code = areas[a].subdivisionCode, areas[a].level != .postcode {
                address.subdivisionCodes = (address.subdivisionCodes ?? []) + [SubdivisionCode(adminLevel: areas[a].adminLevel, code: code)]
            }
        }
        return address
    }

    /// The area's rings.
    func rings(of a: Int) -> [[Coordinate]] {
        (Int(areaRingStart[a])..<Int(areaRingStart[a + 1])).map { r in
            (Int(ringStart[r])..<Int(ringStart[r + 1])).map { Coordinate(latitude: latitudes[$0], longitude: longitudes[$0]) }
        }
    }

    /// A point to show the area at: the area-weighted centre of its largest ring when that lies inside the area,
    /// else the ring's vertex nearest that centre's latitude band (always on the area's edge).
    func centre(of a: Int) -> Coordinate {
        let rings = rings(of: a)
        guard let largest = rings.max(by: { Self.planarArea($0) < Self.planarArea($1) }), let centroid = Self.centroid(largest) else {
            let box = areas[a].box
            return Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        }
        if contains(a, centroid) { return centroid }
        return largest.min { abs($0.latitude - centroid.latitude) < abs($1.latitude - centroid.latitude) } ?? centroid
    }

    static func planarArea(_ ring: [Coordinate]) -> Double {
        guard ring.count >= 3 else { return 0 }
        var twice = 0.0
        for (p, q) in zip(ring, ring.dropFirst()) { twice += p.longitude * q.latitude - q.longitude * p.latitude }
        return abs(twice / 2)
    }

    static func centroid(_ ring: [Coordinate]) -> Coordinate? {
        guard let origin = ring.first else { return nil }
        var twice = 0.0, x = 0.0, y = 0.0
        for (p, q) in zip(ring, ring.dropFirst()) {
            let x0 = p.longitude - origin.longitude, y0 = p.latitude - origin.latitude
            let x1 = q.longitude - origin.longitude, y1 = q.latitude - origin.latitude
            let cross = x0 * y1 - x1 * y0
            twice += cross; x += (x0 + x1) * cross; y += (y0 + y1) * cross
        }
        guard abs(twice) > 1e-14 else { return nil }
        return Coordinate(latitude: origin.latitude + y / (3 * twice), longitude: origin.longitude + x / (3 * twice))
    }

    static func decode(_ blobs: MappedStructures) throws(PindropError) -> AreaIndex {
        guard blobs.has("area.level") else { return .empty }
        let levels: [UInt8] = try blobs.array("area.level"), adminLevels: [UInt8] = try blobs.array("area.admin_level")
        let text: [UInt8] = try blobs.array("area.text"), textStart: [UInt32] = try blobs.array("area.text_start")
        let ringStart: [Int32] = try blobs.array("area.ring_start"), areaRingStart: [Int32] = try blobs.array("area.area_ring_start")
        let coordinates: [Double] = try blobs.array("area.coordinates"), twins: [Int32] = try blobs.array("area.twin")
        let n = levels.count
        guard adminLevels.count == n, twins.count == n, textStart.count == n + 1, Int(textStart.last ?? 0) == text.count,
              areaRingStart.count == n + 1, areaRingStart.first == 0, Int(areaRingStart.last ?? -1) == ringStart.count - 1,
              ringStart.first == 0, zip(ringStart, ringStart.dropFirst()).allSatisfy({ $1 - $0 >= 4 }),
              areaRingStart.isAscending,
              textStart.isAscending,
              Int(ringStart.last ?? 0) * 2 == coordinates.count,
              levels.allSatisfy({ AreaLevel(rawValue: Int($0)) != nil }) else {
            throw .indexUnavailable("the index is corrupt: its areas do not agree; rebuild it")
        }
        var lats: [Double] = [], lons: [Double] = []
        lats.reserveCapacity(coordinates.count / 2); lons.reserveCapacity(coordinates.count / 2)
        for i in stride(from: 0, to: coordinates.count, by: 2) { lats.append(coordinates[i]); lons.append(coordinates[i + 1]) }
        var areas: [Area] = []
        for a in 0..<n {
            let bytes = text[Int(textStart[a])..<Int(textStart[a + 1])]
            let parts = bytes.split(separator: 0, omittingEmptySubsequences: false)
            let points = Int(ringStart[Int(areaRingStart[a])])..<Int(ringStart[Int(areaRingStart[a + 1])])
            let box = BoundingBox(covering: points.lazy.map { Coordinate(latitude: lats[$0], longitude: lons[$0]) })
                ?? BoundingBox(south: 0, west: 0, north: 0, east: 0)
            func part(_ i: Int) -> String? { i < parts.count && !parts[i].isEmpty ? String(decoding: parts[i], as: UTF8.self) : nil }
            areas.append(Area(id: part(0) ?? "", name: part(1) ?? "", level: AreaLevel(rawValue: Int(levels[a]))!,
                              adminLevel: Int(adminLevels[a]), box: box, postcode: part(2), placeType: part(3),
                              subdivisionCode: part(4)))
        }
        var index = AreaIndex(areas: areas, latitudes: lats, longitudes: lons, ringStart: ringStart, areaRingStart: areaRingStart)
        index.twins = twins
        return index
    }
}

extension BoundingBox {
    /// The box's size in square degrees, to order nested areas (the smaller is the finer).
    var degreeArea: Double { (north - south) * (east - west) }
}
