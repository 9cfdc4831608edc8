import Foundation
import PindropCore

/// Turns read structures into named blobs and back.
enum IndexStructures {
    static func encode(places: PlaceTable, names: NameIndex, spatial: SpatialIndex) -> [StoredArray] {
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
            StoredArray("place.alternate_start", places.alternateStart),
            StoredArray("place.alternate_bytes", places.alternateBytes),
            StoredArray("name.key_bytes", names.keyBytes),
            StoredArray("name.key_start", names.keyStart),
            StoredArray("name.key_length", names.keyLength),
            StoredArray("name.place", names.entryPlace),
            StoredArray("name.kind", names.entryKind),
            StoredArray("name.score", names.entryScore),
            StoredArray("name.tree", names.tree),
            StoredArray("name.own_tree", names.ownNameTree),
            StoredArray("spatial.xyz", spatial.xyz),
            StoredArray("spatial.place", spatial.slotPlace),
            StoredArray("spatial.axis", spatial.axis),
            StoredArray("spatial.box", spatial.box),
            StoredArray("spatial.cell_start", spatial.cellStart),
            StoredArray("spatial.cell_slots", spatial.cellSlots),
            StoredArray("spatial.cell_bound", spatial.cellBound),
        ]
    }

    /// The structures, each read from the file straight into its array.
    static func decode(_ blobs: StructureReader, countries: [GeoNamesCountry], admin1Names: [String: String])
        throws(PindropError) -> (PlaceTable, NameIndex, SpatialIndex, StreetLevel) {
        let (countryInfos, admin1Infos) = makeDivisions(countries: countries, admin1Names: admin1Names)
        let places = PlaceTable(
            geonameID: try blobs.array("place.geonameid"),
            latitude: try blobs.array("place.latitude"),
            longitude: try blobs.array("place.longitude"),
            population: try blobs.array("place.population"),
            country: try blobs.array("place.country"),
            admin1: try blobs.array("place.admin1"),
            nameStart: try blobs.array("place.name_start"),
            nameBytes: try blobs.array("place.name_bytes"),
            kind: try blobs.array("place.kind"),
            extraStart: try blobs.array("place.extra_start"),
            extraBytes: try blobs.array("place.extra_bytes"),
            countries: countryInfos, admin1s: admin1Infos,
            alternateStart: try blobs.array("place.alternate_start"),
            alternateBytes: try blobs.array("place.alternate_bytes"))
        let names = NameIndex(
            keyBytes: try blobs.array("name.key_bytes"),
            keyStart: try blobs.array("name.key_start"),
            keyLength: try blobs.array("name.key_length"),
            entryPlace: try blobs.array("name.place"),
            entryKind: try blobs.array("name.kind"),
            entryScore: try blobs.array("name.score"),
            tree: try blobs.array("name.tree"),
            ownNameTree: try blobs.array("name.own_tree"))
        let spatial = SpatialIndex(
            xyz: try blobs.array("spatial.xyz"),
            slotPlace: try blobs.array("spatial.place"),
            axis: try blobs.array("spatial.axis"),
            box: try blobs.array("spatial.box"),
            cellStart: try blobs.array("spatial.cell_start"),
            cellSlots: try blobs.array("spatial.cell_slots"),
            cellBound: try blobs.array("spatial.cell_bound"))
        // Cheap consistency checks: a mismatch means a damaged file, which must not crash a query later.
        let n = places.geonameID.count
        let consistent = [places.latitude.count, places.longitude.count, places.population.count, places.country.count,
                          places.admin1.count, places.nameStart.count - 1, places.kind.count, places.extraStart.count - 1].allSatisfy { $0 == n }
            && [spatial.slotPlace.count, spatial.axis.count, spatial.xyz.count / 3, spatial.box.count / 6].allSatisfy { $0 == places.geonamesCount }
            && spatial.cellsAreConsistent
            && Int(places.extraStart.last ?? 0) == places.extraBytes.count
            && places.alternateStart.count == places.geonamesCount + 1 && Int(places.alternateStart.last ?? 0) == places.alternateBytes.count
            && [names.keyStart.count, names.keyLength.count, names.entryKind.count, names.entryScore.count].allSatisfy { $0 == names.entryPlace.count }
            && names.tree.count == max(2 * names.entryPlace.count, 2) && names.ownNameTree.count == names.tree.count
            && Int(places.nameStart.last ?? 0) == places.nameBytes.count
            && names.entryPlace.allSatisfy { $0 >= 0 && Int($0) < n }
            && zip(names.keyStart, names.keyLength).allSatisfy { Int($0) + Int($1) <= names.keyBytes.count }
            && places.country.allSatisfy { $0 == PlaceTable.noCountry || Int($0) < countryInfos.count }
            && places.admin1.allSatisfy { $0 < Int32(admin1Infos.count) }
        guard consistent else { throw .indexUnavailable("the index is corrupt: its structures do not agree; rebuild it") }
        return (places, names, spatial, try StreetLevel.decode(blobs, placeCount: n))
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
