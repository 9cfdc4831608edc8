import PindropCore

/// A small, fixed set of real places (GeoNames ids and coordinates) for tests and demos, in the order a
/// search for "Paris" should list them; one has a hostile name to prove the web app escapes names.
public enum SamplePlaces {
    /// Paris, France.
    public static let parisFrance = town(2_988_507, "Paris", "Île-de-France", "France", "FR", at: (48.85341, 2.3488), population: 2_138_551)
    /// Paris, Texas.
    public static let parisTexas = town(4_717_560, "Paris", "Texas", "United States", "US", at: (33.66094, -95.55551), population: 24_782)
    /// Paris, Ontario.
    public static let parisOntario = town(6_099_250, "Paris", "Ontario", "Canada", "CA", at: (43.2, -80.38333), population: 11_177)
    /// Helsinki, Finland.
    public static let helsinki = town(658_225, "Helsinki", "Uusimaa", "Finland", "FI", at: (60.16952, 24.93545), population: 558_457)
    /// A street address in Helsinki, with its structured parts.
    public static let mannerheimintie = Place(
        id: "osm:node/2000000001", name: "Mannerheimintie 5", displayName: "Mannerheimintie 5, 00100 Helsinki",
        coordinate: Coordinate(latitude: 60.16835, longitude: 24.94010), countryCode: "FI", admin1: "Uusimaa",
        address: Address(houseNumber: "5", street: "Mannerheimintie", postcode: "00100", town: "Helsinki"),
        source: "embedded")
    /// Zürich, Switzerland (a folded-text case).
    public static let zurich = town(2_657_896, "Zürich", "Zurich", "Switzerland", "CH", at: (47.36667, 8.55), population: 341_730)
    /// A place whose name is markup; the web app must show it as text.
    public static let hostile = Place(
        id: "test:hostile", name: "<img src=x onerror=alert(1)>", displayName: "<img src=x onerror=alert(1)> Hostile Town",
        coordinate: Coordinate(latitude: 10, longitude: 10), source: "test")

    /// All of them, in engine order.
    public static let all: [Place] = [parisFrance, parisTexas, parisOntario, helsinki, mannerheimintie, zurich, hostile]

    /// A GeoNames town as the embedded store holds it, shown as "name, admin1, country".
    private static func town(_ geonameID: Int, _ name: String, _ admin1: String, _ country: String, _ countryCode: String,
                             at coordinate: (latitude: Double, longitude: Double), population: Int) -> Place {
        Place(id: "geonames:\(geonameID)", name: name, displayName: "\(name), \(admin1), \(country)",
              coordinate: Coordinate(latitude: coordinate.latitude, longitude: coordinate.longitude),
              countryCode: countryCode, admin1: admin1, population: population, source: "embedded")
    }
}
