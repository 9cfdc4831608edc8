import PindropCore

/// The street an object lies on where its tags name none: the named street nearest it within `reachMeters`, as
/// Nominatim gives a house or a venue without `addr:street` the nearest road as its parent.
struct OSMParentStreets {
    /// How far a street may be: beyond it an object belongs to no street (a hut on a mountain).
    static let reachMeters = 200.0
    /// Points along the streets about this far apart, so the nearest point stands for the nearest street.
    static let stepMeters = 10.0

    private let points: OSMNearestPoints
    /// The street each point lies along (an index into `names`), and the streets' names.
    private let streetOfPoint: [Int32]
    private let names: [String]

    init(_ streets: [OSMStreet]) {
        var points: [Coordinate] = [], streetOfPoint: [Int32] = []
        for (s, street) in streets.enumerated() {
            for (a, b) in zip(street.points, street.points.dropFirst()) {
                let steps = max(1, Int((a.distance(to: b) / Self.stepMeters).rounded(.up)))
                for i in 0..<steps {
                    let t = Double(i) / Double(steps)
                    points.append(Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * t,
                                             longitude: a.longitude + (b.longitude - a.longitude) * t))
                    streetOfPoint.append(Int32(s))
                }
            }
            if let last = street.points.last { points.append(last); streetOfPoint.append(Int32(s)) }
        }
        self.points = OSMNearestPoints(points, radiusMeters: Self.reachMeters)
        self.streetOfPoint = streetOfPoint
        names = streets.map(\.name)
    }

    /// The name of the street nearest `c`, or nil when none is within reach.
    func street(near c: Coordinate) -> String? { points.nearest(to: c).map { names[Int(streetOfPoint[$0])] } }
}
