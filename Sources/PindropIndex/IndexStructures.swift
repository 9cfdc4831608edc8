import Foundation
import PindropCore

/// Turns read structures into the named sections of the structures file, and those back into structures.
enum IndexStructures {
    /// `corrections` and `labelOrder` are of the GeoNames rows (`PlaceIndex.correctionForms(of:)`,
    /// `PlaceTable.labelOrder()`): an import that keeps those rows passes the open index's on.
    static func encode(places: PlaceTable, spatial: SpatialIndex, towns: TownFinder, corrections: CorrectionForms,
                       labelOrder: Column<Int32>) -> [StoredArray] {
        towns.blobs() + corrections.blobs() + [
            StoredArray("place.label_order", labelOrder),
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
            StoredArray("place.alternate_start", places.alternateStart),
            StoredArray("place.alternate_bytes", places.alternateBytes),
            StoredArray("spatial.nodes", spatial.nodes),
            StoredArray("spatial.cell_start", spatial.cellStart),
            StoredArray("spatial.cell_slots", spatial.cellSlots),
            StoredArray("spatial.cell_bound", spatial.cellBound),
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

    /// The structures of an open index, as columns of the mapped file. Opening checks what costs nothing per
    /// value: that the columns agree in length and their offsets end where their bytes do. `verify` adds every
    /// per-value check (each name entry's place and key within bounds, each place's country and admin1): a pass
    /// over all the structures, which the import makes on the file it writes before publishing it, and which
    /// would make opening as slow as copying was.
    static func decode(_ file: MappedStructures, countries: [GeoNamesCountry], admin1Names: [String: String], verify: Bool)
        throws(PindropError) -> Decoded {
        let (countryInfos, admin1Infos) = makeDivisions(countries: countries, admin1Names: admin1Names)
        let places = PlaceTable(
            geonameID: try file.column("place.geonameid"),
            latitude: try file.column("place.latitude"),
            longitude: try file.column("place.longitude"),
            population: try file.column("place.population"),
            country: try file.column("place.country"),
            admin1: try file.column("place.admin1"),
            nameStart: try file.column("place.name_start"),
            nameBytes: try file.column("place.name_bytes"),
            kind: try file.column("place.kind"),
            extraStart: try file.column("place.extra_start"),
            extraBytes: try file.column("place.extra_bytes"),
            countries: countryInfos, admin1s: admin1Infos,
            alternateStart: try file.column("place.alternate_start"),
            alternateBytes: try file.column("place.alternate_bytes"))
        let names = NameIndex(
            keyBytes: try file.column("name.key_bytes"),
            keyStart: try file.column("name.key_start"),
            keyLength: try file.column("name.key_length"),
            entryPlace: try file.column("name.place"),
            entryKind: try file.column("name.kind"),
            entryScore: try file.column("name.score"),
            alternateAt: try file.column("name.alternate_at"),
            tree: try file.column("name.tree"),
            ownNameTree: try file.column("name.own_tree"),
            buckets: try file.column("name.buckets"),
            fence: try file.column("name.fence"))
        let spatial = SpatialIndex(
            nodes: try file.column("spatial.nodes"),
            cellStart: try file.column("spatial.cell_start"),
            cellSlots: try file.column("spatial.cell_slots"),
            cellBound: try file.column("spatial.cell_bound"))
        let streetLevelEntries: Column<Int32> = try file.column("name.street_level_entries")
        let labelOrder: Column<Int32> = try file.column("place.label_order")
        // Consistency checks: a mismatch means a damaged file, which must not crash a query later.
        let n = places.geonameID.count
        let consistent = [places.latitude.count, places.longitude.count, places.population.count, places.country.count,
                          places.admin1.count, places.nameStart.count - 1, places.kind.count, places.extraStart.count - 1].allSatisfy { $0 == n }
            && spatial.count == places.geonamesCount
            && spatial.cellsAreConsistent(verify: verify)
            && Int(places.extraStart.last ?? 0) == places.extraBytes.count
            && places.alternateStart.count == places.geonamesCount + 1 && Int(places.alternateStart.last ?? 0) == places.alternateBytes.count
            && Int(places.nameStart.last ?? 0) == places.nameBytes.count
            && [names.keyStart.count, names.keyLength.count, names.entryKind.count, names.entryScore.count, names.alternateAt.count].allSatisfy { $0 == names.entryPlace.count }
            && names.tree.count == max(2 * NameIndex.treeLeaves(forEntries: names.count), 2) && names.ownNameTree.count == names.tree.count
            && names.buckets.count == NameIndex.bucketCount && Int(names.buckets.last ?? 0) == names.count
            && names.fence.count == NameIndex.fenceCount(forEntries: names.count)
            && streetLevelEntries.count <= names.count
            && labelOrder.count == places.geonamesCount
        guard consistent else { throw .indexUnavailable("the index is corrupt: its structures do not agree; rebuild it") }
        if verify {
            let valid = names.entryPlace.allSatisfy { $0 >= 0 && Int($0) < n }
                && zip(names.keyStart, names.keyLength).allSatisfy { Int($0) + Int($1) <= names.keyBytes.count }
                && (names.count == 0 || names.tree.allSatisfy { names.holds($0, ownNamesFirst: false) } && names.ownNameTree.allSatisfy { names.holds($0, ownNamesFirst: true) })
                && zip(names.buckets, names.buckets.dropFirst()).allSatisfy { $0 <= $1 }
                && names.fenceIsTheKeys()
                && spatial.nodesAreValid(places: n)
                && zip(places.nameStart, places.nameStart.dropFirst()).allSatisfy { $0 <= $1 }
                && zip(places.extraStart, places.extraStart.dropFirst()).allSatisfy { $0 <= $1 }
                && zip(places.alternateStart, places.alternateStart.dropFirst()).allSatisfy { $0 <= $1 }
                && places.country.allSatisfy { $0 == PlaceTable.noCountry || Int($0) < countryInfos.count }
                && places.admin1.allSatisfy { $0 < Int32(admin1Infos.count) }
                && streetLevelEntries.allSatisfy { $0 >= 0 && Int($0) < names.count }
                // In range (a wrong order would only misplace labels; checking it is a random read a row).
                && labelOrder.allSatisfy { $0 >= 0 && Int($0) < labelOrder.count }
            guard valid else { throw .indexUnavailable("the index is corrupt: its structures hold values out of range; rebuild it") }
        }
        return Decoded(places: places, names: names, spatial: spatial, street: try StreetLevel.decode(file, placeCount: n),
                       streetLevelEntries: streetLevelEntries, towns: try TownFinder(file, spatial: spatial, verify: verify),
                       corrections: try CorrectionForms(file, geonamesCount: places.geonamesCount, verify: verify), labelOrder: labelOrder)
    }

    /// The structures of an open index.
    struct Decoded {
        var places: PlaceTable, names: NameIndex, spatial: SpatialIndex, street: StreetLevel
        /// The name entries of street-level rows, in key order (`PlaceIndex.streetLevelEntries`).
        var streetLevelEntries: Column<Int32>
        var towns: TownFinder
        var corrections: CorrectionForms
        /// The GeoNames rows biggest first (`PlaceTable.labelOrder`).
        var labelOrder: Column<Int32>
    }

    /// Countries and admin1 divisions in a fixed order (by code), with their qualifier forms.
    static func makeDivisions(countries: [GeoNamesCountry], admin1Names: [String: String]) -> ([CountryInfo], [Admin1Info]) {
        let countryInfos = countries.sorted { $0.code < $1.code }.map { c in
            let forms = [c.code.lowercased(), c.iso3.lowercased(), TextFolding.fold(c.name)]
                + (PlaceTable.countryAliases[c.code] ?? [])
            return CountryInfo(code: c.code, iso3: c.iso3, name: c.name, qualifierForms: forms.filter { !$0.isEmpty })
        }
        let admin1Infos = admin1Names.keys.sorted().compactMap { key -> Admin1Info? in
            let parts = key.split(separator: ".", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            let name = admin1Names[key] ?? ""
            let forms = [parts[1].lowercased(), TextFolding.fold(name)].filter { !$0.isEmpty }
            return Admin1Info(countryCode: String(parts[0]), code: String(parts[1]), name: name, qualifierForms: forms)
        }
        return (countryInfos, admin1Infos)
    }
}
