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

    /// A run of the name index's structures, named `prefix` + the column's name (`NameIndex.geonamesSections`,
    /// `NameIndex.streetSections`).
    static func encode(names: NameIndex, prefix: String) -> [StoredArray] {
        [
            StoredArray(prefix + "key_bytes", names.keyBytes),
            StoredArray(prefix + "key_start", names.keyStart),
            StoredArray(prefix + "key_length", names.keyLength),
            StoredArray(prefix + "place", names.entryPlace),
            StoredArray(prefix + "kind", names.entryKind),
            StoredArray(prefix + "score", names.entryScore),
            StoredArray(prefix + "alternate_at", names.alternateAt),
            StoredArray(prefix + "tree", names.tree),
            StoredArray(prefix + "own_tree", names.ownNameTree),
            StoredArray(prefix + "buckets", names.buckets),
            StoredArray(prefix + "fence", names.fence),
        ]
    }
}
