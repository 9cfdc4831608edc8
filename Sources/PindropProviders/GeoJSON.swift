import PindropCore

/// A GeoJSON FeatureCollection, as Photon and Mapbox answer; `Feature` is each provider's own feature.
struct GeoJSONFeatureCollection<Feature: Decodable>: Decodable {
    var features: [Feature]
}

/// A GeoJSON geometry read as a point: `coordinates` is [longitude, latitude].
struct GeoJSONPoint: Decodable {
    var coordinates: [Double]

    /// The point, or nil when the geometry is not a point on the globe.
    var coordinate: Coordinate? {
        guard coordinates.count >= 2 else { return nil }
        return try? Coordinate(validatingLatitude: coordinates[1], longitude: coordinates[0])
    }
}
