import Foundation
import PindropCore

/// The embedded store's writer: builds the index file at `path` from imported data. It reads, derives the
/// read structures, writes them all to a temporary file, then renames it into place, so a failed build never
/// leaves a broken index behind.
public struct IndexBuilder: PlaceStoreWriter {
    /// The index file it writes.
    public let path: String

    /// A writer of the index file at `path`.
    public init(path: String) { self.path = path }

    /// Builds the index from GeoNames data and, when given, OpenStreetMap street-level data.
    public func importGeoNames(_ source: any GeoNamesSource, streets: (any StreetDataSource)?,
                               progress: ImportProgress?) async throws -> ImportReport {
        try Self.build(from: source, streets: streets, to: path, progress: progress)
    }

    /// Replaces the street-level part of the index with `source`, reusing the stored GeoNames part.
    public func importStreets(_ source: any StreetDataSource, progress: ImportProgress?) async throws -> ImportReport {
        try Self.rebuild(path, streets: source, progress: progress)
    }

    /// Builds the index at `path` from GeoNames data and any OpenStreetMap extracts (street addresses, streets,
    /// venues). `progress` gets (stage, fraction).
    static func build(from source: any GeoNamesSource, streets: (any StreetDataSource)? = nil, to path: String,
                      progress: ImportProgress? = nil) throws -> ImportReport {
        let started = Date()
        let countries = try source.countries()
        let admin1Names = try source.admin1Names()
        var records: [GeoNamesRecord] = []
        records.reserveCapacity(250_000)
        let summary = try source.readPlaces(progress: { progress?("reading", $0) }) { records.append($0) }
        guard !records.isEmpty else {
            throw PindropError.unreadableData("\(source.label) holds no readable GeoNames rows (\(summary.skipped.count) malformed)")
        }
        var report = try build(records: records, countries: countries, admin1Names: admin1Names, streets: streets,
                               source: source.label, to: path, progress: progress)
        report.summary = summary
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Replaces the OpenStreetMap part of the index at `path` with these extracts. The GeoNames part is
    /// reused as stored (its folded names, spatial tree and rows), so only the street-level rows are derived
    /// anew and only the structures are rewritten, in one transaction.
    static func rebuild(_ path: String, streets source: any StreetDataSource,
                        progress: ImportProgress? = nil) throws -> ImportReport {
        let started = Date()
        let index = try PlaceIndex.open(at: path)
        let geonamesCount = index.places.geonamesCount
        var places = index.places.prefix(geonamesCount)
        progress?("reading", 0.1)
        let features = try source.readFeatures()
        var rowNames: [(primary: [String], alternate: [String])] = []
        let street = appendStreetLevel(features, to: &places, names: &rowNames, geonames: index.spatial)
        progress?("indexing", 0.4)
        // The stored GeoNames entries (already folded and scored), then the new street-level ones.
        let old = index.names
        var entries = NameEntries(keys: old.keyBytes)
        for e in 0..<old.count where Int(old.entryPlace[e]) < geonamesCount {
            entries.starts.append(old.keyStart[e]); entries.lengths.append(old.keyLength[e])
            entries.owners.append(old.entryPlace[e]); entries.kinds.append(old.entryKind[e]); entries.scores.append(old.entryScore[e])
        }
        addNames(rowNames, firstRow: geonamesCount, places: places, to: &entries)
        let names = entries.index()
        progress?("writing", 0.8)
        let database = try IndexDatabase(updatingAt: path)
        try database.replaceStructures(
            IndexStructures.encode(places: places, names: names, spatial: index.spatial).merging(street.blobs()) { a, _ in a },
            meta: ["places": String(places.count), "osm_sources": source.labels.joined(separator: ",")])
        progress?("done", 1)
        var report = ImportReport()
        report.summary.rowsRead = geonamesCount
        report.summary.rowsImported = geonamesCount
        report.nameEntries = names.count
        report.seconds = Date().timeIntervalSince(started)
        report.storeBytes = fileSize(path)
        report.count(street, places)
        return report
    }

    static func build(records: [GeoNamesRecord], countries: [GeoNamesCountry], admin1Names: [String: String],
                      streets: (any StreetDataSource)?, source: String, to path: String,
                      progress: ImportProgress?) throws -> ImportReport {
        var records = records
        var admin1Names = admin1Names
        records.sort { $0.geonameID < $1.geonameID }
        // A later duplicate id replaces the earlier one, as a re-import would.
        records = records.enumerated().filter { i, r in i + 1 == records.count || records[i + 1].geonameID != r.geonameID }.map(\.element)
        for r in records where !r.admin1Code.isEmpty && r.admin1Code != "00" {
            let key = "\(r.countryCode).\(r.admin1Code)"
            if admin1Names[key] == nil { admin1Names[key] = "" }
        }
        progress?("indexing", 0)
        var places = makePlaceTable(records: records, countries: countries, admin1Names: admin1Names)
        var spatial = SpatialIndex(latitudes: places.latitude, longitudes: places.longitude)
        spatial.addNearestCells()
        var rowNames: [(primary: [String], alternate: [String])] = records.map { ([$0.name, $0.asciiName], $0.alternateNames) }
        var street = StreetLevel.empty
        if let streets {
            street = appendStreetLevel(try streets.readFeatures(), to: &places, names: &rowNames, geonames: spatial)
        }
        let names = makeNameIndex(rowNames, places: places)
        progress?("writing", 0.9)

        let temporary = path + ".building"
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        do {
            let database = try IndexDatabase(creatingAt: temporary)
            try database.write(records: records, countries: countries, admin1Names: admin1Names,
                               structures: IndexStructures.encode(places: places, names: names, spatial: spatial)
                                   .merging(street.blobs()) { a, _ in a },
                               meta: ["source": source, "built_at": ISO8601DateFormatter().string(from: Date()),
                                      "places": String(places.count),
                                      "osm_sources": streets?.labels.joined(separator: ",") ?? ""])
        }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.moveItem(atPath: temporary, toPath: path)
        progress?("done", 1)
        var report = ImportReport()
        report.nameEntries = names.count
        report.storeBytes = fileSize(path)
        report.count(street, places)
        return report
    }

    static func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    static func makePlaceTable(records: [GeoNamesRecord], countries: [GeoNamesCountry],
                               admin1Names: [String: String]) -> PlaceTable {
        var codes = Set(countries.map(\.code))
        var allCountries = countries
        for r in records where !r.countryCode.isEmpty && !codes.contains(r.countryCode) {
            codes.insert(r.countryCode)
            allCountries.append(GeoNamesCountry(code: r.countryCode, iso3: "", name: r.countryCode))
        }
        let (countryInfos, admin1Infos) = IndexStructures.makeDivisions(countries: allCountries, admin1Names: admin1Names)
        let countryIndex = Dictionary(uniqueKeysWithValues: countryInfos.enumerated().map { ($1.code, UInt16($0)) })
        let admin1Index = Dictionary(uniqueKeysWithValues: admin1Infos.enumerated().map { ("\($1.countryCode).\($1.code)", Int32($0)) })
        var table = PlaceTable(geonameID: [], latitude: [], longitude: [], population: [], country: [], admin1: [],
                               nameStart: [0], nameBytes: [], kind: [], extraStart: [0], extraBytes: [],
                               countries: countryInfos, admin1s: admin1Infos)
        for r in records {
            table.geonameID.append(Int32(truncatingIfNeeded: r.geonameID))
            table.latitude.append(r.latitude)
            table.longitude.append(r.longitude)
            table.population.append(Int32(clamping: r.population))
            table.country.append(countryIndex[r.countryCode] ?? PlaceTable.noCountry)
            table.admin1.append(admin1Index["\(r.countryCode).\(r.admin1Code)"] ?? -1)
            table.nameBytes.append(contentsOf: r.name.utf8)
            table.nameStart.append(UInt32(table.nameBytes.count))
            table.kind.append(PlaceTable.RowKind.geonames.rawValue)
            table.extraStart.append(UInt32(table.extraBytes.count))
        }
        return table
    }

    /// Appends venues, address points (one per address) and streets (one per name) as rows after the
    /// GeoNames ones; each takes its country, admin1 and, when untagged, its town from the nearest GeoNames place.
    static func appendStreetLevel(_ features: OSMFeatures, to places: inout PlaceTable,
                                  names: inout [(primary: [String], alternate: [String])],
                                  geonames: SpatialIndex) -> StreetLevel {
        func append(_ name: String, _ c: Coordinate, _ kind: PlaceTable.RowKind, id: String, category: String?,
                    address: Address?, primary: [String], alternate: [String] = []) {
            let nearest = geonames.nearest(latitude: c.latitude, longitude: c.longitude).map { Int($0.place) }
            var address = address ?? Address()
            if address.town == nil, let nearest { address.town = places.name(nearest) }
            places.geonameID.append(0)
            places.latitude.append(c.latitude)
            places.longitude.append(c.longitude)
            places.population.append(0)
            places.country.append(nearest.map { places.country[$0] } ?? PlaceTable.noCountry)
            places.admin1.append(nearest.map { places.admin1[$0] } ?? -1)
            places.nameBytes.append(contentsOf: name.utf8)
            places.nameStart.append(UInt32(places.nameBytes.count))
            places.kind.append(kind.rawValue)
            places.extraBytes.append(contentsOf: PlaceTable.encodeExtras(id: id, category: category, address: address))
            places.extraStart.append(UInt32(places.extraBytes.count))
            names.append((primary, alternate))
        }
        for v in features.venues {
            append(v.name, v.coordinate, .venue, id: v.id, category: v.category, address: v.address, primary: [v.name])
        }
        // One row per address (many shops inside one building carry the same address), but every point
        // kept for reverse geocoding, so anywhere in that building answers with its address.
        var rowOfAddress: [String: Int] = [:]
        var addressPoints: [(row: Int, point: Coordinate)] = []
        for a in features.addressPoints {
            guard let street = a.address.street, let number = a.address.houseNumber else { continue }
            let key = TextFolding.fold("\(street) \(number)")
            if let row = rowOfAddress[key] { addressPoints.append((row, a.coordinate)); continue }
            rowOfAddress[key] = places.count
            addressPoints.append((places.count, a.coordinate))
            append("\(street) \(number)", a.coordinate, .address, id: a.id, category: nil, address: a.address,
                   primary: ["\(street) \(number)"], alternate: ["\(number) \(street)"])
        }
        // One row per street name, at the middle of its longest piece; every piece feeds the nearest-street tree.
        let byName = Dictionary(grouping: features.streets.filter { $0.points.count >= 2 }) { TextFolding.fold($0.name) }
        var lines: [(row: Int, points: [Coordinate])] = []
        for key in byName.keys.sorted() {
            let ways = byName[key]!
            let longest = ways.max { length($0.points) < length($1.points) }!
            let row = places.count
            append(longest.name, longest.points[longest.points.count / 2], .street, id: longest.id,
                   category: longest.highway, address: Address(street: longest.name), primary: [longest.name])
            lines += ways.map { (row, $0.points) }
        }
        let shapes = features.streets.map { MapFeature(kind: .street, id: $0.id, name: $0.name, category: $0.highway, lines: [$0.points]) }
            + features.buildings.map { MapFeature(kind: .building, id: $0.id, name: $0.name, category: $0.kind, lines: $0.outlines) }
        return StreetLevel(places: places, addressPoints: addressPoints, streetLines: lines, features: shapes)
    }

    static func length(_ points: [Coordinate]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }

    /// Longest folded name kept, in bytes (longer "names" in the dumps are descriptions, not names).
    static let maxKeyBytes = 120

    static func makeNameIndex(_ rowNames: [(primary: [String], alternate: [String])], places: PlaceTable) -> NameIndex {
        var entries = NameEntries(keys: [])
        entries.keys.reserveCapacity(24 << 20)
        addNames(rowNames, firstRow: 0, places: places, to: &entries)
        return entries.index()
    }

    /// Folds and adds the names of rows firstRow, firstRow + 1, ... (one tuple each) as name entries.
    static func addNames(_ rowNames: [(primary: [String], alternate: [String])], firstRow: Int, places: PlaceTable,
                         to entries: inout NameEntries) {
        var folded: [UInt8] = []
        var seen = Set<[UInt8]>()
        for (n, row) in rowNames.enumerated() {
            let i = firstRow + n
            seen.removeAll(keepingCapacity: true)
            let importance = places.importance(i)
            for (k, name) in (row.primary + row.alternate).enumerated() {
                let kind: NameIndex.Kind = k < row.primary.count ? .primary : .alternate
                if kind == .alternate, name.contains("http") { continue }
                folded.removeAll(keepingCapacity: true)
                TextFolding.fold(name, into: &folded)
                entries.add(folded[...], place: i, kind: kind, importance: importance, seen: &seen)
                // Later words of a primary name, so "york" finds "New York" (ranked below names that start so).
                if kind == .primary {
                    for (j, byte) in folded.enumerated() where byte == 0x20 {
                        entries.add(folded[(j + 1)...], place: i, kind: .innerWord, importance: importance, seen: &seen)
                    }
                }
            }
        }
    }
}

extension ImportReport {
    /// Fills in the street-level counts of a built index.
    mutating func count(_ street: StreetLevel, _ places: PlaceTable) {
        venues = street.venueRows.count
        addresses = street.addressRows.count
        streets = places.kind.filter { $0 == PlaceTable.RowKind.street.rawValue }.count
    }
}

/// Name entries being collected, before sorting into a `NameIndex`.
struct NameEntries {
    var keys: [UInt8]
    var starts: [UInt32] = [], lengths: [UInt8] = [], owners: [Int32] = [], kinds: [UInt8] = [], scores: [Float] = []

    /// Adds one folded name of a place, once per place.
    mutating func add(_ bytes: ArraySlice<UInt8>, place: Int, kind: NameIndex.Kind, importance: Float, seen: inout Set<[UInt8]>) {
        guard !bytes.isEmpty, bytes.count <= IndexBuilder.maxKeyBytes, seen.insert(Array(bytes)).inserted else { return }
        starts.append(UInt32(keys.count))
        keys.append(contentsOf: bytes)
        lengths.append(UInt8(bytes.count))
        owners.append(Int32(place))
        kinds.append(kind.rawValue)
        scores.append(importance - kind.penalty)
    }

    func index() -> NameIndex {
        NameIndex(keys: keys, starts: starts, lengths: lengths, places: owners, kinds: kinds, scores: scores)
    }
}

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
            "name.key_bytes": ArrayBlob.data(names.keyBytes),
            "name.key_start": ArrayBlob.data(names.keyStart),
            "name.key_length": ArrayBlob.data(names.keyLength),
            "name.place": ArrayBlob.data(names.entryPlace),
            "name.kind": ArrayBlob.data(names.entryKind),
            "name.score": ArrayBlob.data(names.entryScore),
            "name.tree": ArrayBlob.data(names.tree),
            "spatial.xyz": ArrayBlob.data(spatial.xyz),
            "spatial.place": ArrayBlob.data(spatial.slotPlace),
            "spatial.axis": ArrayBlob.data(spatial.axis),
            "spatial.box": ArrayBlob.data(spatial.box),
            "spatial.cell_start": ArrayBlob.data(spatial.cellStart),
            "spatial.cell_slots": ArrayBlob.data(spatial.cellSlots),
            "spatial.cell_bound": ArrayBlob.data(spatial.cellBound),
        ]
    }

    static func decode(_ blobs: [String: Data], countries: [GeoNamesCountry], admin1Names: [String: String])
        throws(PindropError) -> (PlaceTable, NameIndex, SpatialIndex, StreetLevel) {
        let (countryInfos, admin1Infos) = makeDivisions(countries: countries, admin1Names: admin1Names)
        let places = PlaceTable(
            geonameID: try ArrayBlob.array(in: blobs, name: "place.geonameid"),
            latitude: try ArrayBlob.array(in: blobs, name: "place.latitude"),
            longitude: try ArrayBlob.array(in: blobs, name: "place.longitude"),
            population: try ArrayBlob.array(in: blobs, name: "place.population"),
            country: try ArrayBlob.array(in: blobs, name: "place.country"),
            admin1: try ArrayBlob.array(in: blobs, name: "place.admin1"),
            nameStart: try ArrayBlob.array(in: blobs, name: "place.name_start"),
            nameBytes: try ArrayBlob.array(in: blobs, name: "place.name_bytes"),
            kind: try ArrayBlob.array(in: blobs, name: "place.kind"),
            extraStart: try ArrayBlob.array(in: blobs, name: "place.extra_start"),
            extraBytes: try ArrayBlob.array(in: blobs, name: "place.extra_bytes"),
            countries: countryInfos, admin1s: admin1Infos)
        let names = NameIndex(
            keyBytes: try ArrayBlob.array(in: blobs, name: "name.key_bytes"),
            keyStart: try ArrayBlob.array(in: blobs, name: "name.key_start"),
            keyLength: try ArrayBlob.array(in: blobs, name: "name.key_length"),
            entryPlace: try ArrayBlob.array(in: blobs, name: "name.place"),
            entryKind: try ArrayBlob.array(in: blobs, name: "name.kind"),
            entryScore: try ArrayBlob.array(in: blobs, name: "name.score"),
            tree: try ArrayBlob.array(in: blobs, name: "name.tree"))
        let spatial = SpatialIndex(
            xyz: try ArrayBlob.array(in: blobs, name: "spatial.xyz"),
            slotPlace: try ArrayBlob.array(in: blobs, name: "spatial.place"),
            axis: try ArrayBlob.array(in: blobs, name: "spatial.axis"),
            box: try ArrayBlob.array(in: blobs, name: "spatial.box"),
            cellStart: try ArrayBlob.array(in: blobs, name: "spatial.cell_start"),
            cellSlots: try ArrayBlob.array(in: blobs, name: "spatial.cell_slots"),
            cellBound: try ArrayBlob.array(in: blobs, name: "spatial.cell_bound"))
        // Cheap consistency checks: a mismatch means a damaged file, which must not crash a query later.
        let n = places.geonameID.count
        let consistent = [places.latitude.count, places.longitude.count, places.population.count, places.country.count,
                          places.admin1.count, places.nameStart.count - 1, places.kind.count, places.extraStart.count - 1].allSatisfy { $0 == n }
            && [spatial.slotPlace.count, spatial.axis.count, spatial.xyz.count / 3, spatial.box.count / 6].allSatisfy { $0 == places.geonamesCount }
            && spatial.cellsAreConsistent
            && Int(places.extraStart.last ?? 0) == places.extraBytes.count
            && [names.keyStart.count, names.keyLength.count, names.entryKind.count, names.entryScore.count].allSatisfy { $0 == names.entryPlace.count }
            && names.tree.count == max(2 * names.entryPlace.count, 2)
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
