import GRDB
import PindropCore

/// How a `Place` is laid out in the user data tables: one column per field, coordinates and the bounding box as
/// columns of their own (and, since "v2 users", the owner's `user_id` before them, which the statements bind
/// themselves). Every field a place has is stored, so a saved place reads back as it was saved.
enum UserDataPlaceColumns {
    static let all = ["id", "name", "display_name", "latitude", "longitude", "country_code", "admin1", "population",
                      "category", "house_number", "street", "postcode", "town", "source",
                      "suburb", "county", "state", "country", "category_key", "kind",
                      "box_south", "box_west", "box_north", "box_east", "neighbourhood", "address_place", "town_kind", "tags"]

    /// The v1 tables' place columns, as the v1 migrations made them: frozen, never edit.
    static let definitions = """
        id TEXT PRIMARY KEY NOT NULL,
        name TEXT NOT NULL,
        display_name TEXT NOT NULL,
        latitude REAL NOT NULL,
        longitude REAL NOT NULL,
        country_code TEXT,
        admin1 TEXT,
        population INTEGER NOT NULL DEFAULT 0,
        category TEXT,
        house_number TEXT,
        street TEXT,
        postcode TEXT,
        town TEXT,
        source TEXT
        """

    /// The columns "v3 whole places" adds to both tables: frozen, never edit.
    static let addedInV3 = ["suburb TEXT", "county TEXT", "state TEXT", "country TEXT", "category_key TEXT", "kind TEXT",
                            "box_south REAL", "box_west REAL", "box_north REAL", "box_east REAL",
                            "neighbourhood TEXT", "address_place TEXT", "town_kind TEXT", "tags TEXT"]

    static let names = all.joined(separator: ", ")
    static let placeholders = all.map { _ in "?" }.joined(separator: ", ")
    static let updates = all.dropFirst().map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    /// The place's values, in the order of `all`.
    static func values(_ place: Place) -> [DatabaseValue] {
        let a = place.address, box = place.boundingBox
        let values: [(any DatabaseValueConvertible)?] = [
            place.id, place.name, place.displayName, place.coordinate.latitude, place.coordinate.longitude,
            place.countryCode, place.admin1, place.population, place.category,
            a?.houseNumber, a?.street, a?.postcode, a?.town, place.source,
            a?.suburb, a?.county, a?.state, a?.country, place.categoryKey, place.kind?.rawValue,
            box?.south, box?.west, box?.north, box?.east, a?.neighbourhood, a?.place, a?.townKind, PlaceTags.text(place.tags)]
        return values.map { $0?.databaseValue ?? .null }
    }

    static func arguments(_ place: Place) -> StatementArguments { StatementArguments(values(place)) }

    static func place(_ row: Row) -> Place {
        let address = Address(houseNumber: row["house_number"], street: row["street"], postcode: row["postcode"], town: row["town"],
                              suburb: row["suburb"], county: row["county"], state: row["state"], country: row["country"],
                              neighbourhood: row["neighbourhood"], place: row["address_place"], townKind: row["town_kind"])
        let box: BoundingBox? = if let south: Double = row["box_south"], let west: Double = row["box_west"],
                                   let north: Double = row["box_north"], let east: Double = row["box_east"] {
            BoundingBox(south: south, west: west, north: north, east: east)
        } else {
            nil
        }
        var place = Place(id: row["id"], name: row["name"], displayName: row["display_name"],
                     coordinate: Coordinate(latitude: row["latitude"], longitude: row["longitude"]),
                     countryCode: row["country_code"], admin1: row["admin1"], population: row["population"],
                     category: row["category"], address: address.isEmpty ? nil : address, source: row["source"],
                     boundingBox: box, kind: (row["kind"] as String?).flatMap(PlaceKind.init(rawValue:)),
                     categoryKey: row["category_key"])
        place.tags = PlaceTags.tags(text: row["tags"])
        return place
    }
}
