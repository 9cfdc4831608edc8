import Foundation

/// Nominatim's layers: the kinds of object a search or a reverse keeps (`layer=address,poi`).
public enum PlaceLayer: String, Sendable, Hashable, CaseIterable {
    /// Places an address is made of: countries, states, towns, suburbs, streets, and the addresses themselves.
    case address
    /// Points of interest: shops, restaurants, museums, post boxes…
    case poi
    /// Railway features: stations, halts, tracks.
    case railway
    /// Natural features: peaks, lakes, rivers and streams, woods.
    case natural
    /// Every other feature people made: bridges, towers, parks, landuse, boundaries beyond the address ones.
    case manmade

    /// The layers of a comma-separated list ("address,poi"), in any case; an empty list is none. Throws
    /// `.invalidInput` naming the layers there are for a name that is none of them.
    public static func layers(parsing list: String) throws(PindropError) -> Set<PlaceLayer> {
        var layers: Set<PlaceLayer> = []
        for item in list.split(separator: ",") {
            let name = item.trimmingCharacters(in: .whitespaces).lowercased()
            guard !name.isEmpty else { continue }
            guard let layer = PlaceLayer(rawValue: name) else {
                let known = allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidInput("Parameter 'layer' must be a comma-separated list of: \(known); got \"\(name.prefix(40))\".")
            }
            layers.insert(layer)
        }
        return layers
    }

    /// The layer of an object by its OSM class (Nominatim's `class`: "amenity", "natural", "highway"…) and whether it
    /// has a place in the address hierarchy (an address rank above 0, as towns, streets and addresses have), as
    /// Nominatim's layer filter reads them: the address layer holds the address hierarchy except POIs (rank 30 of a
    /// class other than place and building); railway, natural (with water and waterway) and manmade hold the rest.
    public static func of(osmClass: String, addressRank: Int) -> PlaceLayer {
        if addressRank == 30 { return osmClass == "place" || osmClass == "building" ? .address : .poi }
        if addressRank > 0 { return .address }
        switch osmClass {
        case "railway": return .railway
        case "natural", "water", "waterway": return .natural
        default: return .manmade
        }
    }
}

/// Nominatim's `featureType`: a search for one level of the address hierarchy only.
public enum FeatureType: String, Sendable, Hashable, CaseIterable {
    case country, state, city, settlement

    /// The search ranks it keeps (Nominatim's `FEATURE_TYPE_TO_RANK`): a country 4, a state 8, a city 14 … 16, a
    /// settlement (anything from a state down to a village) 8 … 20.
    public var ranks: ClosedRange<Int> {
        switch self {
        case .country: 4...4
        case .state: 8...8
        case .city: 14...16
        case .settlement: 8...20
        }
    }
}
