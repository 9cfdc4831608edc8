import Foundation

/// A place name drawn on the offline map ("Helsinki" at its point), for the web map's labels layer.
public struct MapLabel: Sendable, Hashable {
    /// The place's id ("geonames:658225"), so a label can be looked up.
    public var id: String
    public var name: String
    public var coordinate: Coordinate
    /// Drives both which labels win a crowded view and how large they are drawn.
    public var population: Int

    /// Makes a label.
    public init(id: String, name: String, coordinate: Coordinate, population: Int) {
        self.id = id; self.name = name; self.coordinate = coordinate; self.population = population
    }
}

/// A store that can name the places in a view of the map, the way a map's own labels do.
public protocol MapLabeling: Sendable {
    /// The labels to draw in `box` at web-map zoom `zoom`: the most important places first, none overlapping
    /// another at that zoom, at most `limit`.
    func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) async throws -> [MapLabel]
}

/// Picks the labels a view can show, from candidates in order of importance: a label is kept when its text box
/// (estimated from the name's length at that zoom, in screen pixels) overlaps no label kept before it. This is
/// what a map renderer does; doing it once on the server keeps the page's work and the answer small.
public struct MapLabelPlacement {
    public let zoom: Int
    public let limit: Int
    public private(set) var placed: [MapLabel] = []
    private var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []
    /// Kept boxes by the grid cells they touch, so a check looks at neighbours only.
    private var grid: [Int64: [Int]] = [:]
    private let scale: Double
    private static let cell = 64.0

    /// Starts an empty placement for web-map zoom `zoom` (0 ... 22).
    public init(zoom: Int, limit: Int) {
        self.zoom = max(0, min(22, zoom))
        self.limit = limit
        self.scale = 256 * pow(2, Double(self.zoom))
    }

    /// Whether the placement is full.
    public var isFull: Bool { placed.count >= limit }

    /// The smallest population a place needs to be named at this zoom: a world view names only the great
    /// cities, villages appear from zoom 10 (roughly where OpenStreetMap's map shows them).
    public static func minimumPopulation(zoom: Int) -> Int {
        switch zoom {
        case ...3: 2_000_000
        case 4: 500_000
        case 5: 150_000
        case 6: 50_000
        case 7: 15_000
        case 8: 5_000
        case 9: 1_000
        default: 0
        }
    }

    /// Offers the next most important candidate; returns whether it was kept.
    @discardableResult
    public mutating func offer(_ label: MapLabel) -> Bool {
        guard !isFull, label.population >= Self.minimumPopulation(zoom: zoom), !label.name.isEmpty else { return false }
        let box = textBox(label)
        let cells = cellsOf(box)
        for key in cells {
            for other in grid[key] ?? [] where overlaps(boxes[other], box) { return false }
        }
        for key in cells { grid[key, default: []].append(boxes.count) }
        boxes.append(box)
        placed.append(label)
        return true
    }

    /// Screen pixels of the label's text, centred on its point, with a margin: text about 0.6 em a letter,
    /// in the size the web page draws it (app.css, `.map-label`).
    private func textBox(_ label: MapLabel) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        let (x, y) = pixel(label.coordinate)
        let fontSize = label.population >= 1_000_000 ? 15.0 : label.population >= 100_000 ? 13 : 12
        let halfWidth = (Double(label.name.count) * fontSize * 0.6 + 12) / 2
        let halfHeight = fontSize * 0.75 + 4
        return (x - halfWidth, y - halfHeight, x + halfWidth, y + halfHeight)
    }

    /// Web Mercator pixel coordinates at this zoom.
    private func pixel(_ c: Coordinate) -> (Double, Double) {
        let latitude = max(-85.05, min(85.05, c.latitude)) * .pi / 180
        let x = (c.longitude + 180) / 360 * scale
        let y = (1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * scale
        return (x, y)
    }

    private func cellsOf(_ b: (x0: Double, y0: Double, x1: Double, y1: Double)) -> [Int64] {
        var keys: [Int64] = []
        for cx in Int64((b.x0 / Self.cell).rounded(.down))...Int64((b.x1 / Self.cell).rounded(.down)) {
            for cy in Int64((b.y0 / Self.cell).rounded(.down))...Int64((b.y1 / Self.cell).rounded(.down)) {
                keys.append(cx << 32 ^ cy)
            }
        }
        return keys
    }

    private func overlaps(_ a: (x0: Double, y0: Double, x1: Double, y1: Double),
                          _ b: (x0: Double, y0: Double, x1: Double, y1: Double)) -> Bool {
        a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
    }
}
