/// A line or polygon for drawing the offline street-level basemap (streets and buildings).
public struct MapFeature: Sendable, Hashable {
    /// What the feature is.
    public enum Kind: String, Sendable, Hashable { case street, building }

    public var kind: Kind
    /// "osm:way/123".
    public var id: String
    public var name: String?
    /// For streets the `highway` value ("residential", "primary"); for buildings the `building` value.
    public var category: String?
    /// A street: one line. A building: its closed outer rings.
    public var lines: [[Coordinate]]

    /// Makes a feature.
    public init(kind: Kind, id: String, name: String?, category: String?, lines: [[Coordinate]]) {
        self.kind = kind; self.id = id; self.name = name; self.category = category; self.lines = lines
    }
}

/// A store that can hand out the streets and buildings inside a box (for the web map at street zoom).
public protocol StreetMapping: Sendable {
    /// Streets and buildings intersecting `box`, at most `limit` of them (streets first).
    func streetMap(in box: BoundingBox, limit: Int) async throws -> [MapFeature]
    /// Credits the street data requires ("© OpenStreetMap contributors"); empty when there is none.
    var streetAttribution: [String] { get }
}
