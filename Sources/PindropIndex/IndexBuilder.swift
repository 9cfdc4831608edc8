import Foundation
import PindropCore

/// The embedded store's writer: builds the index at `path` from imported data. It reads (the sources check the
/// whole input first), derives the read structures, writes them to a new structures file and the rows to a
/// temporary database beside the index, opens that pair as a reader would (checking every value), and only then
/// renames the database over the index in one step, which publishes both files (`IndexFiles`): a failed import
/// leaves the previous index answering exactly as before.
public struct IndexBuilder: PlaceStoreWriter {
    /// The index file it writes.
    public let path: String
    /// Whether it builds from the data shipped with Pindrop. The index records it (meta `origin`), so that
    /// such an index may be rebuilt unasked (after a format upgrade) and a user's own import never is.
    public let fromShippedData: Bool

    /// A writer of the index file at `path`.
    public init(path: String, fromShippedData: Bool = false) {
        self.path = path
        self.fromShippedData = fromShippedData
    }

    /// Builds the index from GeoNames data and, when given, OpenStreetMap street-level data.
    public func importGeoNames(_ source: any GeoNamesSource, streets: (any StreetDataSource)?,
                               progress: ImportProgress?) async throws -> ImportReport {
        try Self.build(from: source, streets: streets, to: path, origin: origin, progress: progress)
    }

    /// Replaces the street-level part of the index with `source`, reusing the stored GeoNames part.
    public func importStreets(_ source: any StreetDataSource, progress: ImportProgress?) async throws -> ImportReport {
        try Self.rebuild(path, streets: source, origin: origin, progress: progress)
    }

    /// The `origin` the index records.
    var origin: String { fromShippedData ? IndexDatabase.shippedOrigin : IndexDatabase.importOrigin }

    /// Builds the index at `path` from GeoNames data and any OpenStreetMap extracts (street addresses, streets,
    /// venues). `progress` gets (stage, fraction).
    static func build(from source: any GeoNamesSource, streets: (any StreetDataSource)? = nil, to path: String,
                      origin: String = IndexDatabase.importOrigin, progress: ImportProgress? = nil) throws -> ImportReport {
        let started = Date()
        ImportMemory.mapLargeBlocks()
        let countries = try source.countries()
        var admin1Names = try source.admin1Names()
        var report = ImportReport()
        let temporary = path + ".building"
        let buildID = UUID(), structures = IndexFiles.structuresName(forIndexAt: path, buildID: buildID)
        let structuresPath = IndexFiles.structuresPath(forIndexAt: path, named: structures)
        do {
            try writing(path) {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                        withIntermediateDirectories: true)
                // Rows go to the file as they are read, and into compact columns; the structures are derived
                // from those and written in the same transaction. Kept in this scope so that they are freed
                // before the new file is read back.
                try IndexDatabase(creatingAt: temporary).write { db in
                    var insert = try PlaceInserter(db)
                    var rows: GeoNamesRows
                    (report.summary, rows) = try GeoNamesRows.collect { handOver in
                        try source.readPlaces(progress: { progress?("reading", $0) }) { record in
                            try insert.insert(record)
                            handOver(record)
                        }
                    }
                    try insert.finish()
                    guard rows.count > 0 else {
                        throw PindropError.unreadableData("\(source.label) holds no readable GeoNames rows (\(report.summary.skipped.count) malformed)")
                    }
                    progress?("indexing", 0)
                    let allCountries = rows.finish(countries: countries, admin1Names: &admin1Names)
                    var places = rows.places, entries = rows.entries
                    rows = GeoNamesRows()
                    // Without street-level rows the name entries are complete: they are sorted on a thread of their
                    // own while the spatial index is built here.
                    let sortedBefore = streets == nil ? sortingNames({ [entries] in entries }, firstStreetLevelRow: places.count) : nil
                    if sortedBefore != nil { entries = NameEntries(keys: []) }
                    var spatial = SpatialIndex(latitudes: places.latitude, longitudes: places.longitude, weight: { places.population[Int($0)] })
                    spatial.addNearestCells()
                    let towns = TownFinder(spatial: spatial)
                    // Of the GeoNames rows alone, so made before street-level rows join them; on this thread, while
                    // the name entries are sorted on the others (which take longer).
                    let corrections = PlaceIndex.correctionForms(of: places), labelOrder = places.labelOrder()
                    var street = StreetLevel.empty
                    if let streets {
                        let features = try streets.readFeatures()
                        ImportMemory.returnFreed()
                        report.skippedAreas = features.skippedAreas
                        var townsByName: [String: [Int]] = [:]
                        for slot in AddressContext.nearbyTowns(of: features, spatial: spatial) {
                            for name in try IndexDatabase.names(db, geonameID: Int(places.geonameID[slot])) {
                                townsByName[TextFolding.fold(name), default: []].append(slot)
                            }
                        }
                        var streetNames: [(primary: [String], alternate: [String])] = []
                        let first = places.count
                        street = appendStreetLevel(features, to: &places, names: &streetNames, geonames: spatial, towns: towns,
                                                   townsByName: townsByName)
                        addNames(streetNames, firstRow: first, places: places, to: &entries)
                    }
                    let names = sortedBefore ?? sortingNames({ [entries] in entries }, firstStreetLevelRow: places.geonamesCount)
                    entries = NameEntries(keys: [])
                    // Each place's town, made as soon as the names are sorted (beside the sort both took longer), while
                    // the rest is written (one thread copies into the page cache); its section goes last.
                    let townsOfPlaces = Background { [spatial] in
                        _ = names.read()
                        return TownFinder.townsOfPlaces(spatial: spatial)
                    }
                    progress?("writing", 0.9)
                    try StructureFile.write(IndexStructures.encode(places: places, spatial: spatial, towns: towns, corrections: corrections,
                                                                   labelOrder: Column(labelOrder))
                                                + street.blobs() + nameStructures(names)
                                                + StoredArray.later(like: [StoredArray(TownFinder.townsSection, [Int32]())]) {
                                                    [StoredArray(TownFinder.townsSection, townsOfPlaces.wait())]
                                                },
                                            buildID: buildID, to: structuresPath)
                    try IndexDatabase.writeTables(db, countries: allCountries, admin1Names: admin1Names,
                        meta: ["source": source.label, "built_at": ISO8601DateFormatter().string(from: Date()),
                               "places": String(places.count), "origin": origin,
                               "osm_sources": streets?.labels.joined(separator: ",") ?? "",
                               IndexDatabase.buildIDKey: buildID.uuidString.lowercased(), IndexDatabase.structuresKey: structures])
                    report.nameEntries = names.read().index.count
                    report.count(street, places)
                }
            }
            // The new files must read back as an index, every value checked, before they may replace the one in use.
            ImportMemory.returnFreed()
            do {
                try PlaceIndex.verify(at: temporary)
            } catch {
                throw PindropError.internalFailure("the new index did not read back (\(error.message))")
            }
            // rename(2) swaps the file in one step: a reader finds the old index or the new one, never none.
            guard rename(temporary, path) == 0 else {
                throw PindropError.indexUnavailable("cannot move the new index into place at \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            unlink(structuresPath)
            throw error
        }
        IndexFiles.removeStructures(besideIndexAt: path, except: structures)
        progress?("done", 1)
        report.storeBytes = PlaceIndex.files(at: path).reduce(0) { $0 + fileSize($1) }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    /// Replaces the OpenStreetMap part of the index at `path` with these extracts. The GeoNames part is
    /// reused as stored (its folded names, spatial tree and rows), so only the street-level rows are derived
    /// anew and only the structures are rewritten: to a new structures file, checked, which one meta update then
    /// names (a failure before it leaves the index as it was). The index then holds the user's data: `origin`
    /// is an import's unless told otherwise.
    static func rebuild(_ path: String, streets source: any StreetDataSource, origin: String = IndexDatabase.importOrigin,
                        progress: ImportProgress? = nil) throws -> ImportReport {
        let started = Date()
        ImportMemory.mapLargeBlocks()
        var report = ImportReport()
        let buildID = UUID(), structures = IndexFiles.structuresName(forIndexAt: path, buildID: buildID)
        let structuresPath = IndexFiles.structuresPath(forIndexAt: path, named: structures)
        do {
            try writing(path) {
                let rows = try writeStructures(of: path, streets: source, buildID: buildID, to: structuresPath, report: &report, progress: progress)
                // What the build held is freed: the read-back's pages do not come on top of it.
                ImportMemory.returnFreed()
                let database = try IndexDatabase(updatingAt: path)
                do throws(PindropError) {
                    try PlaceIndex.verify(database, structures: structures, buildID: buildID.uuidString)
                } catch {
                    throw PindropError.internalFailure("the new index did not read back (\(error.message))")
                }
                try database.replaceMeta(["places": String(rows), "osm_sources": source.labels.joined(separator: ","), "origin": origin,
                                          IndexDatabase.buildIDKey: buildID.uuidString.lowercased(), IndexDatabase.structuresKey: structures])
            }
        } catch {
            unlink(structuresPath)
            throw error
        }
        IndexFiles.removeStructures(besideIndexAt: path, except: structures)
        progress?("done", 1)
        report.seconds = Date().timeIntervalSince(started)
        report.storeBytes = PlaceIndex.files(at: path).reduce(0) { $0 + fileSize($1) }
        return report
    }

    /// `rebuild`'s structures: the stored GeoNames part of the index at `path` with the street-level rows of
    /// `source`, written to `structuresPath`. Fills in the report's counts and returns the number of rows. What
    /// it builds is freed when it returns, and the features as soon as the rows are made from them.
    private static func writeStructures(of path: String, streets source: any StreetDataSource, buildID: UUID, to structuresPath: String,
                                        report: inout ImportReport, progress: ImportProgress?) throws -> Int {
        let index = try PlaceIndex.open(at: path)
        let geonamesCount = index.places.geonamesCount
        var places = index.places.prefix(geonamesCount)
        progress?("reading", 0.1)
        let old = index.names
        var rowNames: [(primary: [String], alternate: [String])] = []
        let street: StreetLevel
        do {
            let features = try source.readFeatures()
            // The reader's blocks and node locations, freed.
            ImportMemory.returnFreed()
            report.skippedAreas = features.skippedAreas
            // The towns' names, from the stored (folded) name entries.
            var isTown = [Bool](repeating: false, count: places.count)
            for town in AddressContext.nearbyTowns(of: features, spatial: index.spatial) { isTown[town] = true }
            var townsByName: [String: [Int]] = [:]
            for e in 0..<old.count where old.entryKind[e] != NameIndex.Kind.innerWord.rawValue && Int(old.entryPlace[e]) < isTown.count
                && isTown[Int(old.entryPlace[e])] {
                let start = Int(old.keyStart[e])
                townsByName[String(decoding: old.keyBytes[start..<start + Int(old.keyLength[e])], as: UTF8.self), default: []]
                    .append(Int(old.entryPlace[e]))
            }
            street = appendStreetLevel(features, to: &places, names: &rowNames, geonames: index.spatial, towns: index.townFinder,
                                       townsByName: townsByName)
        }
        ImportMemory.returnFreed()
        progress?("indexing", 0.4)
        // The stored GeoNames entries (already folded and scored), then the new street-level ones: gathered and sorted
        // on a thread of their own while the rest of the structures is written, and written last.
        let names = sortingNames({ [rowNames, places] in
            var entries = NameEntries(keys: Array(old.keyBytes))
            for e in 0..<old.count where Int(old.entryPlace[e]) < geonamesCount { entries.append(e, of: old) }
            addNames(rowNames, firstRow: geonamesCount, places: places, to: &entries)
            return entries
        }, firstStreetLevelRow: geonamesCount)
        rowNames = []
        progress?("writing", 0.8)
        try StructureFile.write(IndexStructures.encode(places: places, spatial: index.spatial, towns: index.townFinder,
                                                       corrections: index.corrections, labelOrder: index.labelOrder) + street.blobs()
                                    + [StoredArray(TownFinder.townsSection, index.townFinder.townOfPlace)] + nameStructures(names),
                                buildID: buildID, to: structuresPath)
        report.summary.rowsRead = geonamesCount
        report.summary.rowsImported = geonamesCount
        report.nameEntries = names.read().index.count
        report.count(street, places)
        return places.count
    }

    /// The name entries `entries` gives, sorted on a thread of their own, and their structures (street-level rows
    /// from `firstStreetLevelRow` on): the rest of the structures is written meanwhile.
    static func sortingNames(_ entries: @escaping () -> NameEntries, firstStreetLevelRow: Int) -> Background<SortedNames> {
        Background {
            let names = entries().index()
            return (names, IndexStructures.encode(names: names, firstStreetLevelRow: firstStreetLevelRow))
        }
    }

    /// A name index and its structures.
    typealias SortedNames = (index: NameIndex, structures: [StoredArray])

    /// The name structures of `sorting`, waited for when the file reaches them.
    static func nameStructures(_ sorting: Background<SortedNames>) -> [StoredArray] {
        StoredArray.later(like: IndexStructures.encode(names: NameEntries(keys: []).index(), firstStreetLevelRow: 0)) { sorting.read().structures }
    }

    /// Builds the index from records in memory (tests), as from a dump holding them.
    static func build(records: [GeoNamesRecord], countries: [GeoNamesCountry], admin1Names: [String: String],
                      streets: (any StreetDataSource)?, source: String, origin: String = IndexDatabase.importOrigin,
                      to path: String, progress: ImportProgress?) throws -> ImportReport {
        struct Records: GeoNamesSource {
            let records: [GeoNamesRecord], countryList: [GeoNamesCountry], admin1: [String: String], label: String
            func countries() -> [GeoNamesCountry] { countryList }
            func admin1Names() -> [String: String] { admin1 }
            func readPlaces(progress: ((Double) -> Void)?, _ body: (GeoNamesRecord) throws -> Void) throws -> ImportSummary {
                for r in records { try body(r) }
                var summary = ImportSummary()
                summary.rowsRead = records.count
                summary.rowsImported = records.count
                return summary
            }
        }
        return try build(from: Records(records: records, countryList: countries, admin1: admin1Names, label: source),
                         streets: streets, to: path, origin: origin, progress: progress)
    }

    /// Runs a write, turning a database or file system failure (disk full, no permission) into the one error
    /// users see.
    static func writing(_ path: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as PindropError {
            throw error
        } catch {
            throw PindropError.indexUnavailable("cannot write the index at \(path) (\(IndexDatabase.describe(error)))")
        }
    }

    static func fileSize(_ path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }

    /// Appends venues, address points (one per address) and streets (one per name) as rows after the
    /// GeoNames ones; each takes its country and admin1 from the nearest GeoNames place, and its town and
    /// postcode as `AddressContext` completes them. `townsByName`: folded names of the GeoNames places near the data.
    static func appendStreetLevel(_ features: OSMFeatures, to places: inout PlaceTable,
                                  names: inout [(primary: [String], alternate: [String])],
                                  geonames: SpatialIndex, towns: TownFinder, townsByName: [String: [Int]]) -> StreetLevel {
        var areas = AreaIndex(features.areas)
        let context = AddressContext(features: features, places: places, spatial: geonames, towns: towns, townsByName: townsByName,
                                     areas: areas)
        let geonamesRows = places
        /// Where a row belongs: the nearest GeoNames place, whose country and admin1 it takes (one in the same town
        /// where a boundary says which that is, so a street near a border is not filed under the neighbouring
        /// town's admin1), and its address. Only reads, so rows are placed on every core at once.
        func placement(_ c: Coordinate, _ kind: PlaceTable.RowKind, _ address: Address?) -> (nearest: Int?, address: Address) {
            let town = areas.isEmpty ? nil : areas.chain(at: c)[.city]
            let nearest = town.flatMap { town in
                geonames.nearest(latitude: c.latitude, longitude: c.longitude, k: 8).lazy.map { Int($0.place) }
                    .first { areas.contains(town, Coordinate(latitude: geonamesRows.latitude[$0], longitude: geonamesRows.longitude[$0])) }
            } ?? geonames.nearest(latitude: c.latitude, longitude: c.longitude).map { Int($0.place) }
            // An area's address is the areas that hold it, as given; everything else is completed where it lies.
            let completed = kind == .area ? address ?? Address()
                : context.complete(address ?? Address(), at: c, postcode: address?.street != nil && kind != .street)
            return (nearest, completed)
        }
        func append(_ name: String, _ c: Coordinate, _ kind: PlaceTable.RowKind, id: String, category: String?,
                    categoryKey: String? = nil, address: Address?, primary: [String], alternate: [String] = [],
                    placed: (nearest: Int?, address: Address)? = nil) {
            let (nearest, address) = placed ?? placement(c, kind, address)
            places.geonameID.append(0)
            places.latitude.append(c.latitude)
            places.longitude.append(c.longitude)
            places.population.append(0)
            places.country.append(nearest.map { places.country[$0] } ?? PlaceTable.noCountry)
            places.admin1.append(nearest.map { places.admin1[$0] } ?? -1)
            places.nameBytes.append(contentsOf: name.utf8)
            places.nameStart.append(UInt32(places.nameBytes.count))
            places.kind.append(kind.rawValue)
            places.extraBytes.modify { PlaceTable.appendExtras(to: &$0, id: id, category: category, categoryKey: categoryKey, address: address) }
            places.extraStart.append(UInt32(places.extraBytes.count))
            names.append((primary, alternate))
        }
        // Each kind's scratch (placements, lookups) in a scope of its own, freed before the next kind's: at the
        // end the street level is built beside the features, the import's peak.
        do {
            let venuesPlaced = features.venues.concurrentMap { placement($0.coordinate, .venue, $0.address) }
            for (v, placed) in zip(features.venues, venuesPlaced) {
                append(v.name, v.coordinate, .venue, id: v.id, category: v.category, categoryKey: v.categoryKey, address: v.address,
                       primary: [v.name], placed: placed)
            }
        }
        // One row per address (many shops inside one building carry the same address), but every point
        // kept for reverse geocoding, so anywhere in that building answers with its address.
        var addressPoints: [(row: Int, point: Coordinate)] = []
        do {
            var rowOfAddress: [String: Int] = [:]
            var addressRows: [OSMAddressPoint] = []
            for a in features.addressPoints {
                guard let street = a.address.street, let number = a.address.houseNumber else { continue }
                let key = TextFolding.fold("\(street) \(number)")
                if let row = rowOfAddress[key] { addressPoints.append((row, a.coordinate)); continue }
                rowOfAddress[key] = places.count + addressRows.count
                addressPoints.append((places.count + addressRows.count, a.coordinate))
                addressRows.append(a)
            }
            let addressesPlaced = addressRows.concurrentMap { placement($0.coordinate, .address, $0.address) }
            for (a, placed) in zip(addressRows, addressesPlaced) {
                let street = a.address.street ?? "", number = a.address.houseNumber ?? ""
                append("\(street) \(number)", a.coordinate, .address, id: a.id, category: nil, address: a.address,
                       primary: ["\(street) \(number)"], alternate: ["\(number) \(street)"], placed: placed)
            }
        }
        // One row per street name and town (a "Landstrasse" in each of three towns is three streets), at a
        // point of its longest piece in that town; every piece feeds the nearest-street tree.
        var lines: [(row: Int, points: [Coordinate])] = []
        do {
            let pieces = splitAtTownBoundaries(features.streets.filter { $0.points.count >= 2 }, areas: areas)
            let pieceTowns = pieces.concurrentMap { context.complete(Address(), at: $0.label, postcode: false).town ?? "" }
            let byName = Dictionary(grouping: zip(pieces, pieceTowns)) { piece, town in
                TextFolding.fold(piece.street.name) + "\u{1F}" + town
            }.mapValues { $0.map(\.0) }
            for key in byName.keys.sorted() {
                let ways = byName[key]!
                let longest = ways.max { length($0.street.points) < length($1.street.points) }!
                let row = places.count
                append(longest.street.name, longest.label, .street, id: longest.street.id,
                       category: longest.street.highway, address: Address(street: longest.street.name), primary: [longest.street.name])
                lines += ways.map { (row, $0.street.points) }
            }
        }
        // Areas by name: one that a GeoNames place inside it is named after (Vaduz) lends that place its box at
        // answer time; any other (a district, a county) becomes a row of its own, at its centre.
        areas.twins = areas.areas.indices.map { a in
            let area = areas.areas[a]
            guard area.level != .postcode else { return -1 }
            let twin = (townsByName[TextFolding.fold(area.name)] ?? [])
                .filter { areas.contains(a, Coordinate(latitude: places.latitude[$0], longitude: places.longitude[$0])) }
                .max { places.population[$0] < places.population[$1] }
            if let twin { return Int32(twin) }
            let osm = features.areas[a]
            let centre = areas.centre(of: a)
            let address = areas.address(of: areas.containing(centre).filter { areas.areas[$0].level < area.level })
            append(area.name, centre, .area, id: area.id, category: "\(area.level)", address: address,
                   primary: [area.name], alternate: osm.localizedNames.values.filter { $0 != area.name })
            return -1
        }
        let shapes = features.streets.map { MapFeature(kind: .street, id: $0.id, name: $0.name, category: $0.highway, lines: [$0.points]) }
            + features.buildings.map { MapFeature(kind: .building, id: $0.id, name: $0.name, category: $0.kind, lines: $0.outlines) }
        return StreetLevel(places: places, addressPoints: addressPoints, streetLines: lines, features: shapes, areas: areas)
    }

    /// The streets cut where they cross from one town's boundary into another's, so each part counts as a
    /// street of the town it runs through, each with a point inside that town to stand for it (its middle
    /// vertex there). A part keeps the segments that cross into its neighbours, so the parts still join up.
    /// Where the index has no town boundaries, each street is one part, labelled at its middle vertex.
    static func splitAtTownBoundaries(_ streets: [OSMStreet], areas: AreaIndex) -> [(street: OSMStreet, label: Coordinate)] {
        guard areas.areas.contains(where: { $0.level == .city }) else { return streets.map { ($0, $0.points[$0.points.count / 2]) } }
        var parts: [(street: OSMStreet, label: Coordinate)] = []
        for street in streets {
            let towns = street.points.map { areas.chain(at: $0)[.city] ?? -1 }
            var runStart = 0
            for end in 1...street.points.count where end == street.points.count || towns[end] != towns[end - 1] {
                // The run runStart ..< end lies in one town; with the vertices either side, it keeps its crossings.
                let points = Array(street.points[max(runStart - 1, 0)...min(end, street.points.count - 1)])
                parts.append((OSMStreet(id: street.id, name: street.name, highway: street.highway, points: points),
                              street.points[(runStart + end - 1) / 2]))
                runStart = end
            }
        }
        return parts
    }

    static func length(_ points: [Coordinate]) -> Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }

    /// Longest folded name kept, in bytes (longer "names" in the dumps are descriptions, not names).
    static let maxKeyBytes = 120

    /// Whether an alternate name in the dumps (its UTF-8) is a name: some are links to articles, which hold "http".
    /// Character by character (Foundation's `contains`) it cost 11% of an import; a byte search answers nearly
    /// every name, and only a byte hit is confirmed the old way, so that which names count is unchanged.
    static func isName(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 4 else { return true }
        for i in 0...(bytes.count - 4) where bytes[i] == 0x68 && bytes[i + 1] == 0x74 && bytes[i + 2] == 0x74 && bytes[i + 3] == 0x70 {
            return !String(decoding: bytes, as: UTF8.self).contains("http")
        }
        return true
    }

    /// Folds and adds the names of rows firstRow, firstRow + 1, ... (one tuple each) as name entries.
    static func addNames(_ rowNames: [(primary: [String], alternate: [String])], firstRow: Int, places: PlaceTable,
                         to entries: inout NameEntries) {
        for (n, row) in rowNames.enumerated() {
            entries.addRow(primary: row.primary, alternate: row.alternate, place: firstRow + n, importance: places.importance(firstRow + n))
        }
    }
}

extension ImportReport {
    /// Fills in the street-level counts of a built index.
    mutating func count(_ street: StreetLevel, _ places: PlaceTable) {
        venues = street.venueRows.count
        addresses = street.addressRows.count
        streets = places.kind.filter { $0 == PlaceTable.RowKind.street.rawValue }.count
        areas = street.areas.areas.count
    }
}

/// Name entries being collected, before sorting into a `NameIndex`.
struct NameEntries {
    var keys: [UInt8]
    var starts: [UInt32] = [], lengths: [UInt8] = [], owners: [Int32] = [], kinds: [UInt8] = [], scores: [Float] = []
    /// Where each alternate name lies in its place's alternate names (`NameIndex.alternateAt`).
    var alternateAt: [UInt16] = []

    /// Adds one folded name of a place, once per place (an alternate name at `at` in the place's alternate names).
    private mutating func add(_ bytes: ArraySlice<UInt8>, place: Int, kind: NameIndex.Kind, importance: Float,
                              at: UInt16 = NameIndex.notAtKnownOffset) {
        guard !bytes.isEmpty, bytes.count <= IndexBuilder.maxKeyBytes else { return }
        // Each name once per place: the row's keys so far are told apart by a hash (FNV-1a), then by their bytes
        // (no set of arrays, whose copies cost an allocation a name).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for (seenHash, entry) in rowKeys where seenHash == hash {
            let e = Int(entry), start = Int(starts[e])
            guard keys[start..<(start + Int(lengths[e]))].elementsEqual(bytes) else { continue }
            // Another spelling of an alternate name the place has ("Munchen" after "München"): the answer picks
            // among them by the typed text, so it must know to look past the first.
            if kind == .alternate, alternateAt[e] != NameIndex.notAtKnownOffset { alternateAt[e] |= NameIndex.otherSpellings }
            return
        }
        rowKeys.append((hash, Int32(starts.count)))
        starts.append(UInt32(keys.count))
        keys.append(contentsOf: bytes)
        lengths.append(UInt8(bytes.count))
        owners.append(Int32(place))
        kinds.append(kind.rawValue)
        scores.append(importance - kind.penalty)
        alternateAt.append(at)
    }

    /// Scratch space of a row's names, kept between rows: the folded name, and the hash and entry of each key the
    /// row has.
    var folded: [UInt8] = [], rowKeys: [(hash: UInt64, entry: Int32)] = []

    /// Folds and adds one row's names: each once, alternates that are names (not links), and the later words of
    /// its primary names, so "york" finds "New York" (ranked below names that start so).
    mutating func addRow(primary: [String], alternate: [String], place: Int, importance: Float) {
        startRow()
        for name in primary { addPrimary(name, place: place, importance: importance) }
        for var name in alternate {
            name.withUTF8 { if IndexBuilder.isName(utf8: $0) { addAlternate(utf8: $0, at: nil, place: place, importance: importance) } }
        }
    }

    /// Starts a row's names (`addRow` in parts, for a row whose alternate names are bytes already).
    mutating func startRow() { rowKeys.removeAll(keepingCapacity: true) }

    /// A primary name of the row, and its later words.
    mutating func addPrimary(_ name: String, place: Int, importance: Float) {
        folded.removeAll(keepingCapacity: true)
        TextFolding.fold(name, into: &folded)
        add(folded[...], place: place, kind: .primary, importance: importance)
        for (j, byte) in folded.enumerated() where byte == 0x20 {
            add(folded[(j + 1)...], place: place, kind: .innerWord, importance: importance)
        }
    }

    /// An alternate name of the row that is a name (`IndexBuilder.isName`), as UTF-8, `offset` bytes into the row's
    /// alternate names in the place table (nil when the table does not keep them).
    mutating func addAlternate(utf8 name: UnsafeBufferPointer<UInt8>, at offset: Int?, place: Int, importance: Float) {
        folded.removeAll(keepingCapacity: true)
        TextFolding.fold(utf8: name, into: &folded)
        let at = offset.flatMap { $0 <= Int(NameIndex.largestKnownOffset) ? UInt16($0) : nil } ?? NameIndex.notAtKnownOffset
        add(folded[...], place: place, kind: .alternate, importance: importance, at: at)
    }

    /// Appends entry `e` of `index`, as stored.
    mutating func append(_ e: Int, of index: NameIndex) {
        starts.append(index.keyStart[e]); lengths.append(index.keyLength[e]); owners.append(index.entryPlace[e])
        kinds.append(index.entryKind[e]); scores.append(index.entryScore[e]); alternateAt.append(index.alternateAt[e])
    }

    func index() -> NameIndex {
        NameIndex(keys: keys, starts: starts, lengths: lengths, places: owners, kinds: kinds, scores: scores, alternateAt: alternateAt)
    }
}
