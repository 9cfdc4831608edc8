import Foundation
import PindropCore

/// A country as the index knows it, with the forms a qualifier may take.
struct CountryInfo: Sendable {
    var code: String
    var iso3: String
    var name: String
    /// Folded forms that name this country in a qualifier: "us", "usa", "united states", ...
    var qualifierForms: [String]
}

/// A first-level division ("US.IL" → Illinois).
struct Admin1Info: Sendable {
    var countryCode: String
    /// The part after "CC." ("IL", "08").
    var code: String
    var name: String
    var qualifierForms: [String]
}

/// Places as parallel columns (compact; in an open index, sections of the mapped structures file).
struct PlaceTable: Sendable {
    var geonameID: Column<Int32>
    var latitude: Column<Double>
    var longitude: Column<Double>
    var population: Column<Int32>
    /// Index into `countries`, or `noCountry`.
    var country: Column<UInt16>
    /// Index into `admin1s`, or -1.
    var admin1: Column<Int32>
    /// Place i's name is nameBytes[nameStart[i] ..< nameStart[i + 1]].
    var nameStart: Column<UInt32>
    var nameBytes: Column<UInt8>
    /// What each row is (`RowKind`): GeoNames rows come first, sorted by id, then OpenStreetMap rows. A GeoNames
    /// row that could be a section of a city also has `sectionLike` set (`couldBeSection`).
    var kind: Column<UInt8>
    /// OpenStreetMap rows' id, category and address: extraBytes[extraStart[i] ..< extraStart[i + 1]] holds
    /// "id␟category␟houseNumber␟street␟postcode␟town" (␟ = U+001F); empty for GeoNames rows.
    var extraStart: Column<UInt32>
    var extraBytes: Column<UInt8>
    var countries: [CountryInfo]
    var admin1s: [Admin1Info]
    /// GeoNames rows' alternate names as imported, separated by U+001F: row i's are
    /// alternateBytes[alternateStart[i] ..< alternateStart[i + 1]] (none for street-level rows), so a match
    /// through an alternate name can show that name as written ("Helsingfors", not "helsingfors").
    var alternateStart: Column<UInt32> = [0]
    var alternateBytes: Column<UInt8> = []

    static let noCountry = UInt16.max
    /// The bit of a row's `kind` byte set when its name could make it a section of a city (`couldBeSection`): ranking
    /// asks of every candidate, and the kind is read anyway, where the name was another two reads far apart.
    static let sectionLike: UInt8 = 0x80

    /// The kinds of rows, in the order they are stored.
    enum RowKind: UInt8 {
        case geonames = 0, venue = 1, address = 2, street = 3, area = 4
        /// Added to importance: with no population to go by, a street outranks one of its addresses, and an area
        /// (a district, a county) ranks as a village of ~800 people would.
        var bonus: Float { switch self { case .geonames, .address: 0; case .venue: 1; case .street: 1.5; case .area: 3 } }
        /// The kind of place a row of this kind is.
        var placeKind: PlaceKind {
            switch self { case .geonames: .place; case .venue: .venue; case .address: .address; case .street: .street; case .area: .area }
        }
    }

    /// Rows 0 ..< geonamesCount are GeoNames places, sorted by id. They come first, so a binary search finds the
    /// first other row (callers ask per query; a scan of every row was 235,000 reads).
    var geonamesCount: Int {
        firstIndex(in: kind.indices) { rowKind($0) != .geonames }
    }

    func rowKind(_ i: Int) -> RowKind { RowKind(rawValue: kind[i] & ~Self.sectionLike) ?? .geonames }

    /// The first `n` rows (the GeoNames part, when n is `geonamesCount`).
    func prefix(_ n: Int) -> PlaceTable {
        PlaceTable(geonameID: Column(geonameID[..<n]), latitude: Column(latitude[..<n]), longitude: Column(longitude[..<n]),
                   population: Column(population[..<n]), country: Column(country[..<n]), admin1: Column(admin1[..<n]),
                   nameStart: Column(nameStart[...n]), nameBytes: Column(nameBytes[..<Int(nameStart[n])]),
                   kind: Column(kind[..<n]), extraStart: Column(extraStart[...n]),
                   extraBytes: Column(extraBytes[..<Int(extraStart[n])]), countries: countries, admin1s: admin1s,
                   alternateStart: Column(alternateStart[...min(n, alternateStart.count - 1)]),
                   alternateBytes: Column(alternateBytes[..<Int(alternateStart[min(n, alternateStart.count - 1)])]))
    }

    /// The alternate name of row i, as imported, whose folded form is `key`; of several ("Munchen", "München"),
    /// the one written as `typed` starts; nil when none is. `at` is where the first such name lies in the row's
    /// alternate names when the name index knows it (`NameIndex.alternateAt`): the names before it are not read,
    /// nor those after it when it is the only one.
    func alternate(_ i: Int, at: UInt16, foldedAs key: some Collection<UInt8>, typed: String) -> String? {
        guard i + 1 < alternateStart.count else { return nil }
        var folded: [UInt8] = []
        var first: String?
        lazy var lowercased = typed.lowercased()
        let rowStart = Int(alternateStart[i]), end = Int(alternateStart[i + 1])
        let known = at != NameIndex.notAtKnownOffset, offset = Int(at & ~NameIndex.otherSpellings)
        let onlySpelling = known && at & NameIndex.otherSpellings == 0
        return alternateBytes.withUnsafeBufferPointer { all in
            // A known offset out of the row's names (a damaged file) reads them all, as an unknown one does.
            var start = known && offset < end - rowStart ? rowStart + offset : rowStart
            // Name by name, without splitting them all first: a big city has hundreds, and most differ from the key
            // in their first letters. Each is folded from its bytes; a String is made only of one that matches.
            while start < end {
                let stop = memchr(all.baseAddress! + start, 0x1F, end - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(all.baseAddress!) } ?? end
                let name = UnsafeBufferPointer(rebasing: all[start..<stop])
                start = stop + 1
                if name.isEmpty || TextFolding.foldedStart(of: name, differsFrom: key) { continue }
                folded.removeAll(keepingCapacity: true)
                TextFolding.fold(utf8: name, into: &folded)
                guard folded.elementsEqual(key) else { continue }
                let text = String(decoding: name, as: UTF8.self)
                if onlySpelling || text.lowercased().hasPrefix(lowercased) { return text }
                first = first ?? text
            }
            return first
        }
    }

    /// An OpenStreetMap row's category alone (the second field of its extras, as `extras(_:)` reads it), without
    /// making strings of the other ten.
    func category(_ i: Int) -> String? {
        let range = Int(extraStart[i])..<Int(extraStart[i + 1])
        return extraBytes.withUnsafeBufferPointer { all in
            let bytes = UnsafeBufferPointer(rebasing: all[range])
            guard let end = bytes.firstIndex(of: 0x1F) else { return nil }
            let rest = UnsafeBufferPointer(rebasing: bytes[(end + 1)...])
            let field = UnsafeBufferPointer(rebasing: rest[..<(rest.firstIndex(of: 0x1F) ?? rest.endIndex)])
            return field.isEmpty ? nil : String(decoding: field, as: UTF8.self)
        }
    }

    /// An OpenStreetMap row's id, category, the key it is a value of, and address.
    func extras(_ i: Int) -> (id: String, category: String?, categoryKey: String?, address: Address)? {
        let range = Int(extraStart[i])..<Int(extraStart[i + 1])
        guard !range.isEmpty else { return nil }
        // The 11 fields between separators, an empty one nil, read in one pass into space on the stack: opening an
        // index reads every street-level row's, and each street-level answer its own (no arrays of parts).
        return extraBytes.withUnsafeBufferPointer { all in
            let bytes = UnsafeBufferPointer(rebasing: all[range])
            return withUnsafeTemporaryAllocation(of: String?.self, capacity: Self.extraFieldCount) { fields in
                fields.initialize(repeating: nil)
                defer { _ = fields.deinitialize() }
                var n = 0, start = 0
                for j in 0...bytes.count where j == bytes.count || bytes[j] == 0x1F {
                    guard n < Self.extraFieldCount else { return nil }
                    if j > start { fields[n] = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<j]), as: UTF8.self) }
                    n += 1
                    start = j + 1
                }
                guard n == Self.extraFieldCount, let id = fields[0] else { return nil }
                return (id, fields[1], fields[10], Address(houseNumber: fields[2], street: fields[3], postcode: fields[4], town: fields[5],
                                                           suburb: fields[6], county: fields[7], state: fields[8], country: fields[9]))
            }
        }
    }

    /// The fields of an OpenStreetMap row's extras, as `appendExtras` writes them.
    static let extraFieldCount = 11

    /// Appends an OpenStreetMap row's extras to `bytes`: its fields with a 0x1F between each two.
    static func appendExtras(to bytes: inout [UInt8], id: String, category: String?, categoryKey: String? = nil, address: Address?) {
        // Field by field, with no array of them: this runs once per street-level row of an import.
        appendExtra(id, to: &bytes, first: true)
        appendExtra(category, to: &bytes)
        appendExtra(address?.houseNumber, to: &bytes); appendExtra(address?.street, to: &bytes)
        appendExtra(address?.postcode, to: &bytes); appendExtra(address?.town, to: &bytes)
        appendExtra(address?.suburb, to: &bytes); appendExtra(address?.county, to: &bytes)
        appendExtra(address?.state, to: &bytes); appendExtra(address?.country, to: &bytes)
        appendExtra(categoryKey, to: &bytes)
    }

    /// Appends one field of the extras, after a separator unless `first`; a separator inside the value becomes a space.
    private static func appendExtra(_ value: String?, to bytes: inout [UInt8], first: Bool = false) {
        if !first { bytes.append(0x1F) }
        guard var value else { return }
        // Copied whole, into the column itself (Foundation's replacingOccurrences cost a fifth of an OSM import, and
        // a byte at a time most of making its rows).
        value.withUTF8 { utf8 in
            let start = bytes.count
            bytes.append(contentsOf: utf8)
            if utf8.contains(0x1F) { for i in start..<bytes.count where bytes[i] == 0x1F { bytes[i] = 0x20 } }
        }
    }
    var count: Int { geonameID.count }

    func name(_ i: Int) -> String {
        let bytes = nameRange(i)
        // From the buffer: a slice of the column would retain and release its storage for every answer.
        return nameBytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[bytes]), as: UTF8.self) }
    }

    /// Where row i's name lies in `nameBytes`.
    private func nameRange(_ i: Int) -> Range<Int> {
        let (a, b) = (Int(nameStart[i]), Int(nameStart[i + 1]))
        precondition(a <= b && b <= nameBytes.count, "name bytes out of range")
        return a..<b
    }

    func countryInfo(_ i: Int) -> CountryInfo? {
        country[i] == Self.noCountry ? nil : countries[Int(country[i])]
    }

    func admin1Info(_ i: Int) -> Admin1Info? {
        admin1[i] < 0 ? nil : admin1s[Int(admin1[i])]
    }

    /// Ranking weight: log2 of the population (people expect the biggest place of a name first).
    func importance(_ i: Int) -> Float {
        Self.importance(population: population[i], kind: rowKind(i))
    }

    /// The importance of a row of this population and kind.
    static func importance(population: Int32, kind: RowKind) -> Float {
        Float(log2(Double(population) + 100)) + kind.bonus
    }

    /// A row's place id: "geonames:<id>" or the OpenStreetMap row's own.
    func id(_ i: Int) -> String {
        osmExtras(i)?.id ?? PlaceText.geonamesID(geonameID[i]).string
    }

    /// `extras` of a street-level row; nil for a GeoNames row without reading `extraStart` (its kind, read for every
    /// answer anyway, says there are none), whose pages would otherwise all be read in: at ×50 47 MB of zeros.
    private func osmExtras(_ i: Int) -> (id: String, category: String?, categoryKey: String?, address: Address)? {
        rowKind(i) == .geonames ? nil : extras(i)
    }

    /// Whether GeoNames row r can be a section of any city (`isSection`), as the import marked it (`sectionLike`).
    /// Read once for a row that most cities then need not be checked against.
    func couldBeSection(_ r: Int) -> Bool { kind[r] & Self.sectionLike != 0 }

    /// The `kind` byte of a GeoNames row named `name`: `sectionLike` when the name has a space before its last byte.
    static func geonamesKind(name: some Collection<UInt8>) -> UInt8 {
        name.count > 1 && name.dropLast().contains(0x20) ? RowKind.geonames.rawValue | sectionLike : RowKind.geonames.rawValue
    }

    /// Whether GeoNames row r is a section of row `city`: named after it as sections are ("Zürich (Kreis 3)",
    /// "Dübendorf / Birchlen", "Paris 15 Vaugirard", "Budapest XII. kerület"; not "Miami Beach" or
    /// "Montréal-Est", towns of their own), smaller, and within 30 km.
    func isSection(_ r: Int, of city: Int) -> Bool {
        // Most pairs fail on the population or the first byte; cheap checks first (suggest with `near` asks often).
        guard population[r] < population[city], max(r, city) < alternateStart.count - 1 else { return false }
        let a = Int(nameStart[r]), b = Int(nameStart[city])
        let nameEnd = Int(nameStart[r + 1]), stemCount = Int(nameStart[city + 1]) - b
        guard nameEnd - a > stemCount + 1 else { return false }
        let startsWithStem = nameBytes.withUnsafeBufferPointer { bytes in
            bytes[a + stemCount] == 0x20 && memcmp(bytes.baseAddress! + a, bytes.baseAddress! + b, stemCount) == 0
        }
        guard startsWithStem else { return false }
        let name = nameBytes[a..<nameEnd]
        let rest = name.dropFirst(stemCount).drop { $0 == 0x20 }
        let numeral = rest.prefix { "IVXLC".utf8.contains($0) }
        let word = String(decoding: rest.prefix { $0 != 0x20 && $0 != 0x2D }, as: UTF8.self).lowercased()
        let named = rest.first.map { "(/0123456789".utf8.contains($0) } == true           // "(Kreis 3)", "/ Birchlen", "15"
            || ((rest.starts(with: "- ".utf8) || rest.starts(with: "– ".utf8)))           // "Podstrana - Miljevac"
            || (!numeral.isEmpty && rest.dropFirst(numeral.count).first == 0x2E)          // "XII. kerület"
            || Self.quarterWords.contains(word)                                            // "Ballarat North"
        return named && Geo.haversineMeters(latitude[r], longitude[r], latitude[city], longitude[city]) < 30_000
    }

    /// Words that name a quarter of a town after its name ("Bundaberg North", "Stuttgart Mitte").
    static let quarterWords: Set<String> = ["north", "south", "east", "west", "central", "centre", "center", "mitte",
                                            "nord", "süd", "ost", "zentrum", "sud", "centro", "norte"]

    /// The order of the map's labels: biggest population first, then the lower row (a stable order).
    func biggestFirst(_ a: Int32, _ b: Int32) -> Bool {
        let pa = population[Int(a)], pb = population[Int(b)]
        return pa != pb ? pa > pb : a < b
    }

    /// The GeoNames rows in `biggestFirst` order, as the import stores them for the map's labels (sorted on the
    /// first zoomed-out view, it cost that view 0.6 s at ×50). Two stable passes of a radix sort, 16 bits of the
    /// population each, from the rows in order: no comparison sort of millions of rows.
    func labelOrder() -> [Int32] {
        // Biggest first: the sort key is the population's bits flipped (its sign bit too, so negatives sort last).
        // Keys move with their rows, so each pass reads both in order.
        var keys = (0..<geonamesCount).map { ~(UInt32(bitPattern: population[$0]) ^ 0x8000_0000) }, rows = Array(0..<Int32(geonamesCount))
        var movedKeys = keys, movedRows = rows
        for shift: UInt32 in [0, 16] {
            var start = [Int](repeating: 0, count: (1 << 16) + 1)
            for key in keys { start[Int((key >> shift) & 0xFFFF) + 1] += 1 }
            for b in 1..<start.count { start[b] += start[b - 1] }
            for (key, row) in zip(keys, rows) {
                let b = Int((key >> shift) & 0xFFFF)
                movedKeys[start[b]] = key; movedRows[start[b]] = row
                start[b] += 1
            }
            swap(&keys, &movedKeys); swap(&rows, &movedRows)
        }
        return rows
    }

    /// Starts loading what `place` reads of each of `slots`, all at once: the rows lie far apart, so nearly every
    /// read misses the cache, and misses asked for together are waited for together instead of one by one.
    func prefetchPlaces(_ slots: some Collection<Int>) {
        for i in slots { prefetchRow(i) }
        // A name's bytes are where its start says: read once the starts are on their way.
        for i in slots where i < count { nameBytes.prefetch(Int(nameStart[i])) }
    }

    /// Starts loading what making row i's place reads of the columns (its name's bytes follow from `nameStart`).
    func prefetchRow(_ i: Int) {
        geonameID.prefetch(i); latitude.prefetch(i); longitude.prefetch(i); population.prefetch(i); country.prefetch(i); admin1.prefetch(i)
        kind.prefetch(i); nameStart.prefetch(i); nameStart.prefetch(i + 1)
    }

    /// Starts loading what ranking reads of each of `slots` (importance, and the name a section is told by), all at once.
    /// Most rows ranked become answers, which read the name again: asked for here, it has arrived by then (without
    /// it a suggestion took 4% longer, though ranking itself reads few names since the kind byte marks sections).
    func prefetchRanking(_ slots: some Collection<Int>) {
        for i in slots { population.prefetch(i); kind.prefetch(i); nameStart.prefetch(i) }
        for i in slots where i < count { nameBytes.prefetch(Int(nameStart[i])) }
    }

    /// The place as the rest of Pindrop sees it.
    func place(_ i: Int) -> Place {
        rowKind(i) == .geonames ? geonamesPlace(i) : streetLevelPlace(i)
    }

    /// A GeoNames row: its id and "Name, Admin1, Country" kept as their parts (`PlaceText`), which most answers never
    /// write out (making the two strings cost a third of a suggestion).
    private func geonamesPlace(_ i: Int) -> Place {
        let name = name(i)
        let countryIndex = Int(country[i]), admin1Index = Int(admin1[i])
        // The two fields read, not the whole record (a copy of four strings and a list).
        let countryCode = countryIndex == Int(Self.noCountry) ? nil : countries[countryIndex].code
        let countryName = countryIndex == Int(Self.noCountry) ? nil : countries[countryIndex].name
        let admin1 = admin1Index < 0 ? nil : admin1s[admin1Index].name.nilIfEmpty
        return Place(id: .geonamesID(geonameID[i]), name: name, displayName: .joined(name, admin1 == name ? nil : admin1, countryName),
                     coordinate: Coordinate(latitude: latitude[i], longitude: longitude[i]), countryCode: countryCode,
                     admin1: admin1, population: Int(population[i]), source: "embedded", kind: .place)
    }

    /// An OpenStreetMap row (a venue, an address, a street, an area), with its address.
    private func streetLevelPlace(_ i: Int) -> Place {
        let name = name(i)
        // The two fields read, not the whole records (each a copy of four strings and a list).
        let countryIndex = Int(country[i]), admin1Index = Int(admin1[i])
        let countryCode = countryIndex == Int(Self.noCountry) ? nil : countries[countryIndex].code
        let admin1 = admin1Index < 0 ? nil : admin1s[admin1Index].name.nilIfEmpty
        guard let osm = extras(i) else { return geonamesPlace(i) }
        let address = osm.address.isEmpty ? nil : osm.address
        let context = address.map { $0.formatted(countryCode: countryCode) }.flatMap(\.nilIfEmpty) ?? osm.address.town
        let displayName: String
        switch rowKind(i) {
        case .address: displayName = context ?? name
        case .street: displayName = [name, osm.address.town].compactMap { $0 }.joined(separator: ", ")
        case .area:
            // "Oberland, Liechtenstein": the area, then the areas that hold it.
            var chain: [String] = []
            for part in [name, osm.address.town, osm.address.county, osm.address.state, osm.address.country] {
                if let part, chain.last != part { chain.append(part) }
            }
            displayName = chain.joined(separator: ", ")
        default: displayName = [name, context].compactMap { $0 }.joined(separator: ", ")
        }
        let kind = rowKind(i).placeKind
        return Place(id: osm.id, name: name, displayName: displayName, coordinate: Coordinate(latitude: latitude[i], longitude: longitude[i]),
                     countryCode: countryCode, admin1: admin1, population: 0, category: osm.category,
                     address: address, source: "embedded", kind: kind,
                     categoryKey: kind == .street ? "highway" : osm.categoryKey)
    }

    /// The slot of a GeoNames id (rows are sorted by id).
    func index(ofGeonameID id: Int32) -> Int? {
        let count = geonamesCount
        let i = firstIndex(in: 0..<count) { geonameID[$0] >= id }
        return i < count && geonameID[i] == id ? i : nil
    }

    /// Names people use for countries beyond the ISO codes and the GeoNames name.
    static let countryAliases: [String: [String]] = [
        "US": ["usa", "united states of america", "america", "u s a", "u s"],
        "GB": ["uk", "u k", "great britain", "britain", "england", "scotland", "wales", "northern ireland"],
        "NL": ["holland", "the netherlands"],
        "KR": ["south korea"], "KP": ["north korea"], "RU": ["russia"], "CZ": ["czechia"],
        "AE": ["uae"], "CD": ["drc"], "VN": ["viet nam"], "CI": ["ivory coast"], "MK": ["north macedonia"],
    ]
}

extension String {
    /// nil for the empty string.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
