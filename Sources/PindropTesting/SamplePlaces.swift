import PindropCore

/// A small, fixed set of real places (GeoNames ids and coordinates) for tests and demos, in the order a
/// search for "Paris" should list them; one has a hostile name to prove the web app escapes names.
public enum SamplePlaces {
    /// Paris, France.
    public static let parisFrance = Place(
        id: "geonames:2988507", name: "Paris", displayName: "Paris, Île-de-France, France",
        coordinate: Coordinate(latitude: 48.85341, longitude: 2.3488), countryCode: "FR", admin1: "Île-de-France",
        population: 2_138_551, source: "embedded")
    /// Paris, Texas.
    public static let parisTexas = Place(
        id: "geonames:4717560", name: "Paris", displayName: "Paris, Texas, United States",
        coordinate: Coordinate(latitude: 33.66094, longitude: -95.55551), countryCode: "US", admin1: "Texas",
        population: 24_782, source: "embedded")
    /// Paris, Ontario.
    public static let parisOntario = Place(
        id: "geonames:6099250", name: "Paris", displayName: "Paris, Ontario, Canada",
        coordinate: Coordinate(latitude: 43.2, longitude: -80.38333), countryCode: "CA", admin1: "Ontario",
        population: 11_177, source: "embedded")
    /// Helsinki, Finland.
    public static let helsinki = Place(
        id: "geonames:658225", name: "Helsinki", displayName: "Helsinki, Uusimaa, Finland",
        coordinate: Coordinate(latitude: 60.16952, longitude: 24.93545), countryCode: "FI", admin1: "Uusimaa",
        population: 558_457, source: "embedded")
    /// A street address in Helsinki, with its structured parts.
    public static let mannerheimintie = Place(
        id: "osm:node/2000000001", name: "Mannerheimintie 5", displayName: "Mannerheimintie 5, 00100 Helsinki",
        coordinate: Coordinate(latitude: 60.16835, longitude: 24.94010), countryCode: "FI", admin1: "Uusimaa",
        address: Address(houseNumber: "5", street: "Mannerheimintie", postcode: "00100", town: "Helsinki"),
        source: "embedded")
    /// Zürich, Switzerland (a folded-text case).
    public static let zurich = Place(
        id: "geonames:2657896", name: "Zürich", displayName: "Zürich, Zurich, Switzerland",
        coordinate: Coordinate(latitude: 47.36667, longitude: 8.55), countryCode: "CH", admin1: "Zurich",
        population: 341_730, source: "embedded")
    /// A place whose name is markup; the web app must show it as text.
    public static let hostile = Place(
        id: "test:hostile", name: "<img src=x onerror=alert(1)>", displayName: "<img src=x onerror=alert(1)> Hostile Town",
        coordinate: Coordinate(latitude: 10, longitude: 10), source: "test")

    /// All of them, in engine order.
    public static let all: [Place] = [parisFrance, parisTexas, parisOntario, helsinki, mannerheimintie, zurich, hostile]
}
