import PindropCore

/// The shapes of the street-level map (streets, buildings, water, waterways, parks, land use, railways), for drawing;
/// found by bounding box. Kept flat, as the structures file holds them (in an open index, its mapped columns): a
/// feature is made into a `MapFeature` only when a view asks for it, so opening a country's streets reads no shape
/// one by one.
struct StreetMapShapes: Sendable {
    /// The kinds stored, each as its position here (the file's `map.kind` bytes): 0 a street, 1 a building, 2 water,
    /// 3 a waterway, 4 a park, 5 land use, 6 a railway. Append only: the numbers are the file's.
    static let storedKinds: [MapFeature.Kind] = [.street, .building, .water, .waterway, .park, .landuse, .railway]

    /// Per feature, streets first, its kind's position in `storedKinds`.
    let kinds: Column<UInt8>
    /// Per feature, its lines (a building's rings); per line, its points.
    let lineCounts: Column<UInt32>, pointCounts: Column<UInt32>
    /// Latitude, longitude of every point, line after line.
    let coordinates: Column<Double>
    /// Per feature, its id, category and name (`PlaceTable.appendExtras`), read through `labels.extras`.
    let labels: PlaceTable
    /// Where each feature's lines start (`lineStart[f] ..< lineStart[f + 1]`), and each line's points.
    let lineStart: [Int32], pointStart: [Int32]
    /// south, west, north, east per feature.
    let boxes: [BoundingBox]
    /// The boxes by grid cell, so neither a point nor a view scans every feature.
    let grid: BoxGrid

    /// From the columns; they must agree (`decode` checks).
    init(kinds: Column<UInt8>, lineCounts: Column<UInt32>, pointCounts: Column<UInt32>, coordinates: Column<Double>,
                 text: Column<UInt8>, textStart: Column<UInt32>) {
        self.kinds = kinds; self.lineCounts = lineCounts; self.pointCounts = pointCounts; self.coordinates = coordinates
        labels = PlaceTable(geonameID: [], latitude: [], longitude: [], population: [], country: [], admin1: [],
                            nameStart: [0], nameBytes: [], kind: [], extraStart: textStart, extraBytes: text, countries: [], admin1s: [])
        var lineStart: [Int32] = [0], pointStart: [Int32] = [0], boxes: [BoundingBox] = []
        lineStart.reserveCapacity(kinds.count + 1); pointStart.reserveCapacity(pointCounts.count + 1); boxes.reserveCapacity(kinds.count)
        for n in lineCounts { lineStart.append(lineStart[lineStart.count - 1] + Int32(n)) }
        for n in pointCounts { pointStart.append(pointStart[pointStart.count - 1] + Int32(n)) }
        for f in 0..<kinds.count {
            let points = Int(pointStart[Int(lineStart[f])])..<Int(pointStart[Int(lineStart[f + 1])])
            boxes.append(BoundingBox(covering: points.lazy.map { Self.point($0, of: coordinates) }) ?? BoundingBox(south: 0, west: 0, north: 0, east: 0))
        }
        self.lineStart = lineStart; self.pointStart = pointStart; self.boxes = boxes
        grid = BoxGrid(boxes: boxes)
    }

    /// How many features there are.
    var count: Int { kinds.count }

    /// Whether feature `f` is a building (else a street).
    func isBuilding(_ f: Int) -> Bool { kinds[f] == 1 }

    /// Point `p` (an index into the points of every line).
    private func point(_ p: Int) -> Coordinate { Self.point(p, of: coordinates) }

    private static func point(_ p: Int, of coordinates: Column<Double>) -> Coordinate {
        Coordinate(latitude: coordinates[2 * p], longitude: coordinates[2 * p + 1])
    }

    /// Whether a point is inside feature `f`'s outline (even-odd rule over its rings; lat/lon as a plane,
    /// fine at building size).
    func contains(_ c: Coordinate, feature f: Int) -> Bool {
        var inside = false
        for line in Int(lineStart[f])..<Int(lineStart[f + 1]) {
            let ring = Int(pointStart[line])..<Int(pointStart[line + 1])
            guard ring.count >= 3 else { continue }
            var j = ring.upperBound - 1
            for i in ring {
                let a = point(i), b = point(j)
                if (a.latitude > c.latitude) != (b.latitude > c.latitude),
                   c.longitude < (b.longitude - a.longitude) * (c.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude {
                    inside.toggle()
                }
                j = i
            }
        }
        return inside
    }

    /// Feature `f`'s kind.
    func kind(_ f: Int) -> MapFeature.Kind { Self.storedKinds[Int(kinds[f])] }

    /// Feature `f` as an answer.
    func feature(_ f: Int) -> MapFeature {
        let lines = (Int(lineStart[f])..<Int(lineStart[f + 1])).map { line in
            (Int(pointStart[line])..<Int(pointStart[line + 1])).map(point)
        }
        let extras = labels.extras(f)
        return MapFeature(kind: kind(f), id: extras?.id ?? "", name: extras?.address.street, category: extras?.category, lines: lines)
    }

    /// The streets (`highway` ways) whose box meets `box` and whose name folds to `folded`, in stored order.
    func streets(named folded: String, in box: BoundingBox) -> [MapFeature] {
        let candidates: [Int] = grid.candidates(overlapping: box)?.map { Int($0) } ?? Array(boxes.indices)
        return candidates.compactMap { i in
            guard kind(i) == .street, boxes[i].south <= box.north, boxes[i].north >= box.south, boxes[i].west <= box.east,
                  boxes[i].east >= box.west, let name = labels.extras(i)?.address.street, TextFolding.fold(name) == folded else { return nil }
            return feature(i)
        }
    }

    /// The features whose box meets `box`, in stored order (streets first), at most `limit`; with a `zoom`, only
    /// those the map draws at that zoom (`MapDetail.isDrawn`).
    func features(in box: BoundingBox, zoom: Int?, limit: Int) -> [MapFeature] {
        var found: [MapFeature] = []
        let candidates: [Int] = grid.candidates(overlapping: box)?.map { Int($0) } ?? Array(boxes.indices)
        for i in candidates where boxes[i].south <= box.north && boxes[i].north >= box.south
            && boxes[i].west <= box.east && boxes[i].east >= box.west {
            if let zoom, !MapDetail.isDrawn(kind(i), labels.category(i), box: boxes[i], zoom: zoom) { continue }
            found.append(feature(i))
            if found.count == limit { break }
        }
        return found
    }

    static func decode(_ blobs: MappedStructures) throws(PindropError) -> StreetMapShapes {
        let kinds: Column<UInt8> = try blobs.column("map.kind"), lineCounts: Column<UInt32> = try blobs.column("map.line_count")
        let pointCounts: Column<UInt32> = try blobs.column("map.point_count"), coordinates: Column<Double> = try blobs.column("map.coordinates")
        let text: Column<UInt8> = try blobs.column("map.text"), textStart: Column<UInt32> = try blobs.column("map.text_start")
        guard kinds.count == lineCounts.count, textStart.count == kinds.count + 1, kinds.allSatisfy({ Int($0) < storedKinds.count }),
              lineCounts.reduce(0, { $0 + Int($1) }) == pointCounts.count, pointCounts.reduce(0, { $0 + Int($1) }) * 2 == coordinates.count,
              coordinates.count < Int(Int32.max), Int(textStart.last ?? 0) == text.count,
              zip(textStart, textStart.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw .indexUnavailable("the index is corrupt: street map shapes do not agree")
        }
        return StreetMapShapes(kinds: kinds, lineCounts: lineCounts, pointCounts: pointCounts, coordinates: coordinates,
                               text: text, textStart: textStart)
    }
}
