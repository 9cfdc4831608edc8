import PindropCore

/// The street an object lies on where its tags name none: the named street nearest it within `reachMeters`, as
/// Nominatim gives a house or a venue without `addr:street` the nearest road as its parent.
struct OSMParentStreets {
    /// How far a street may be: beyond it an object belongs to no street (a hut on a mountain).
    static let reachMeters = 200.0
    /// Points along the streets about this far apart, so the nearest point stands for the nearest street.
    static let stepMeters = 10.0

    private let points: OSMNearestAddressFinder

    init(_ streets: [OSMStreet]) {
        var points: [OSMAddressPoint] = []
        for street in streets {
            let address = Address(street: street.name)
            for (a, b) in zip(street.points, street.points.dropFirst()) {
                let steps = max(1, Int((a.distance(to: b) / Self.stepMeters).rounded(.up)))
                for i in 0..<steps {
                    let t = Double(i) / Double(steps)
                    let c = Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * t,
                                       longitude: a.longitude + (b.longitude - a.longitude) * t)
                    points.append(OSMAddressPoint(id: street.id, coordinate: c, address: address))
                }
            }
            if let last = street.points.last { points.append(OSMAddressPoint(id: street.id, coordinate: last, address: address)) }
        }
        self.points = OSMNearestAddressFinder(points, radiusMeters: Self.reachMeters)
    }

    /// The name of the street nearest `c`, or nil when none is within reach.
    func street(near c: Coordinate) -> String? { points.address(near: c)?.street }
}
