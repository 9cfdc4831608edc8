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
    /// Where each feature's lines start (`lineStart[f] ..< lineStart[f + 1]`), and each line's points.
    let lineStart: Column<Int32>, pointStart: Column<Int32>
    /// Latitude, longitude of every point, line after line.
    let coordinates: Column<Double>
    /// Per feature, its id, category and name (`PlaceTable.appendExtras`), read through `labels.extras`.
    let labels: PlaceTable
    /// South, west, north, east of each feature, one after another (`boxes[f]`).
    let boxCorners: Column<Double>
    /// The boxes by grid cell, so neither a point nor a view scans every feature.
    let grid: BoxGrid

    /// From the columns; they must agree (`decode` checks).
    init(kinds: Column<UInt8>, lineStart: Column<Int32>, pointStart: Column<Int32>, coordinates: Column<Double>,
         text: Column<UInt8>, textStart: Column<UInt32>, boxCorners: Column<Double>, grid: BoxGrid) {
        self.kinds = kinds; self.lineStart = lineStart; self.pointStart = pointStart; self.coordinates = coordinates
        labels = PlaceTable(geonameID: [], latitude: [], longitude: [], population: [], country: [], admin1: [],
                            nameStart: [0], nameBytes: [], kind: [], extraStart: textStart, extraBytes: text, countries: [], admin1s: [])
        self.boxCorners = boxCorners; self.grid = grid
    }

    /// Feature f's box.
    @inline(__always)
    func box(_ f: Int) -> BoundingBox {
        BoundingBox(south: boxCorners[4 * f], west: boxCorners[4 * f + 1], north: boxCorners[4 * f + 2], east: boxCorners[4 * f + 3])
    }

    /// How many features there are.
    var count: Int { kinds.count }

    /// Whether feature `f` is a building (else a street).
    func isBuilding(_ f: Int) -> Bool { kinds[f] == 1 }

    /// Point `p` (an index into the points of every line).
    private func point(_ p: Int) -> Coordinate { Coordinate(latitude: coordinates[2 * p], longitude: coordinates[2 * p + 1]) }

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

    /// The streets (`highway` ways) whose box meets `box` and whose name folds to `folded`, in stored order, but for
    /// those `skipping` holds.
    func streets(named folded: String, in box: BoundingBox, skipping: RowMask = .none) -> [MapFeature] {
        let candidates: [Int] = grid.candidates(overlapping: box)?.map { Int($0) } ?? Array(0..<count)
        return candidates.compactMap { i in
            let b = self.box(i)
            guard kind(i) == .street, !skipping.contains(i), b.south <= box.north, b.north >= box.south, b.west <= box.east, b.east >= box.west, let name = labels.extras(i)?.address.street, TextFolding.fold(name) == folded else { return nil }
            return feature(i)
        }
    }

    /// The features whose box meets `box`, in stored order (streets first), at most `limit`, but for those `skipping`
    /// holds; with a `zoom`, only those the map draws at that zoom (`MapDetail.isDrawn`).
    func features(in box: BoundingBox, zoom: Int?, limit: Int, skipping: RowMask = .none) -> [MapFeature] {
        var found: [MapFeature] = []
        let candidates: [Int] = grid.candidates(overlapping: box)?.map { Int($0) } ?? Array(0..<count)
        for i in candidates where !skipping.contains(i) {
            let b = self.box(i)
            guard b.south <= box.north && b.north >= box.south && b.west <= box.east && b.east >= box.west else { continue }
            if let zoom, !MapDetail.isDrawn(kind(i), labels.category(i), box: b, zoom: zoom) { continue }
            found.append(feature(i))
            if found.count == limit { break }
        }
        return found
    }

    /// The stored shapes. Opening checks what costs nothing per value (`valuesAreValid` checks the rest).
    static func decode(_ blobs: MappedStructures) throws(PindropError) -> StreetMapShapes {
        let kinds: Column<UInt8> = try blobs.column("map.kind")
        let lineStart: Column<Int32> = try blobs.column("map.line_start"), pointStart: Column<Int32> = try blobs.column("map.point_start")
        let coordinates: Column<Double> = try blobs.column("map.coordinates")
        let text: Column<UInt8> = try blobs.column("map.text"), textStart: Column<UInt32> = try blobs.column("map.text_start")
        let grid = BoxGrid(cellDegrees: BoxGrid.streetCellDegrees, keys: try blobs.column("map.grid_keys"), cellStart: try blobs.column("map.grid_start"),
                           cellBoxes: try blobs.column("map.grid_boxes"), large: try blobs.column("map.grid_large"), boxCount: kinds.count)
        let shapes = StreetMapShapes(kinds: kinds, lineStart: lineStart, pointStart: pointStart, coordinates: coordinates, text: text,
                                     textStart: textStart, boxCorners: try blobs.column("map.boxes"), grid: grid)
        guard lineStart.count == kinds.count + 1, lineStart.first == 0, pointStart.first == 0, Int(lineStart.last!) == pointStart.count - 1,
              Int(pointStart.last!) * 2 == coordinates.count, coordinates.count < Int(Int32.max), textStart.count == kinds.count + 1,
              Int(textStart.last ?? 0) == text.count, shapes.boxCorners.count == 4 * kinds.count, grid.agrees() else {
            throw .indexUnavailable("the index is corrupt: street map shapes do not agree")
        }
        return shapes
    }

    /// Whether every value is in range: kinds, ascending offsets, the grid's boxes (a pass over all of them, which an
    /// import makes of what it wrote).
    func valuesAreValid() -> Bool {
        kinds.allSatisfy { Int($0) < Self.storedKinds.count } && lineStart.isAscending && pointStart.isAscending
            && labels.extraStart.isAscending && grid.valuesAreValid()
    }
}
