import Foundation
import GRDB
import PindropCore

/// A whole index built from a GeoNames dump and any OpenStreetMap extracts, inside the new database's one write
/// transaction (`IndexBuilder.build`): `stage` reads and stores the rows, `derive` makes the read structures and
/// writes them and the database's tables.
struct GeoNamesBuild {
    let source: any GeoNamesSource
    let streets: (any StreetDataSource)?
    let db: Database
    let progress: ImportProgress?
    let countries: [GeoNamesCountry]
    var admin1Names: [String: String]

    init(source: any GeoNamesSource, streets: (any StreetDataSource)?, db: Database, progress: ImportProgress?) throws {
        (self.source, self.streets, self.db, self.progress) = (source, streets, db, progress)
        countries = try source.countries()
        admin1Names = try source.admin1Names()
    }

    /// Reads the dump: each row stored in the database as it is read, and kept as compact columns and name entries.
    func stage(report: inout ImportReport) throws -> GeoNamesRows {
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
        return rows
    }

    /// Derives the read structures from the rows (and the street-level rows of the extracts) and writes them to the
    /// structures files (`geonames` those of the GeoNames rows alone), and the countries, admin1 divisions and meta
    /// to the database.
    mutating func derive(_ rows: inout GeoNamesRows, report: inout ImportReport, writing target: StructureTarget, geonames: StructureTarget,
                         meta: [String: String]) throws {
        progress?("indexing", 0)
        let allCountries = rows.finish(countries: countries, admin1Names: &admin1Names)
        let places = rows.places
        // The GeoNames rows' name entries, a run of their own: sorted on a thread of their own while the spatial index
        // and the street level are built here.
        let names = IndexBuilder.sortingNames({ [entries = rows.entries] in entries }, prefix: NameIndex.geonamesSections)
        rows = GeoNamesRows()
        var spatial = SpatialIndex(latitudes: places.latitude, longitudes: places.longitude, weight: { places.population[Int($0)] })
        spatial.addNearestCells()
        let towns = TownFinder(spatial: spatial)
        // Of the GeoNames rows alone; on this thread, while the name entries are sorted on the others (which take longer).
        let corrections = CorrectionForms(places: places), labelOrder = places.labelOrder()
        var street = StreetLevel.empty, streetPlaces = PlaceTable.empty, streetEntries = NameEntries(keys: [])
        if let streets {
            (street, streetPlaces) = try addStreetLevel(streets, places: places, entries: &streetEntries, spatial: spatial, towns: towns,
                                                        report: &report)
        }
        let streetNames = IndexBuilder.sortingNames({ [streetEntries] in streetEntries }, prefix: NameIndex.streetSections)
        streetEntries = NameEntries(keys: [])
        // Each place's town, made as soon as the names are sorted (beside the sort both took longer), while the rest
        // is written (one thread copies into the page cache); its section goes last.
        let townsOfPlaces = Background { [spatial] in
            _ = names.read()
            return TownFinder.townsOfPlaces(spatial: spatial)
        }
        progress?("writing", 0.9)
        // The build's file first: it is written while the GeoNames names are still being sorted.
        try StructureFile.write(IndexStructures.encode(streetPlaces: streetPlaces, namesAfter: places.nameBytes.count) + street.blobs()
                                    + IndexBuilder.nameStructures(streetNames, prefix: NameIndex.streetSections),
                                buildID: target.buildID, to: target.path)
        try StructureFile.write(IndexStructures.encodeGeoNames(places: places, spatial: spatial, towns: towns, corrections: corrections,
                                                               labelOrder: Column(labelOrder))
                                    + IndexBuilder.nameStructures(names, prefix: NameIndex.geonamesSections)
                                    + StoredArray.later(like: [StoredArray(TownFinder.townsSection, [Int32]())]) {
                                        [StoredArray(TownFinder.townsSection, townsOfPlaces.wait())]
                                    },
                                buildID: geonames.buildID, to: geonames.path)
        try IndexDatabase.writeTables(db, countries: allCountries, admin1Names: admin1Names, meta: meta.merging([
            "source": source.label, "built_at": ISO8601DateFormatter().string(from: Date()), "places": String(places.count + streetPlaces.count),
            "osm_sources": streets?.labels.joined(separator: ",") ?? "", IndexDatabase.buildIDKey: target.buildID.uuidString.lowercased(),
            IndexDatabase.geonamesBuildIDKey: geonames.buildID.uuidString.lowercased(),
        ].merging(IndexDatabase.replicationMeta(streets?.replication)) { $1 }) { given, _ in given })
        report.nameEntries = names.read().index.count + streetNames.read().index.count
        report.count(street, streetPlaces)
    }

    /// The extracts' features made rows after the GeoNames ones (`places`), and their names entries; the street level
    /// over them and the rows.
    private func addStreetLevel(_ streets: any StreetDataSource, places: PlaceTable, entries: inout NameEntries, spatial: SpatialIndex,
                                towns: TownFinder, report: inout ImportReport) throws -> (StreetLevel, PlaceTable) {
        let features = try streets.readFeatures()
        ImportMemory.returnFreed()
        report.skippedAreas = features.skippedAreas
        var townsByName: [String: [Int]] = [:]
        for row in AddressContext.nearbyTowns(of: features, spatial: spatial) {
            for name in try IndexDatabase.names(db, geonameID: Int(places.geonameID[row])) {
                townsByName[TextFolding.fold(name), default: []].append(row)
            }
        }
        var rows = StreetLevelRows(features, geonamesRows: places, geonames: spatial, towns: towns, townNames: TownNames(townsByName))
        let street = rows.append()
        entries.addRows(rows.names, firstRow: places.count, places: rows.places)
        return (street, rows.places)
    }
}

/// Where a build writes a structures file, and the build id the file carries.
struct StructureTarget {
    let path: String
    let buildID: UUID
}
