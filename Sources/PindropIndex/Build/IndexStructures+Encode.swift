import PindropCore

/// The read structures as the named sections of the structures files.
extension IndexStructures {
    /// The structures only the GeoNames rows make, which the GeoNames structures file holds (`IndexFiles`): an
    /// import that keeps those rows keeps the file. `corrections` and `labelOrder` are of the GeoNames rows
    /// (`PlaceIndex.correctionForms(of:)`, `PlaceTable.labelOrder()`).
    static func encodeGeoNames(places: PlaceTable, spatial: SpatialIndex, towns: TownFinder, corrections: CorrectionForms,
                               labelOrder: Column<Int32>) -> [StoredArray] {
        towns.blobs() + corrections.blobs() + [
            StoredArray("place.label_order", labelOrder),
            StoredArray("place.alternate_start", places.alternateStart),
            StoredArray("place.alternate_bytes", places.alternateBytes),
            StoredArray("spatial.nodes", spatial.nodes),
            StoredArray("spatial.cell_start", spatial.cellStart),
            StoredArray("spatial.cell_slots", spatial.cellSlots),
            StoredArray("spatial.cell_bound", spatial.cellBound),
        ]
    }

    /// The place table's structures, but for the GeoNames rows' alternate names (`encodeGeoNames`).
    static func encode(places: PlaceTable) -> [StoredArray] {
        [
            StoredArray("place.geonameid", places.geonameID),
            StoredArray("place.latitude", places.latitude),
            StoredArray("place.longitude", places.longitude),
            StoredArray("place.population", places.population),
            StoredArray("place.country", places.country),
            StoredArray("place.admin1", places.admin1),
            StoredArray("place.name_start", places.nameStart),
            StoredArray("place.name_bytes", places.nameBytes),
            StoredArray("place.kind", places.kind),
            StoredArray("place.extra_start", places.extraStart),
            StoredArray("place.extra_bytes", places.extraBytes),
        ]
    }

    /// The name index's structures.
    static func encode(names: NameIndex, firstStreetLevelRow: Int) -> [StoredArray] {
        [
            StoredArray("name.key_bytes", names.keyBytes),
            StoredArray("name.key_start", names.keyStart),
            StoredArray("name.key_length", names.keyLength),
            StoredArray("name.place", names.entryPlace),
            StoredArray("name.kind", names.entryKind),
            StoredArray("name.score", names.entryScore),
            StoredArray("name.alternate_at", names.alternateAt),
            StoredArray("name.tree", names.tree),
            StoredArray("name.own_tree", names.ownNameTree),
            StoredArray("name.buckets", names.buckets),
            StoredArray("name.fence", names.fence),
            // Stored, not found at open: finding them is a pass over every entry.
            StoredArray("name.street_level_entries", names.entryPlace.indices.filter { Int(names.entryPlace[$0]) >= firstStreetLevelRow }.map(Int32.init)),
        ]
    }
}
