import PindropCore

/// The read structures as the named sections of the structures files.
extension IndexStructures {
    /// The structures only the GeoNames rows make, which the GeoNames structures file holds (`IndexFiles`): an
    /// import that keeps those rows keeps the file. `places` are the GeoNames rows; `corrections` and `labelOrder` are of them
    /// (`PlaceIndex.correctionForms(of:)`, `PlaceTable.labelOrder()`); the name index's run and each place's town
    /// (`TownFinder.townsSection`) are added by the caller.
    static func encodeGeoNames(places: PlaceTable, spatial: SpatialIndex, towns: TownFinder, corrections: CorrectionForms,
                               labelOrder: Column<Int32>) -> [StoredArray] {
        encode(geonamesPlaces: places) + towns.blobs() + corrections.blobs() + [
            StoredArray("place.label_order", labelOrder),
            StoredArray("place.alternate_start", places.alternateStart),
            StoredArray("place.alternate_bytes", places.alternateBytes),
            StoredArray("spatial.nodes", spatial.nodes),
            StoredArray("spatial.cell_start", spatial.cellStart),
            StoredArray("spatial.cell_slots", spatial.cellSlots),
            StoredArray("spatial.cell_bound", spatial.cellBound),
        ]
    }

    /// The GeoNames rows' part of each place column, `places` being those rows, for the GeoNames structures file:
    /// each ends on a boundary, where the build's part starts (`encode(streetPlaces:namesAfter:)`), so that a reader
    /// maps the two end to end as one column (`MappedStructures`) and an import that keeps the GeoNames rows writes
    /// only the rest. The alternate names are the GeoNames file's alone (`encodeGeoNames`).
    static func encode(geonamesPlaces places: PlaceTable) -> [StoredArray] {
        placeColumns(places, nameStart: places.nameStart, offsets: 0..<places.count, placement: .endsOnBoundary)
    }

    /// The street level's part of each place column, `places` being its rows, for the build's structures file: each
    /// starts on a boundary, and the names' offsets count on from the `namesAfter` bytes of the GeoNames rows' names.
    /// The extras are the street level's alone.
    static func encode(streetPlaces places: PlaceTable, namesAfter: Int) -> [StoredArray] {
        placeColumns(places, nameStart: Column(places.nameStart.map { $0 + UInt32(namesAfter) }), offsets: 0..<(places.count + 1),
                     placement: .startsOnBoundary)
            + [StoredArray("place.extra_bytes", places.extraBytes)]
    }

    /// The place columns of `places`, with these names' offsets, of which `offsets`.
    private static func placeColumns(_ places: PlaceTable, nameStart: Column<UInt32>, offsets: Range<Int>,
                                     placement: StoredArray.Placement) -> [StoredArray] {
        let rows = 0..<places.count
        return [
            StoredArray("place.geonameid", places.geonameID, rows: rows, placement: placement),
            StoredArray("place.latitude", places.latitude, rows: rows, placement: placement),
            StoredArray("place.longitude", places.longitude, rows: rows, placement: placement),
            StoredArray("place.population", places.population, rows: rows, placement: placement),
            StoredArray("place.country", places.country, rows: rows, placement: placement),
            StoredArray("place.admin1", places.admin1, rows: rows, placement: placement),
            StoredArray("place.name_start", nameStart, rows: offsets, placement: placement),
            StoredArray("place.name_bytes", places.nameBytes, rows: places.nameBytes.indices, placement: placement),
            StoredArray("place.kind", places.kind, rows: rows, placement: placement),
            StoredArray("place.extra_start", places.extraStart, rows: offsets, placement: placement),
        ]
    }

    /// An overlay's own file (`StreetOverlay`): its rows' place columns (their own offsets), name run and street level,
    /// where its rows start, and the stored rows and map features it masks.
    static func encode(overlay laid: StreetOverlay.Laid) -> [StoredArray] {
        let o = laid.overlay
        return encode(streetPlaces: laid.places, namesAfter: 0) + o.level.blobs() + encode(names: laid.names, prefix: NameIndex.streetSections) + [
            StoredArray("overlay.first_row", [Int64(o.firstRow)]),
            StoredArray("overlay.masked_rows", o.maskedRows.members.map { Int32($0) }),
            StoredArray("overlay.masked_features", o.maskedFeatures.members.map { Int32($0) }),
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
