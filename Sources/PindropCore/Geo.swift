import Foundation

/// A point on the WGS84 ellipsoid, in decimal degrees.
public struct Coordinate: Sendable, Hashable, Codable {
    /// Degrees north of the equator, -90...90.
    public var latitude: Double
    /// Degrees east of Greenwich, -180...180.
    public var longitude: Double

    /// Makes a coordinate without checking it; use `init(validatingLatitude:longitude:)` for user input.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Makes a coordinate from user input, rejecting values off the globe.
    public init(validatingLatitude latitude: Double, longitude: Double) throws(PindropError) {
        guard latitude.isFinite, (-90...90).contains(latitude) else {
            throw .invalidInput("latitude \(Coordinate.format(latitude)) is outside -90...90")
        }
        guard longitude.isFinite, (-180...180).contains(longitude) else {
            throw .invalidInput("longitude \(Coordinate.format(longitude)) is outside -180...180")
        }
        self.init(latitude: latitude, longitude: longitude)
    }

    /// Parses "lat,lon" or "lat lon" (as typed on a command line or a batch line).
    public init(parsing text: some StringProtocol) throws(PindropError) {
        let parts = text.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" })
        guard parts.count == 2, let lat = DecimalNumber.parse(parts[0]), let lon = DecimalNumber.parse(parts[1]) else {
            throw .invalidInput("expected a point as \"LAT,LON\" or \"LAT LON\", got \"\(text.prefix(60))\"")
        }
        try self.init(validatingLatitude: lat, longitude: lon)
    }

    /// Great-circle distance in metres (haversine on a sphere of the mean Earth radius).
    public func distance(to other: Coordinate) -> Double {
        Geo.haversineMeters(latitude, longitude, other.latitude, other.longitude)
    }

    static func format(_ value: Double) -> String { value.isFinite ? String(value) : "\(value)" }
}

/// A latitude/longitude rectangle; `west > east` means it crosses the antimeridian.
public struct BoundingBox: Sendable, Hashable, Codable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    /// Makes a box from its edges in degrees.
    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south; self.west = west; self.north = north; self.east = east
    }

    /// The smallest box holding every coordinate, or nil for none. Inlinable, so that a caller's sequence (the
    /// joined lines of every street map shape, read at open) is walked without a generic call per coordinate.
    @inlinable
    public init?(covering coordinates: some Sequence<Coordinate>) {
        var iterator = coordinates.makeIterator()
        guard let first = iterator.next() else { return nil }
        self.init(south: first.latitude, west: first.longitude, north: first.latitude, east: first.longitude)
        while let c = iterator.next() {
            south = min(south, c.latitude); north = max(north, c.latitude)
            west = min(west, c.longitude); east = max(east, c.longitude)
        }
    }

    /// Whether the box holds the coordinate.
    public func contains(_ c: Coordinate) -> Bool {
        guard (south...north).contains(c.latitude) else { return false }
        return west <= east ? (west...east).contains(c.longitude) : (c.longitude >= west || c.longitude <= east)
    }
}

/// Spherical-Earth geometry shared by every store and provider.
public enum Geo {
    /// Mean Earth radius (IUGG), metres.
    public static let earthRadiusMeters = 6_371_008.8

    /// Great-circle distance in metres between two points given in degrees.
    @inlinable
    public static func haversineMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let p1 = lat1 * .pi / 180, p2 = lat2 * .pi / 180
        let dp = p2 - p1, dl = (lon2 - lon1) * .pi / 180
        let s1 = sin(dp / 2), s2 = sin(dl / 2)
        let a = s1 * s1 + cos(p1) * cos(p2) * s2 * s2
        return 2 * earthRadiusMeters * asin(min(1, a.squareRoot()))
    }

    /// Straight-line (chord) length through the unit sphere for a great-circle distance; monotonic, so
    /// nearest-by-chord is nearest-by-great-circle.
    @inlinable
    public static func unitChord(forMeters meters: Double) -> Double {
        2 * sin(min(meters / earthRadiusMeters, .pi) / 2)
    }

    /// Great-circle metres for a chord length on the unit sphere.
    @inlinable
    public static func meters(forUnitChord chord: Double) -> Double {
        2 * asin(min(1, chord / 2)) * earthRadiusMeters
    }

    /// The point on the unit sphere for a coordinate, as (x, y, z).
    @inlinable
    public static func unitVector(latitude: Double, longitude: Double) -> (Double, Double, Double) {
        let p = latitude * .pi / 180, l = longitude * .pi / 180
        let c = cos(p)
        return (c * cos(l), c * sin(l), sin(p))
    }
}
