import Foundation
import PindropCore

/// Turns read structures into named blobs and back.
enum IndexStructures {
    static func encode(places: PlaceTable, names: NameIndex, spatial: SpatialIndex) -> [String: Data] {
        [
            "place.geonameid": ArrayBlob.data(places.geonameID),
            "place.latitude": ArrayBlob.data(places.latitude),
            "place.longitude": ArrayBlob.data(places.longitude),
            "place.population": ArrayBlob.data(places.population),
            "place.country": ArrayBlob.data(places.country),
            "place.admin1": ArrayBlob.data(places.admin1),
            "place.name_start": ArrayBlob.data(places.nameStart),
            "place.name_bytes": ArrayBlob.data(places.nameBytes),
            "place.kind": ArrayBlob.data(places.kind),
            "place.extra_start": ArrayBlob.data(places.extraStart),
            "place.extra_bytes": ArrayBlob.data(places.extraBytes),
            "place.alternate_start": ArrayBlob.data(places.alternateStart),
            "place.alternate_bytes": ArrayBlob.data(places.alternateBytes),
            "name.key_bytes": ArrayBlob.data(names.keyBytes),
            "name.key_start": ArrayBlob.data(names.keyStart),
            "name.key_length": ArrayBlob.data(names.keyLength),
            "name.place": ArrayBlob.data(names.entryPlace),
            "name.kind": ArrayBlob.data(names.entryKind),
            "name.score": ArrayBlob.data(names.entryScore),
            "name.tree": ArrayBlob.data(names.tree),
            "name.own_tree": ArrayBlob.data(names.ownNameTree),
            "spatial.xyz": ArrayBlob.data(spatial.xyz),
            "spatial.place": ArrayBlob.data(spatial.slotPlace),
            "spatial.axis": ArrayBlob.data(spatial.axis),
            "spatial.box": ArrayBlob.data(spatial.box),
            "spatial.cell_start": ArrayBlob.data(spatial.cellStart),
            "spatial.cell_slots": ArrayBlob.data(spatial.cellSlots),
            "spatial.cell_bound": ArrayBlob.data(spatial.cellBound),
        ]
    }

    /// The structures from their blobs, taking each blob out of `blobs` as it is read.
    static func decode(_ blobs: consuming [String: Data], countries: [GeoNamesCountry], admin1Names: [String: String])
        throws(PindropError) -> (PlaceTable, NameIndex, SpatialIndex, StreetLevel) {
        let (countryInfos, admin1Infos) = makeDivisions(countries: countries, admin1Names: admin1Names)
        let places = PlaceTable(
            geonameID: try ArrayBlob.take(from: &blobs, name: "place.geonameid"),
            latitude: try ArrayBlob.take(from: &blobs, name: "place.latitude"),
            longitude: try ArrayBlob.take(from: &blobs, name: "place.longitude"),
            population: try ArrayBlob.take(from: &blobs, name: "place.population"),
            country: try ArrayBlob.take(from: &blobs, name: "place.country"),
            admin1: try ArrayBlob.take(from: &blobs, name: "place.admin1"),
            nameStart: try ArrayBlob.take(from: &blobs, name: "place.name_start"),
            nameBytes: try ArrayBlob.take(from: &blobs, name: "place.name_bytes"),
            kind: try ArrayBlob.take(from: &blobs, name: "place.kind"),
            extraStart: try ArrayBlob.take(from: &blobs, name: "place.extra_start"),
            extraBytes: try ArrayBlob.take(from: &blobs, name: "place.extra_bytes"),
            countries: countryInfos, admin1s: admin1Infos,
            alternateStart: try ArrayBlob.take(from: &blobs, name: "place.alternate_start"),
            alternateBytes: try ArrayBlob.take(from: &blobs, name: "place.alternate_bytes"))
        let names = NameIndex(
            keyBytes: try ArrayBlob.take(from: &blobs, name: "name.key_bytes"),
            keyStart: try ArrayBlob.take(from: &blobs, name: "name.key_start"),
            keyLength: try ArrayBlob.take(from: &blobs, name: "name.key_length"),
            entryPlace: try ArrayBlob.take(from: &blobs, name: "name.place"),
            entryKind: try ArrayBlob.take(from: &blobs, name: "name.kind"),
            entryScore: try ArrayBlob.take(from: &blobs, name: "name.score"),
            tree: try ArrayBlob.take(from: &blobs, name: "name.tree"),
            ownNameTree: try ArrayBlob.take(from: &blobs, name: "name.own_tree"))
        let spatial = SpatialIndex(
            xyz: try ArrayBlob.take(from: &blobs, name: "spatial.xyz"),
            slotPlace: try ArrayBlob.take(from: &blobs, name: "spatial.place"),
            axis: try ArrayBlob.take(from: &blobs, name: "spatial.axis"),
            box: try ArrayBlob.take(from: &blobs, name: "spatial.box"),
            cellStart: try ArrayBlob.take(from: &blobs, name: "spatial.cell_start"),
            cellSlots: try ArrayBlob.take(from: &blobs, name: "spatial.cell_slots"),
            cellBound: try ArrayBlob.take(from: &blobs, name: "spatial.cell_bound"))
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
