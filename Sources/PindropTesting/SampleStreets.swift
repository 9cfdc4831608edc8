import PindropCore

/// Streets and buildings for tests of the server and the web app's street basemap.
public enum SampleStreets {
    /// A few real streets and buildings of central Helsinki (coordinates from OpenStreetMap, simplified),
    /// one with a hostile name to prove names stay text.
    public static let helsinki: [MapFeature] = [
        MapFeature(kind: .street, id: "osm:way/4249003", name: "Mannerheimintie", category: "primary", lines: [[
            Coordinate(latitude: 60.16790, longitude: 24.94207), Coordinate(latitude: 60.16874, longitude: 24.93979),
            Coordinate(latitude: 60.17000, longitude: 24.93800), Coordinate(latitude: 60.17180, longitude: 24.93570),
        ]]),
        MapFeature(kind: .street, id: "osm:way/8040416", name: "Aleksanterinkatu", category: "tertiary", lines: [[
            Coordinate(latitude: 60.16880, longitude: 24.94050), Coordinate(latitude: 60.16905, longitude: 24.94600),
            Coordinate(latitude: 60.16930, longitude: 24.95200),
        ]]),
        MapFeature(kind: .street, id: "osm:way/25708570", name: "Keskuskatu", category: "pedestrian", lines: [[
            Coordinate(latitude: 60.16890, longitude: 24.94330), Coordinate(latitude: 60.17060, longitude: 24.94250),
        ]]),
        MapFeature(kind: .street, id: "osm:way/666", name: "<img src=x onerror=alert(1)>katu", category: "residential", lines: [[
            Coordinate(latitude: 60.16700, longitude: 24.93500), Coordinate(latitude: 60.16650, longitude: 24.94000),
        ]]),
        MapFeature(kind: .building, id: "osm:way/37765536", name: "Stockmann", category: "retail", lines: [[
            Coordinate(latitude: 60.16880, longitude: 24.94080), Coordinate(latitude: 60.16950, longitude: 24.94060),
            Coordinate(latitude: 60.16960, longitude: 24.94260), Coordinate(latitude: 60.16890, longitude: 24.94280),
            Coordinate(latitude: 60.16880, longitude: 24.94080),
        ]]),
        MapFeature(kind: .building, id: "osm:way/8042090", name: nil, category: "yes", lines: [
            [Coordinate(latitude: 60.17010, longitude: 24.94000), Coordinate(latitude: 60.17040, longitude: 24.94000),
             Coordinate(latitude: 60.17040, longitude: 24.94060), Coordinate(latitude: 60.17010, longitude: 24.94060)],
            [Coordinate(latitude: 60.17050, longitude: 24.94000), Coordinate(latitude: 60.17070, longitude: 24.94000),
             Coordinate(latitude: 60.17070, longitude: 24.94040), Coordinate(latitude: 60.17050, longitude: 24.94000)],
        ]),
        MapFeature(kind: .street, id: "osm:way/1", name: "Rue de Rivoli", category: "primary", lines: [[
            Coordinate(latitude: 48.8606, longitude: 2.3376), Coordinate(latitude: 48.8565, longitude: 2.3540),
        ]]),
    ]
}
