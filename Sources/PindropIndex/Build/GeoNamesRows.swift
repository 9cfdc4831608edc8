import Foundation
import PindropCore

/// GeoNames rows as they stream in from a dump, kept only as the place table's columns and the folded name
/// entries (no `GeoNamesRecord` is held: at 12 M rows those were half of an import's memory). Countries and
/// admin1 divisions are numbered as first seen until every code is known, and rows stay in file order until
/// `finish` sorts them by id if the file was not. The columns grow as plain arrays (a `Column`'s append checks
/// its storage each time) and become the place table in `finish`.
struct GeoNamesRows {
    /// The place table, once `finish` has made it.
    private(set) var places = PlaceTable.empty
    var entries = NameEntries(keys: [])
    /// Each row's id as read (the table keeps 32 bits).
    private var ids: [Int] = []
    private var latitude: [Double] = [], longitude: [Double] = [], population: [Int32] = []
    /// Whether each row is a country's capital (feature code PPLC).
    private var capitals: [Bool] = []
    private var country: [UInt16] = [], admin1: [Int32] = []
    private var nameStart: [UInt32] = [0], nameBytes: [UInt8] = [], alternateStart: [UInt32] = [0], alternateBytes: [UInt8] = []
    private var countryCodes: [String] = [], countryOfCode: [String: UInt16] = [:]
    private var admin1Keys: [String] = [], admin1OfKey: [String: Int32] = [:]

    var count: Int { ids.count }

    mutating func append(_ r: GeoNamesRecord) {
        let i = ids.count
        ids.append(r.geonameID)
        latitude.append(r.latitude)
        longitude.append(r.longitude)
        population.append(Int32(clamping: r.population))
        capitals.append(r.featureCode == "PPLC")
        country.append(r.countryCode.isEmpty ? PlaceTable.noCountry : Self.number(r.countryCode, &countryCodes, &countryOfCode))
        admin1.append(Self.number("\(r.countryCode).\(r.admin1Code)", &admin1Keys, &admin1OfKey))
        nameBytes.append(contentsOf: r.name.utf8)
        nameStart.append(UInt32(nameBytes.count))
        let importance = Ranking.importance(population: population[i], kind: .geonames, capital: capitals[i])
        entries.startRow()
        entries.addPrimary(r.name, place: i, importance: importance)
        entries.addPrimary(r.asciiName, place: i, importance: importance)
        // Alternate names that are names (not links), from the record's bytes: into the column separated by U+001F,
        // as `PlaceTable.alternate` reads them, and folded into the name entries.
        var text = r.alternateNamesText, first = true
        text.withUTF8 { all in
            var start = 0
            for end in 0...all.count where end == all.count || all[end] == GeoNamesRecord.alternateSeparator {
                defer { start = end + 1 }
                let name = UnsafeBufferPointer(rebasing: all[start..<end])
                guard !name.isEmpty, NameEntries.isName(utf8: name) else { continue }
                if !first { alternateBytes.append(GeoNamesRecord.alternateSeparator) }
                let offset = alternateBytes.count - Int(alternateStart[i])
                alternateBytes.append(contentsOf: name)
                first = false
                entries.addAlternate(utf8: name, at: offset, place: i, importance: importance)
            }
        }
        alternateStart.append(UInt32(alternateBytes.count))
    }

    /// The provisional number of `key`, given on first sight. Static: a method of `self` taking two of its
    /// properties inout would copy the whole table on every row.
    private static func number<N: FixedWidthInteger>(_ key: String, _ keys: inout [String], _ numbers: inout [String: N]) -> N {
        if let n = numbers[key] { return n }
        let n = N(keys.count)
        keys.append(key)
        numbers[key] = n
        return n
    }

    /// Sorts the rows by id (of equal ids the last read stays, as a re-import would replace it), names every
    /// admin1 division a row uses in `admin1Names` (with "" when the table lacks it), gives every row its final
    /// country and admin1 number, and makes `places`. Returns `countries` with, named by their code, those the rows
    /// use but it lacks: every country a place names is stored, or the index would not read back.
    mutating func finish(countries: [GeoNamesCountry], admin1Names: inout [String: String]) -> [GeoNamesCountry] {
        if zip(ids, ids.dropFirst()).contains(where: { $0 >= $1 }) { sortByID() }
        var usedCountries = [Bool](repeating: false, count: countryCodes.count)
        var usedAdmin1 = [Bool](repeating: false, count: admin1Keys.count)
        for c in country where c != PlaceTable.noCountry { usedCountries[Int(c)] = true }
        for a in admin1 { usedAdmin1[Int(a)] = true }
        for (k, key) in admin1Keys.enumerated() where usedAdmin1[k] {
            let code = key.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).last ?? ""
            if !code.isEmpty, code != "00", admin1Names[key] == nil { admin1Names[key] = "" }
        }
        var all = countries
        var known = Set(countries.map(\.code))
        for (k, code) in countryCodes.enumerated() where usedCountries[k] && known.insert(code).inserted {
            all.append(GeoNamesCountry(code: code, iso3: "", name: code))
        }
        let (countryInfos, admin1Infos) = Divisions.make(countries: all, admin1Names: admin1Names)
        let finalCountry = Dictionary(uniqueKeysWithValues: countryInfos.enumerated().map { ($1.code, UInt16($0)) })
        let finalAdmin1 = Dictionary(uniqueKeysWithValues: admin1Infos.enumerated().map { ("\($1.countryCode).\($1.code)", Int32($0)) })
        let countryMap = countryCodes.map { finalCountry[$0] ?? PlaceTable.noCountry }
        let admin1Map = admin1Keys.map { finalAdmin1[$0] ?? -1 }
        for i in country.indices where country[i] != PlaceTable.noCountry { country[i] = countryMap[Int(country[i])] }
        for i in admin1.indices { admin1[i] = admin1Map[Int(admin1[i])] }
        let n = ids.count
        places = PlaceTable(geonameID: Column(ids.map { Int32(truncatingIfNeeded: $0) }), latitude: Column(latitude),
                            longitude: Column(longitude), population: Column(population), country: Column(country),
                            admin1: Column(admin1), nameStart: Column(nameStart), nameBytes: Column(nameBytes),
                            kind: Column((0..<n).map {
                                PlaceTable.geonamesKind(name: nameBytes[Int(nameStart[$0])..<Int(nameStart[$0 + 1])], capital: capitals[$0])
                            }),
                            extraStart: Column([UInt32](repeating: 0, count: n + 1)), extraBytes: [],
                            countries: countryInfos, admin1s: admin1Infos,
                            alternateStart: Column(alternateStart), alternateBytes: Column(alternateBytes))
        ids = []; latitude = []; longitude = []; population = []; country = []; admin1 = []; capitals = []
        nameStart = []; nameBytes = []; alternateStart = []; alternateBytes = []
        return all
    }

    /// Puts the rows in id order (a dump out of order, or with an id twice), and their name entries with them,
    /// row after row as a sorted dump would have added them.
    private mutating func sortByID() {
        let order = ids.indices.sorted { ids[$0] < ids[$1] }
        let kept = order.indices.filter { $0 + 1 == order.count || ids[order[$0 + 1]] != ids[order[$0]] }.map { order[$0] }
        var newRow = [Int32](repeating: -1, count: ids.count)
        for (n, old) in kept.enumerated() { newRow[old] = Int32(n) }
        func bytes(_ all: [UInt8], _ start: [UInt32]) -> (bytes: [UInt8], start: [UInt32]) {
            var sorted: (bytes: [UInt8], start: [UInt32]) = ([], [0])
            for old in kept {
                sorted.bytes += all[Int(start[old])..<Int(start[old + 1])]
                sorted.start.append(UInt32(sorted.bytes.count))
            }
            return sorted
        }
        (nameBytes, nameStart) = bytes(nameBytes, nameStart)
        (alternateBytes, alternateStart) = bytes(alternateBytes, alternateStart)
        ids = kept.map { ids[$0] }
        latitude = kept.map { latitude[$0] }; longitude = kept.map { longitude[$0] }; population = kept.map { population[$0] }
        capitals = kept.map { capitals[$0] }
        country = kept.map { country[$0] }; admin1 = kept.map { admin1[$0] }
        // Entries grouped by their new row, those of dropped rows left out.
        let (_, keptEntries) = groupedByKey(entries.owners.map { Int(newRow[Int($0)]) }, keyCount: kept.count)
        var sorted = NameEntries(keys: entries.keys)
        for e in keptEntries.lazy.map({ Int($0) }) {
            sorted.starts.append(entries.starts[e]); sorted.lengths.append(entries.lengths[e])
            sorted.owners.append(newRow[Int(entries.owners[e])]); sorted.kinds.append(entries.kinds[e]); sorted.scores.append(entries.scores[e])
            sorted.alternateAt.append(entries.alternateAt[e])
        }
        entries = sorted
    }
}

extension GeoNamesRows {
    /// Runs `read`, which hands each record over, and appends the records to rows on a second thread meanwhile:
    /// folding and numbering the names there while the caller parses and stores the next ones nearly halves an
    /// import's reading time on two cores. Records keep their order. When `read` throws, the rows are dropped.
    static func collect(_ read: (_ handOver: (GeoNamesRecord) -> Void) throws -> ImportSummary) throws -> (ImportSummary, GeoNamesRows) {
        // Batches of records, at most 64 waiting (some 30 MB): enough that the reader goes on while the rows stop
        // for a moment to move a column that has outgrown its space (at 12 M rows, a copy of up to 1 GB).
        let batchSize = 1024, handoff = Handoff<[GeoNamesRecord], Never>(capacity: 64)
        let appender = Background { () -> GeoNamesRows in
            var rows = GeoNamesRows()
            while let batch = handoff.take() {
                for record in batch { rows.append(record) }
            }
            return rows
        }
        var batch: [GeoNamesRecord] = []
        batch.reserveCapacity(batchSize)
        let summary: ImportSummary
        do {
            summary = try read { record in
                batch.append(record)
                if batch.count == batchSize {
                    _ = handoff.put(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
        } catch {
            handoff.finish()
            _ = appender.wait()
            throw error
        }
        if !batch.isEmpty { _ = handoff.put(batch) }
        handoff.finish()
        return (summary, appender.wait())
    }
}
