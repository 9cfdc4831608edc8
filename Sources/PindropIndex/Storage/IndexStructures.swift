import Foundation
import PindropCore

/// Turns the named sections of the structures file back into the read structures (the import's side is
/// `IndexStructures+Encode`). Opening checks what costs nothing per value: that the columns agree in length and
/// their offsets end where their bytes do. `checks` adds every per-value check (each name entry's place and key
/// within bounds, each place's country and admin1): a pass over the structures, which the import makes on the
/// files it writes before publishing them, and which would make opening as slow as copying would.
enum IndexStructures {
    /// Which structures decoding checks value by value.
    enum ValueChecks {
        /// None: an index opened to answer from.
        case none
        /// Those of the build's structures file: what an import that kept the GeoNames structures file wrote.
        case buildFile
        /// All: what a GeoNames import wrote.
        case all
    }

    /// The structures of an open index.
    struct Decoded {
        var places: PlaceTable, names: NameRuns, spatial: SpatialIndex, street: StreetLevel
        /// What an update laid over `street` (its rows are `places`' last, its names `names`' overlay run).
        var overlay: StreetOverlay? = nil
        var towns: TownFinder
        var corrections: CorrectionForms
        /// The GeoNames rows biggest first (`PlaceTable.labelOrder`).
        var labelOrder: Column<Int32>
    }

    /// The structures of an open index, as columns of the mapped files, with the values `checks` names checked.
    static func decode(_ file: MappedStructures, countries: [GeoNamesCountry], admin1Names: [String: String], checks: ValueChecks)
        throws(PindropError) -> Decoded {
        let all = checks == .all
        let (countryInfos, admin1Infos) = Divisions.make(countries: countries, admin1Names: admin1Names)
        let places = try decodePlaces(file, countries: countryInfos, admin1s: admin1Infos)
        let names = NameRuns(geonames: try decodeNames(file, NameIndex.geonamesSections), street: try decodeNames(file, NameIndex.streetSections))
        let spatial = SpatialIndex(
            nodes: try file.column("spatial.nodes"),
            cellStart: try file.column("spatial.cell_start"),
            cellSlots: try file.column("spatial.cell_slots"),
            cellBound: try file.column("spatial.cell_bound"))
        let labelOrder: Column<Int32> = try file.column("place.label_order")
        // A mismatch means a damaged file, which must not crash a query later.
        guard agree(places, names, spatial, verify: all) && labelOrder.count == places.geonamesCount else {
            throw .indexUnavailable("the index is corrupt: its structures do not agree; rebuild it")
        }
        let streetRows = places.geonamesCount..<places.count
        let street = try StreetLevel.decode(file, rows: streetRows)
        if checks != .none {
            let valid = valuesAreValid(places, names, spatial, checks) && street.valuesAreValid(rows: streetRows)
                // In range (a wrong order would only misplace labels; checking it is a random read a row).
                && (!all || labelOrder.allSatisfy { $0 >= 0 && Int($0) < labelOrder.count })
            guard valid else { throw .indexUnavailable("the index is corrupt: its structures hold values out of range; rebuild it") }
        }
        return Decoded(places: places, names: names, spatial: spatial, street: street,
                       towns: try TownFinder(file, spatial: spatial, verify: all),
                       corrections: try CorrectionForms(file, geonamesCount: places.geonamesCount, verify: all), labelOrder: labelOrder)
    }

    /// The structures of an open index (`stored`, decoded from `file`) with the overlay of the mapped file `overlay`
    /// laid over them: its rows after the stored ones in every place column (the stored values the files' pages, see
    /// `MappedStructures.column(_:appending:)`), its names the name index's third run.
    static func decode(overlay: MappedStructures, over stored: Decoded, in file: MappedStructures, checks: ValueChecks)
        throws(PindropError) -> Decoded {
        func corrupt(_ why: String) -> PindropError { .indexUnavailable("the index's overlay is corrupt: \(why); rebuild it with `pindrop import osm`") }
        let firstRow: [Int64] = try overlay.array("overlay.first_row")
        let masked: [Int32] = try overlay.array("overlay.masked_rows"), maskedFeatures: [Int32] = try overlay.array("overlay.masked_features")
        let places = stored.places, streetRows = places.geonamesCount..<places.count
        guard firstRow == [Int64(places.count)], masked.allSatisfy({ streetRows.contains(Int($0)) }),
              maskedFeatures.allSatisfy({ $0 >= 0 && Int($0) < stored.street.map.count }) else {
            throw corrupt("it does not lie over the index's rows")
        }
        let own = try decodePlaces(overlay, countries: places.countries, admin1s: places.admin1s, geonames: false)
        let rows = places.count..<(places.count + own.count)
        guard [own.latitude.count, own.longitude.count, own.population.count, own.country.count, own.admin1.count, own.kind.count,
               own.nameStart.count - 1, own.extraStart.count - 1].allSatisfy({ $0 == own.count }),
              own.nameStart.first == 0, Int(own.nameStart.last ?? 1) == own.nameBytes.count, own.nameStart.isAscending,
              own.extraStart.first == 0, Int(own.extraStart.last ?? 1) == own.extraBytes.count, own.extraStart.isAscending else {
            throw corrupt("its rows do not agree")
        }
        let level = try StreetLevel.decode(overlay, rows: rows)
        let names = try decodeNames(overlay, NameIndex.streetSections)
        guard names.agrees(), level.venueRows.lowerBound == rows.lowerBound || level.venueRows.isEmpty, level.areas.isEmpty else {
            throw corrupt("its structures do not agree")
        }
        if checks != .none {
            guard names.valuesAreValid(places: rows), level.valuesAreValid(rows: rows),
                  own.country.allSatisfy({ $0 == PlaceTable.noCountry || Int($0) < places.countries.count }),
                  own.admin1.allSatisfy({ $0 < Int32(places.admin1s.count) }) else {
                throw corrupt("its structures hold values out of range")
            }
        }
        var laid = stored
        let (nameBytes, extraBytes) = (places.nameBytes.count, places.extraBytes.count)
        laid.places = PlaceTable(
            geonameID: try file.column("place.geonameid", appending: Array(own.geonameID)),
            latitude: try file.column("place.latitude", appending: Array(own.latitude)),
            longitude: try file.column("place.longitude", appending: Array(own.longitude)),
            population: try file.column("place.population", appending: Array(own.population)),
            country: try file.column("place.country", appending: Array(own.country)),
            admin1: try file.column("place.admin1", appending: Array(own.admin1)),
            nameStart: try file.column("place.name_start", appending: own.nameStart.dropFirst().map { $0 + UInt32(nameBytes) }),
            nameBytes: try file.column("place.name_bytes", appending: Array(own.nameBytes)),
            kind: try file.column("place.kind", appending: Array(own.kind)),
            extraStart: try file.column("place.extra_start", appending: own.extraStart.dropFirst().map { $0 + UInt32(extraBytes) }),
            extraBytes: try file.column("place.extra_bytes", appending: Array(own.extraBytes)),
            countries: places.countries, admin1s: places.admin1s, alternateStart: places.alternateStart, alternateBytes: places.alternateBytes)
        laid.names = NameRuns(geonames: stored.names.geonames, street: stored.names.street, overlay: names)
        laid.overlay = StreetOverlay(level: level, firstRow: rows.lowerBound, maskedRows: RowMask(masked.map { Int($0) }),
                                     maskedFeatures: RowMask(maskedFeatures.map { Int($0) }))
        return laid
    }

    /// The place table of `file` (with the GeoNames rows' alternate names unless `geonames` is false: an overlay's rows).
    private static func decodePlaces(_ file: MappedStructures, countries: [CountryInfo], admin1s: [Admin1Info], geonames: Bool = true)
        throws(PindropError) -> PlaceTable {
        PlaceTable(
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
            countries: countries, admin1s: admin1s,
            alternateStart: geonames ? try file.column("place.alternate_start") : [0],
            alternateBytes: geonames ? try file.column("place.alternate_bytes") : [])
    }

    /// A run of the name index, its sections named `prefix` + the column's name.
    private static func decodeNames(_ file: MappedStructures, _ prefix: String) throws(PindropError) -> NameIndex {
        NameIndex(
            keyBytes: try file.column(prefix + "key_bytes"),
            keyStart: try file.column(prefix + "key_start"),
            keyLength: try file.column(prefix + "key_length"),
            entryPlace: try file.column(prefix + "place"),
            entryKind: try file.column(prefix + "kind"),
            entryScore: try file.column(prefix + "score"),
            alternateAt: try file.column(prefix + "alternate_at"),
            tree: try file.column(prefix + "tree"),
            ownNameTree: try file.column(prefix + "own_tree"),
            buckets: try file.column(prefix + "buckets"),
            fence: try file.column(prefix + "fence"))
    }

    /// Whether the columns agree in length and their offsets end where their bytes do (nothing read per value, but
    /// the spatial cells' candidates with `verify`).
    private static func agree(_ places: PlaceTable, _ names: NameRuns, _ spatial: SpatialIndex, verify: Bool) -> Bool {
        let n = places.geonameID.count
        return [places.latitude.count, places.longitude.count, places.population.count, places.country.count,
                places.admin1.count, places.nameStart.count - 1, places.kind.count, places.extraStart.count - 1].allSatisfy { $0 == n }
            && spatial.count == places.geonamesCount
            && spatial.cellsAreConsistent(verify: verify)
            && Int(places.extraStart.last ?? 0) == places.extraBytes.count
            && places.alternateStart.count == places.geonamesCount + 1 && Int(places.alternateStart.last ?? 0) == places.alternateBytes.count
            && Int(places.nameStart.last ?? 0) == places.nameBytes.count
            && names.geonames.agrees() && names.street.agrees()
    }

    /// Whether every value `checks` names of the place table, the name index and the place tree is in range: a pass
    /// over them. The build's file holds the place table's rows from the first street-level one on (its offsets
    /// are checked from the last GeoNames row's, where the two files meet).
    private static func valuesAreValid(_ places: PlaceTable, _ names: NameRuns, _ spatial: SpatialIndex, _ checks: ValueChecks) -> Bool {
        let n = places.geonameID.count, geonames = places.geonamesCount, all = checks == .all
        let rows = all ? 0..<n : geonames..<n, offsets = max(rows.lowerBound - 1, 0)..<(n + 1)
        return names.street.valuesAreValid(places: geonames..<n)
            && (!all || names.geonames.valuesAreValid(places: 0..<geonames) && spatial.nodesAreValid(places: n)
                && places.alternateStart.isAscending)
            && places.nameStart[offsets].isAscending && places.extraStart[offsets].isAscending
            && places.country[rows].allSatisfy { $0 == PlaceTable.noCountry || Int($0) < places.countries.count }
            && places.admin1[rows].allSatisfy { $0 < Int32(places.admin1s.count) }
    }
}

extension NameIndex {
    /// The sections of the GeoNames places' run (in the GeoNames structures file) and of the street level's, as
    /// prefixes of the columns' names.
    static let geonamesSections = "name.", streetSections = "street.name."

    /// Whether the columns agree in length and with the trees, buckets and fence (nothing read per value).
    func agrees() -> Bool {
        [keyStart.count, keyLength.count, entryKind.count, entryScore.count, alternateAt.count].allSatisfy { $0 == entryPlace.count }
            && tree.count == max(2 * Self.treeLeaves(forEntries: count), 2) && ownNameTree.count == tree.count
            && buckets.count == Self.bucketCount && Int(buckets.last ?? 0) == count
            && fence.count == Self.fenceCount(forEntries: count)
    }

    /// Whether every value is in range, each entry's place among `places`: a pass over all of them.
    func valuesAreValid(places: Range<Int>) -> Bool {
        entryPlace.allSatisfy { places.contains(Int($0)) }
            && zip(keyStart, keyLength).allSatisfy { Int($0) + Int($1) <= keyBytes.count }
            && (count == 0 || tree.allSatisfy { holds($0, ownNamesFirst: false) } && ownNameTree.allSatisfy { holds($0, ownNamesFirst: true) })
            && buckets.isAscending
            && fenceIsTheKeys()
    }

    /// Whether `node` names an entry of the index with that entry's score (as the own-names-first tree ranks it, when
    /// `ownNamesFirst`): what an import checks of the trees it wrote.
    func holds(_ node: TreeNode, ownNamesFirst: Bool) -> Bool {
        node.entry >= 0 && Int(node.entry) < count && node.score == score(Int(node.entry), ownNamesFirst: ownNamesFirst)
    }

    /// Whether every fence entry is its entry's key head (the import's check of a stored index: a wrong one would
    /// narrow searches to the wrong keys). Reads every `fenceStride`-th key.
    func fenceIsTheKeys() -> Bool {
        let keys = keys
        return fence.indices.allSatisfy { fence[$0] == keys.head($0 * Self.fenceStride) }
    }
}
