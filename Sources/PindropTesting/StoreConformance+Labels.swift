import PindropCore

extension StoreConformance {
    /// The offline map's place names: what a store offers for a view, checked against the imported rows.
    static let labelChecks: [Check] = [
        Check(description: "map labels: the biggest place of a view first, all inside it, biggest first, none below the zoom's size") { s in
            let box = BoundingBox(south: 58, west: 19, north: 62, east: 31)
            let labels = try await s.store.mapLabels(in: box, zoom: 8, limit: 200)
            let biggest = s.data.places.filter { box.contains(Coordinate(latitude: $0.latitude, longitude: $0.longitude)) }
                .max { $0.population < $1.population }
            try require(labels.first?.id == biggest.map { "geonames:\($0.geonameID)" },
                        "the first label is \(String(describing: labels.first?.name)), the biggest place is \(String(describing: biggest?.name))")
            try require(labels.contains { $0.name == "Helsinki" } && labels.count > 20, "\(labels.count) labels: \(labels.prefix(5).map(\.name))")
            try require(labels.allSatisfy { box.contains($0.coordinate) }, "a label outside the view")
            try require(zip(labels, labels.dropFirst()).allSatisfy { $0.population >= $1.population }, "labels not biggest first")
            try require(labels.allSatisfy { $0.population >= MapLabelPlacement.minimumPopulation(zoom: 8) }, "a village on a zoom-8 view")
            let world = try await s.store.mapLabels(in: BoundingBox(south: -85, west: -180, north: 85, east: 180), zoom: 2, limit: 50)
            try require(!world.isEmpty && world.count <= 50 && world.allSatisfy { $0.population >= 2_000_000 },
                        "the world view named \(world.count) places, smallest \(world.map(\.population).min() ?? 0)")
            let city = try await s.store.mapLabels(in: BoundingBox(south: 60.13, west: 24.85, north: 60.21, east: 25.03), zoom: 13, limit: 200)
            try require(city.contains { $0.name == "Kallio" } && city.contains { $0.name == "Helsinki" },
                        "Helsinki at zoom 13 names \(city.map(\.name))")
        },
    ]
}
