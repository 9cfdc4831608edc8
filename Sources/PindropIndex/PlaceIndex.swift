import Foundation
import PindropCore

/// The embedded engine: GeoNames places searched, suggested, reverse-geocoded and found nearby, from the index's
/// structures mapped into memory (`StructureFile`). Immutable once open, so any number of threads may query it at once.
public final class PlaceIndex: PlaceStore, Sendable {
    let places: PlaceTable
    let names: NameIndex
    let spatial: SpatialIndex
    let street: StreetLevel
    /// GeoNames places by population, biggest first, for the map's labels (stored in the index).
    let labelOrder: Column<Int32>
    /// The names a weak match may be corrected to (`correctionForms`, stored in the index).
    let corrections: CorrectionForms
    /// The box around every area (nil without areas).
    private let areaExtent: BoundingBox?
    /// The town lookup of reverse's "near X, Town", stored in the index.
    let townFinder: TownFinder
    /// Where the index was read from.
    public let path: String

    /// Opens an index built by `IndexBuilder`: reads the database's meta and maps the structures file it names
    /// (no structure is copied: opening costs the same at any size, and pages are read as queries need them).
    /// Throws `.indexUnavailable` with the reason when either file is missing, not an index, of another format
    /// version, from another import than its partner, or damaged.
    public static func open(at path: String) throws(PindropError) -> PlaceIndex {
        try withStructures(at: path, load)
    }

    /// Checks every value of every structure of the index at `path` (what an import does with the index it is
    /// about to publish), without making the index. Throws as `open(at:)` does, and for a value out of range.
    static func verify(at path: String) throws(PindropError) {
        try withStructures(at: path, verify)
    }

    /// `body` on the database at `path` and the structures file and build id its meta names.
    private static func withStructures<Result>(
        at path: String,
        _ body: (_ database: IndexDatabase, _ structures: String, _ buildID: String) throws(PindropError) -> Result
    ) throws(PindropError) -> Result {
        var attempt = 0
        while true {
            let database = try IndexDatabase(openingAt: path)
            let meta = try database.meta()
            do throws(PindropError) {
                guard meta["structure_version"] == IndexDatabase.structureVersion else {
                    throw .indexUnavailable("the index at \(path) has format \(meta["structure_version"] ?? "unknown"), this pindrop reads format \(IndexDatabase.structureVersion); rebuild it with `pindrop import geonames`")
                }
                guard let name = meta[IndexDatabase.structuresKey], let buildID = meta[IndexDatabase.buildIDKey], !name.contains("/") else {
                    throw .indexUnavailable("the index at \(path) is corrupt: it names no structures file; rebuild it with `pindrop import geonames`")
                }
                return try body(database, name, buildID)
            } catch {
                // An import may have put a new index in place between reading the meta and mapping the structures
                // file it named (and removed that file): the path now names the new index, so read it again.
                attempt += 1
                if attempt < 3, let now = try? IndexDatabase(openingAt: path).meta(), now[IndexDatabase.buildIDKey] != meta[IndexDatabase.buildIDKey] {
                    continue
                }
                throw error
            }
        }
    }

    /// The index of `database` with the structures file `name` beside it, which must carry `buildID`.
    private static func load(_ database: IndexDatabase, structures name: String, buildID: String) throws(PindropError) -> PlaceIndex {
        let (decoded, structures) = try decode(database, structures: name, buildID: buildID, verify: false)
        let index = PlaceIndex(decoded, path: database.path)
        // Opening has read what it reads in a row; queries from here on read here and there.
        structures.adviseRandomReads()
        return index
    }

    /// Checks every value of the structures file `name` beside `database`, which must carry `buildID`. The index
    /// is not made: what making it derives (the street rows' towns and ids, say) needs no check.
    static func verify(_ database: IndexDatabase, structures name: String, buildID: String) throws(PindropError) {
        _ = try decode(database, structures: name, buildID: buildID, verify: true)
    }

    /// The structures file `name` beside `database`, mapped and decoded; with `verify`, every value checked.
    private static func decode(_ database: IndexDatabase, structures name: String, buildID: String,
                               verify: Bool) throws(PindropError) -> (IndexStructures.Decoded, MappedStructures) {
        let path = database.path
        let structures = try MappedStructures(path: IndexFiles.structuresPath(forIndexAt: path, named: name), index: path)
        guard structures.buildID.uuidString.lowercased() == buildID.lowercased() else {
            throw .indexUnavailable("the index at \(path) does not match its structures file \(name): they come from different imports; rebuild it with `pindrop import geonames`")
        }
        let divisions = try database.countriesAndAdmin1()
        return (try IndexStructures.decode(structures, countries: divisions.countries, admin1Names: divisions.admin1, verify: verify), structures)
    }

    /// The files the index at `path` is made of: the database, and the structures file it names when it names
    /// one (to copy, move or remove an index whole).
    public static func files(at path: String) -> [String] {
        guard let name = try? IndexDatabase(openingAt: path).meta()[IndexDatabase.structuresKey], !name.contains("/") else { return [path] }
        return [path, IndexFiles.structuresPath(forIndexAt: path, named: name)]
    }

    /// Whether the index file at `path` records that it was built from the shipped data, so rebuilding it
    /// loses nothing. False for a user's import, for an index from before this was recorded and for a file
    /// whose metadata cannot be read: what is not known to be rebuildable is kept.
    public static func isBuiltFromShippedData(at path: String) -> Bool {
        (try? IndexDatabase(openingAt: path).meta()["origin"]) == IndexDatabase.shippedOrigin
    }

    init(_ structures: IndexStructures.Decoded, path: String) {
        let (places, names, street) = (structures.places, structures.names, structures.street)
        self.places = places; self.names = names; spatial = structures.spatial; self.street = street; self.path = path
        townFinder = structures.towns
        corrections = structures.corrections; labelOrder = structures.labelOrder
        areaExtent = street.areas.extent
        var towns: [Int32: String] = [:], folded: [String: String] = [:]
        var byID: [UInt64] = []
        byID.reserveCapacity(places.count - places.geonamesCount)
        for i in places.geonamesCount..<places.count {
            guard let extras = places.extras(i) else { continue }
            // Each town folded once: thousands of rows share one.
            if let town = extras.address.town {
                if folded[town] == nil { folded[town] = TextFolding.fold(town) }
                towns[Int32(i)] = folded[town]
            }
            byID.append(Self.idKey(extras.id) | UInt64(i))
        }
        streetTowns = towns
        // Rows sharing an id (a street cut at a town boundary) sort by row: the first one answers.
        byID.sort()
        rowsByID = byID
        // Each category's name from its tree's first venue.
        venueCategorySlots = Dictionary(uniqueKeysWithValues: zip(street.categoryStart, street.categoryStart.dropFirst()).compactMap { lo, hi in
            lo < hi ? (places.category(street.venueRows.lowerBound + Int(street.venuesByCategory.place(atSlot: Int(lo)))) ?? "", Int(lo)..<Int(hi)) : nil
        })
        // Everything street-level, widened by ~1 km: outside it no street-level answer can be within reach.
        let streetRows = (places.geonamesCount..<places.count).map { Coordinate(latitude: places.latitude[$0], longitude: places.longitude[$0]) }
        let corners = street.map.boxes.flatMap { [Coordinate(latitude: $0.south, longitude: $0.west), Coordinate(latitude: $0.north, longitude: $0.east)] }
        streetCoverage = BoundingBox(covering: streetRows + corners).map {
            BoundingBox(south: $0.south - 0.01, west: $0.west - 0.02, north: $0.north + 0.01, east: $0.east + 0.02)
        }
        var forms: [String: Division] = [:]
        for (i, c) in places.countries.enumerated() {
            for form in c.qualifierForms { forms[form, default: Division()].countries.append(UInt16(i)) }
        }
        for (i, a) in places.admin1s.enumerated() {
            for form in a.qualifierForms { forms[form, default: Division()].admin1s.append(Int32(i)) }
        }
        qualifierForms = forms
        let first = places.geonamesCount
        firstStreetLevelRow = first
        streetLevelEntries = structures.streetLevelEntries
        // Street points grouped by their street's row (a counting sort), so a street's distance is a scan of its own points.
        let rowOfSlot = street.streetPoints.nodes.map { Int(street.streetPointRow[Int($0.place)]) - first }
        let grouped = groupedByKey(rowOfSlot, keyCount: places.count - first)
        streetPointStart = grouped.start
        streetPointSlots = grouped.order
        var areaOfRow: [Int32: Int] = [:], areaOfID: [String: Int] = [:]
        for (a, area) in street.areas.areas.enumerated() {
            if street.areas.twins[a] >= 0 { areaOfRow[street.areas.twins[a]] = a } else { areaOfID[area.id] = a }
        }
        for i in first..<places.count where places.rowKind(i) == .area {
            if let id = places.extras(i)?.id, let a = areaOfID[id] { areaOfRow[Int32(i)] = a }
        }
        let rows = areaOfRow.keys.sorted()
        areaRows = rows
        areaOfAreaRow = rows.map { areaOfRow[$0]! }
    }

    /// The rows that stand for an area (an area row, or a GeoNames place an area is the boundary of), sorted, and
    /// the area of each: a binary search per answer instead of a hash.
    let areaRows: [Int32]
    let areaOfAreaRow: [Int]

    /// The area row `slot` stands for, if any.
    func area(ofRow slot: Int) -> Int? {
        let i = firstIndex(in: areaRows.indices) { areaRows[$0] >= slot }
        return i < areaRows.count && areaRows[i] == slot ? areaOfAreaRow[i] : nil
    }

    /// A row as an answer: with its boundary's box when it is (or is the town of) an area, and a GeoNames place
    /// inside areas with the address they give it (town, county, state, country).
    func answerPlace(_ slot: Int) -> Place {
        let box = area(ofRow: slot).map { street.areas.areas[$0].box }
        if let held = heldAddress(ofSlot: slot) {
            var place = places.place(slot)
            place.boundingBox = box
            place.address = held
            return place
        }
        // Most answers take nothing from the areas: returned as made, not copied to be changed.
        guard let box else { return places.place(slot) }
        var place = places.place(slot)
        place.boundingBox = box
        return place
    }

    /// The address the areas give a GeoNames place inside them (town, county, state, country); nil outside them.
    private func heldAddress(ofSlot slot: Int) -> Address? {
        guard slot < firstStreetLevelRow, let areaExtent else { return nil }
        let c = Coordinate(latitude: places.latitude[slot], longitude: places.longitude[slot])
        // Most places lie outside every area: told from one box, without a call into the areas.
        guard areaExtent.contains(c) else { return nil }
        let chain = street.areas.containing(c)
        guard !chain.isEmpty else { return nil }
        let held = street.areas.address(of: chain)
        return held.isEmpty ? nil : held
    }

    /// The countries and admin1 divisions a qualifier form names ("il" → Illinois and others).
    struct Division: Sendable { var countries: [UInt16] = []; var admin1s: [Int32] = [] }
    /// Every folded qualifier form → what it names.
    let qualifierForms: [String: Division]
    /// Street-level rows' folded town, so "Aleksanterinkatu 52, Helsinki" narrows by town.
    let streetTowns: [Int32: String]
    /// Street-level rows by their OSM id ("osm:way/122595241"), sorted, each its `idKey` with the row in the low 32 bits:
    /// `place(id:)` finds a row by binary search instead of reading every row's id.
    let rowsByID: [UInt64]

    /// The high 32 bits of an id's FNV-1a hash, in the high half of a key.
    static func idKey(_ id: String) -> UInt64 { StructureFile.fnv1a(id.utf8) & idKeyBits }
    static let idKeyBits: UInt64 = 0xFFFF_FFFF_0000_0000
    /// Each venue category's tree: its slots in `street.venuesByCategory`.
    let venueCategorySlots: [String: Range<Int>]
    /// Where street-level answers can come from (nil without street data).
    let streetCoverage: BoundingBox?
    /// The name entries of street-level rows, in key order. They never make the draw by importance when many
    /// GeoNames places share a prefix, so with `near` a prefix's street-level matches are read from here instead.
    let streetLevelEntries: Column<Int32>
    /// `places.geonamesCount`, which is counted, kept for the ranking's per-candidate tests.
    let firstStreetLevelRow: Int
    /// The points laid along each street (slots in `street.streetPoints`), by row: street-level row r's are
    /// streetPointSlots[streetPointStart[r − geonamesCount] ..< streetPointStart[r − geonamesCount + 1]].
    let streetPointStart: [Int32]
    let streetPointSlots: [Int32]

    /// How many GeoNames places the index holds (slots 0 ..< placeCount; street-level rows come after).
    public var placeCount: Int { places.geonamesCount }

    /// How many street-level rows (venues, addresses, streets) the index holds.
    public var streetLevelCount: Int { places.count - places.geonamesCount }

    /// Credits the shipped data requires.
    public static let attribution = ["Place data © GeoNames (geonames.org), CC-BY 4.0"]
    /// Credits for street-level data.
    public static let streetAttributionText = "Street data © OpenStreetMap contributors, ODbL 1.0"

    /// Credits for what this index holds.
    public var attribution: [String] { Self.attribution + streetAttribution }
    public var streetAttribution: [String] { street.isEmpty ? [] : [Self.streetAttributionText] }

    /// How near a tagged address must be for reverse geocoding to answer with it, metres.
    public static let addressReach = 50.0
    /// How near a street must be for reverse geocoding to answer with it (no house number), metres.
    public static let streetReach = 100.0

    // MARK: Search

    /// Forward geocoding. Exact names rank above prefixes, prefixes above typo-tolerant matches; within a tier,
    /// by population (and nearness when `near` is set). Text that only starts names also reads as a whole name
    /// one likely slip away, ranked with the prefixes. "Name, Qualifier" narrows by country or admin1.
    public func search(_ request: SearchRequest) throws(PindropError) -> [PlaceResult] {
        let country = try countryFilter(request.countryCode)
        let parts = request.text.split(separator: ",").map { TextFolding.fold($0) }
        let name = parts.first ?? ""
        let qualifiers = parts.dropFirst().filter { !$0.isEmpty }
        guard !name.isEmpty else { return [] }
        let within = containment(request.within)
        let accept = acceptance(country: country, qualifiers: Array(qualifiers), lastIsPrefix: false, within: within)
        let nameKey = Array(name.utf8)
        var key = nameKey
        var found = rank(key: key, mode: .search, request.limit, request.near, typos: false, accept: accept)
        // "Paris France", "Portland Oregon": no match for the whole text, so try its last words as a qualifier.
        if found.isEmpty, qualifiers.isEmpty {
            let words = name.split(separator: " ")
            for split in stride(from: words.count - 1, through: 1, by: -1) where found.isEmpty {
                let head = words[..<split].joined(separator: " "), tail = words[split...].joined(separator: " ")
                found = rank(key: Array(head.utf8), mode: .exact, request.limit, request.near, typos: false,
                             accept: acceptance(country: country, qualifiers: [tail], lastIsPrefix: false, within: within))
                if !found.isEmpty { key = Array(head.utf8) }
            }
        }
        // A comma that is part of a name ("Postikuja 2, 2. krs.", "Salon X, parturi"): the whole text as a name.
        let whole = Array(TextFolding.fold(request.text).utf8)
        if found.isEmpty, !qualifiers.isEmpty {
            found = rank(key: whole, mode: .search, request.limit, request.near, typos: false,
                         accept: acceptance(country: country, qualifiers: [], lastIsPrefix: false, within: within))
            if !found.isEmpty { key = whole }
        }
        // Typo tolerance only when the text matches nothing as typed: exact and prefix matches always rank
        // above typo matches, so they would only trail behind.
        if found.isEmpty {
            found = rank(key: key, mode: .search, request.limit, request.near, typos: true, accept: accept)
        }
        var answer = results(found, near: request.near, typed: request.text, key: key, mode: .search, explain: request.explain)
        if !answer.isEmpty, key == nameKey {
            answer[0].didYouMean = didYouMean(found, key: key, mode: .search, text: request.text, accept: accept)
        }
        return answer
    }

    /// Search as you type: the text so far, the last word a prefix; "Portland, Or" narrows by a qualifier prefix.
    /// A city's sections ("Zürich (Kreis 3)") fold under it: they come only when the text goes past its name.
    public func suggest(_ request: SuggestRequest) throws(PindropError) -> [PlaceResult] {
        let country = try countryFilter(request.countryCode)
        let within = containment(request.within)
        // The first comma found in the bytes: splitting the text by Characters cost more than folding it.
        let comma = request.text.utf8.firstIndex(of: UInt8(ascii: ","))
        var key: [UInt8] = []
        TextFolding.fold(request.text[..<(comma ?? request.text.endIndex)], into: &key)
        guard !key.isEmpty else { return [] }
        if comma == nil {
            // A trailing space means the last word is complete: "new " should not suggest "Newark".
            if request.text.utf8.last == 0x20 { key.append(0x20) }
            let accept = acceptance(country: country, qualifiers: [], lastIsPrefix: false, within: within)
            let typed = rank(key: key, mode: .suggest, request.limit, request.near, typos: false, sections: true, accept: accept)
            let found = typed.isEmpty ? rank(key: key, mode: .suggest, request.limit, request.near, typos: true, sections: true, accept: accept) : typed
            var answer = results(found, near: request.near, typed: request.text, key: key, mode: .suggest, explain: request.explain)
            if !answer.isEmpty {
                answer[0].didYouMean = didYouMean(found, key: key, mode: .suggest, text: request.text, accept: accept)
            }
            return answer
        }
        let parts = request.text.split(separator: ",", omittingEmptySubsequences: false)
        let qualifiers = parts.dropFirst().map { TextFolding.fold($0) }.filter { !$0.isEmpty }
        let found = rank(key: key, mode: .search, request.limit, request.near, typos: false, sections: true,
                         accept: acceptance(country: country, qualifiers: Array(qualifiers), lastIsPrefix: true, within: within))
        return results(found, near: request.near, typed: request.text, key: key, mode: .suggest, explain: request.explain)
    }

    /// The nearest places to a point, nearest first, by true great-circle distance. Where street data exists,
    /// the first answer is the address of the building the point is in, else the nearest address within 50 m,
    /// else the nearest street within 100 m. The first answer's `displayName` is the spot's address line:
    /// "Simonkatu 7, 00100 Helsinki"; "near Narinkkatori, 00100 Helsinki" for a street only (the postcode of
    /// the nearest address); "near Kamppi, Helsinki" for a place only (`nearName`).
    public func reverse(_ request: ReverseRequest) throws(PindropError) -> [PlaceResult] {
        let c = request.coordinate
        var results: [PlaceResult] = []
        if let level = request.level.areaLevel {
            if let area = containingArea(at: c, level: level) {
                results.append(PlaceResult(place: area, distanceMeters: 0))
            } else if level == .city, let town = containingTown(at: c) {
                // No boundary here: the town whose reach covers the point, as for "near Kamppi, Helsinki".
                results.append(PlaceResult(place: answerPlace(town), distanceMeters: distance(town, c)))
            }
        } else if request.level == .street {
            if let hit = street.nearestStreet(to: c, within: Self.streetReach), streetCoverage?.contains(c) == true {
                var place = places.place(hit.row)
                place.coordinate = c
                results.append(PlaceResult(place: place, distanceMeters: hit.meters))
            }
        } else if let hit = streetLevelHit(at: c) {
            var place = places.place(hit.row)
            if places.rowKind(hit.row) == .street {
                // The answer is the point on the street, not the street's label point.
                place.coordinate = c
                var address = place.address ?? Address(street: place.name)
                address.postcode = street.nearestAddress(to: c, within: AddressContext.lendingReach)
                    .flatMap { places.extras($0.row)?.address.postcode }
                place.address = address
                place.displayName = "near " + address.formatted(countryCode: place.countryCode)
            }
            results.append(PlaceResult(place: place, distanceMeters: hit.meters))
        }
        let towns = spatial.nearest(latitude: c.latitude, longitude: c.longitude, k: request.limit - results.count)
        // Every answer's row asked for at once: made one after the other, each waited for its own reads (at ×50, ten
        // places' rows lie far apart in columns of hundreds of megabytes).
        if towns.count > 1 { places.prefetchPlaces(towns.lazy.map { Int($0.place) }) }
        let placeOnly = results.isEmpty
        results += towns.enumerated().map { n, hit in
            let i = Int(hit.place)
            // The name first: its town's walk gives the row's values time to arrive (`nearName`).
            let near = placeOnly && n == 0 ? nearName(ofSlot: i) : nil
            var place = answerPlace(i)
            if let near {
                place.displayName = near
                // The spot's own areas, not the place's: up the mountain in Balzers, near the village of Planken.
                if !street.areas.isEmpty {
                    let held = street.areas.address(of: street.areas.containing(c))
                    if !held.isEmpty { place.address = held }
                }
            }
            return PlaceResult(place: place, distanceMeters: distance(i, c))
        }
        return results
    }

    /// The areas the point lies in (OSM boundaries, postcode areas, places drawn as polygons), coarse to fine.
    public func areas(containing c: Coordinate) -> [(name: String, level: AreaLevel)] {
        street.areas.containing(c).map { (street.areas.areas[$0].name, street.areas.areas[$0].level) }
    }

    /// The area of `level` the point lies in, as a place with its boundary's box: the finest area at that level
    /// or coarser (a point in no suburb answers its town). Nil where the index has no area there.
    func containingArea(at c: Coordinate, level: AreaLevel) -> Place? {
        let areas = street.areas
        guard !areas.isEmpty else { return nil }
        let chain = areas.containing(c).filter { areas.areas[$0].level != .postcode }
        guard let pick = chain.last(where: { areas.areas[$0].level <= level }) else { return nil }
        let area = areas.areas[pick]
        let nearest = spatial.nearest(latitude: c.latitude, longitude: c.longitude).map { places.place(Int($0.place)) }
        let address = areas.address(of: chain.filter { areas.areas[$0].level <= area.level })
        // "Balzers, Oberland, Liechtenstein": the area, then each coarser one (an area named like its parent once).
        var names: [String] = []
        for a in chain.reversed() where areas.areas[a].level <= area.level && names.last != areas.areas[a].name {
            names.append(areas.areas[a].name)
        }
        return Place(id: area.id, name: area.name, displayName: names.joined(separator: ", "), coordinate: areas.centre(of: pick),
                     countryCode: nearest?.countryCode, admin1: address.state, category: "\(area.level)",
                     address: address, source: "embedded", boundingBox: area.box, kind: .area)
    }

    /// A GeoNames place as the answer for a spot with no street address: "near Kamppi, Helsinki" (with the town it
    /// lies in, `AddressContext.containingTown`, stored for each place), or "near Helsinki" when it is the town.
    func nearName(ofSlot i: Int) -> String {
        // The row's values, asked for now, arrive while the town's name is read.
        places.prefetchRow(i)
        let point = Coordinate(latitude: places.latitude[i], longitude: places.longitude[i])
        let town = townFinder.town(ofPlace: i, at: point, spatial: spatial).map { places.name($0) }
        let name = places.name(i)
        return "near " + ([name] + [town].compactMap { $0 }.filter { $0 != name }).joined(separator: ", ")
    }

    /// The GeoNames town a point lies in (`AddressContext.containingTown`): its slot.
    func containingTown(at c: Coordinate) -> Int? {
        townFinder.containingTown(at: c, spatial: spatial)
    }

    /// The street-level answer at a point: the building's address, else the nearest address within 50 m,
    /// else the nearest street within 100 m.
    func streetLevelHit(at c: Coordinate) -> (row: Int, meters: Double)? {
        guard let coverage = streetCoverage, coverage.contains(c) else { return nil }
        return street.buildingAddress(at: c)
            ?? street.nearestAddress(to: c, within: Self.addressReach) ?? street.nearestStreet(to: c, within: Self.streetReach)
    }

    /// The nearest GeoNames place to a point: its slot and distance in metres. The allocation-free path of
    /// batches (and of the benchmark's throughput figure); `reverse` adds street-level answers first.
    public func nearestPlace(latitude: Double, longitude: Double) -> (slot: Int, meters: Double)? {
        guard let hit = spatial.nearest(latitude: latitude, longitude: longitude) else { return nil }
        let i = Int(hit.place)
        return (i, Geo.haversineMeters(latitude, longitude, places.latitude[i], places.longitude[i]))
    }

    /// The allocation-free path of `reverse --batch`: the nearest GeoNames place's JSON made once per place and
    /// worker, so a point's answer is a copy plus three numbers.
    public func batchReverser(workers: Int) -> (any BatchReversing)? { PlaceFragments(index: self, workers: workers) }

    /// The place in a slot (0 ..< `placeCount` for GeoNames places), as `nearestPlace` returns them.
    public func place(atSlot slot: Int) -> Place { places.place(slot) }

    /// Venues and places within a radius, nearest first (ties by id); with a category, only venues of that
    /// category ("cafe", or a key such as "shop"). `request.limit` of them after `request.after`, and the total.
    public func nearbyPage(_ request: NearbyRequest) throws(PindropError) -> NearbyPage {
        // Neither the page nor the total visits every place in the radius: the page is the nearest first, the
        // total counts whole the subtrees well inside the circle and opens those across it. A category has a tree
        // of its own.
        let c = request.coordinate, radius = request.radiusMeters
        let chord = Geo.unitChord(forMeters: radius) * (1 + 1e-9), sure = Geo.unitChord(forMeters: radius) * (1 - 1e-6)
        let firstVenue = street.venueRows.lowerBound
        // The best rows so far, reached by the walk's closures through a pointer: a variable they captured would be
        // checked for exclusivity at run time on every node the walk reads.
        var nearest = NearestRows(index: self, limit: request.limit, after: request.after, radius: radius)
        var total = 0
        withUnsafeMutablePointer(to: &nearest) { nearest in
            // Every place within `sure` counts: only subtrees across the edge, or near the point, are opened.
            if let category = request.category {
                total = street.venuesByCategory.count(latitude: c.latitude, longitude: c.longitude, chord: chord, sure: sure,
                                                      slots: venueCategorySlots[category] ?? 0..<0, needed: { nearest.pointee.needed }) { place, chord2 in
                    nearest.pointee.visit(firstVenue + Int(place), chord2)
                }
            } else {
                for (tree, first) in [(street.venues, firstVenue), (spatial, 0)] {
                    total += tree.count(latitude: c.latitude, longitude: c.longitude, chord: chord, sure: sure,
                                        needed: { nearest.pointee.needed }) { place, chord2 in
                        nearest.pointee.visit(first + Int(place), chord2)
                    }
                }
            }
        }
        let best = nearest.best
        places.prefetchPlaces(best.lazy.map(\.0))
        let page = best.map { PlaceResult(place: places.place($0.0), distanceMeters: $0.1) }
        return NearbyPage(results: page, total: total)
    }

    /// The places of `nearbyPage`.
    public func nearby(_ request: NearbyRequest) throws(PindropError) -> [PlaceResult] {
        try nearbyPage(request).results
    }

    /// `nearbyPage`'s best `limit` rows after `after` so far, in order, each with its distance; once there are
    /// `limit`, no row past the last one's distance can join (`needed`: that distance as a squared chord, with a
    /// margin for the rounding between a chord and its arc).
    struct NearestRows {
        let index: PlaceIndex, limit: Int, after: NearbyPosition?, radius: Double
        var best: [(Int, Double)] = [], needed = Double.infinity

        init(index: PlaceIndex, limit: Int, after: NearbyPosition?, radius: Double) {
            (self.index, self.limit, self.after, self.radius) = (index, limit, after, radius)
            best.reserveCapacity(limit + 1)
        }

        /// A row's id is built only for ties of distance, which are rare.
        func position(_ row: (Int, Double)) -> NearbyPosition { NearbyPosition(distanceMeters: row.1, id: index.places.id(row.0)) }
        func precedes(_ a: (Int, Double), _ b: (Int, Double)) -> Bool { a.1 != b.1 ? a.1 < b.1 : position(a) < position(b) }

        /// Takes a row at a squared chord from the point; whether it lies within the radius. Its distance is the
        /// great-circle distance from that chord (the same on the sphere as the haversine of the row's coordinate,
        /// without reading it).
        mutating func visit(_ row: Int, _ chord2: Double) -> Bool {
            let meters = Geo.meters(forUnitChord: chord2.squareRoot())
            guard meters <= radius else { return false }
            let candidate = (row, meters)
            if best.count == limit, let last = best.last, !precedes(candidate, last) { return true }
            if let after, meters != after.distanceMeters ? meters < after.distanceMeters : !(after < position(candidate)) { return true }
            var at = best.count
            while at > 0, precedes(candidate, best[at - 1]) { at -= 1 }
            best.insert(candidate, at: at)
            if best.count > limit { best.removeLast() }
            if best.count == limit {
                let chord = Geo.unitChord(forMeters: best[best.count - 1].1 * (1 + 1e-6) + 0.01)
                needed = chord * chord
            }
            return true
        }
    }

    /// Streets and buildings inside a box, for drawing the street-level basemap.
    public func streetMap(in box: BoundingBox, limit: Int) -> [MapFeature] {
        street.map.features(in: box, limit: limit)
    }

    /// The names of the GeoNames places in a view, biggest first (then the lower row), de-cluttered for `zoom`, none
    /// smaller than the zoom's smallest population.
    public func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) -> [MapLabel] {
        var placement = MapLabelPlacement(zoom: zoom, limit: limit)
        let minimum = MapLabelPlacement.minimumPopulation(zoom: zoom)
        func offer(_ placement: inout MapLabelPlacement, _ i: Int) {
            placement.offer(MapLabel(id: "geonames:\(places.geonameID[i])", name: places.name(i),
                                     coordinate: Coordinate(latitude: places.latitude[i], longitude: places.longitude[i]),
                                     population: Int(places.population[i])))
        }
        func inside(_ slot: Int32) -> Bool {
            box.contains(Coordinate(latitude: places.latitude[Int(slot)], longitude: places.longitude[Int(slot)]))
        }
        // A small view (a city) takes every place in it, biggest first.
        let centre = Coordinate(latitude: (box.south + box.north) / 2, longitude: (box.west + box.east) / 2)
        let halfDiagonal = centre.distance(to: Coordinate(latitude: box.north, longitude: box.east))
        if box.west <= box.east, halfDiagonal < 100_000 {
            var hits: [(place: Int32, chord2: Double)] = []
            spatial.within(centre, meters: halfDiagonal + 1, into: &hits)
            for slot in hits.map(\.place).filter(inside).sorted(by: places.biggestFirst) where !placement.isFull {
                offer(&placement, Int(slot))
            }
            return placement.placed
        }
        // A larger one: two walks give its places in that order (biggest first, then the lower row). The list of every
        // place by size is quick when the view holds most of the big places (the world, a continent); the place
        // tree's largest population under each node is quick when it holds few of them (a region, the open sea, where
        // the list reads every bigger place on Earth first: 2.5 million of them for an empty view at ×50). They take
        // turns, 32 entries of the list to a node of the tree (about what each costs), and whichever is ahead offers
        // the place: a view costs about twice its quicker walk at most.
        var tree = spatial.biggestFirst(in: box, atLeast: Int32(clamping: minimum))
        var listAt = 0, givenByList = 0, givenByTree = 0, offered = 0
        /// The `given`-th place of a walk: offered if the other walk has not offered it yet.
        func give(_ slot: Int32, _ given: inout Int) {
            given += 1
            if given > offered { offered = given; offer(&placement, Int(slot)) }
        }
        walking: while !placement.isFull {
            for _ in 0..<32 {
                // The list ends at the zoom's smallest population: every place of the view has been given.
                guard listAt < labelOrder.count, Int(places.population[Int(labelOrder[listAt])]) >= minimum else { break walking }
                let slot = labelOrder[listAt]
                listAt += 1
                if inside(slot) { give(slot, &givenByList) }
                if placement.isFull { break walking }
            }
            switch tree.step(inside: inside) {
            case .place(let slot): give(slot, &givenByTree)
            case .opened: continue
            case .done: break walking
            }
        }
        return placement.placed
    }

    /// A place by id ("geonames:2988507"); nil for an unknown or foreign id.
    public func place(id: String) -> Place? {
        if id.hasPrefix("osm:") {
            let key = Self.idKey(id)
            let first = firstIndex(in: rowsByID.indices) { rowsByID[$0] >= key }
            // Ids may share a key: each row found is checked by its id.
            for entry in rowsByID[first...].prefix(while: { $0 & Self.idKeyBits == key }) {
                let row = Int(entry & 0xFFFF_FFFF)
                if places.extras(row)?.id == id { return answerPlace(row) }
            }
            return nil
        }
        guard id.hasPrefix("geonames:"), let n = Int32(id.dropFirst("geonames:".count)),
              let i = places.index(ofGeonameID: n) else { return nil }
        return answerPlace(i)
    }

    /// What this store holds (the protocol requirements above are met by the synchronous methods directly).
    public func status() -> StoreStatus {
        StoreStatus(name: "embedded", placeCount: places.count, location: path, attribution: attribution)
    }

    // MARK: Ranking

    /// Structured search's test: whether a row lies inside the named areas. A street-level row is by the address
    /// its import gave it (its tags, else the boundaries holding it); a GeoNames place by the boundaries holding
    /// its point, else its admin1 (state) and, for the town, its own name or the town whose reach covers it.
    /// Nil when the filter names nothing.
    func containment(_ filter: AreaFilter) -> ((Int32) -> Bool)? {
        guard !filter.isEmpty else { return nil }
        let named = namedContainment(filter)
        guard filter.box != nil || !filter.countries.isEmpty else { return named }
        let box = filter.box
        let countries = filter.countries.isEmpty ? nil : places.countries.map { filter.countries.contains($0.code) }
        return { [places] slot in
            let i = Int(slot)
            if let countries, places.country[i] == PlaceTable.noCountry || !countries[Int(places.country[i])] { return false }
            if let box, !box.contains(Coordinate(latitude: places.latitude[i], longitude: places.longitude[i])) { return false }
            return named?(slot) ?? true
        }
    }

    /// The named part of `containment` (city, postcode, county, state); nil when the filter names none.
    private func namedContainment(_ filter: AreaFilter) -> ((Int32) -> Bool)? {
        guard !filter.parts.isEmpty else { return nil }
        let city = filter.city.map(TextFolding.fold), postcode = filter.postcode.map(TextFolding.fold)
        let county = filter.county.map(TextFolding.fold), state = filter.state.map(TextFolding.fold)
        func matches(_ wanted: String?, _ candidates: [String?]) -> Bool {
            guard let wanted else { return true }
            return candidates.contains { $0.map(TextFolding.fold) == wanted }
        }
        return { [self] slot in
            let i = Int(slot)
            if i >= firstStreetLevelRow {
                guard let a = places.extras(i)?.address else { return false }
                return matches(city, [a.town]) && matches(postcode, [a.postcode]) && matches(county, [a.county])
                    && matches(state, [a.state, places.admin1Info(i)?.name])
            }
            let point = Coordinate(latitude: places.latitude[i], longitude: places.longitude[i])
            let held = street.areas.isEmpty ? Address() : street.areas.address(of: street.areas.containing(point))
            return matches(postcode, [held.postcode]) && matches(county, [held.county])
                && matches(state, [held.state, places.admin1Info(i)?.name])
                && matches(city, [held.town, places.name(i), city == nil ? nil : containingTown(at: point).map { places.name($0) }])
        }
    }

    /// Which matches count: exact and prefix (search), prefix (suggest), exact only (a head before a qualifier).
    enum Mode { case search, suggest, exact }

    /// A place found, through name entry `entry` (the best of its names that matched). `score` orders a tier; it is
    /// the sum of the terms beside it, each kept where it is computed so that `explain` can show them.
    struct Candidate {
        var slot: Int; var tier: Int; var score: Float; var entry: Int
        /// log2(population + 100) plus the row kind's bonus (`PlaceTable.importance`).
        var importance: Float
        /// What the kind of name takes off (`NameIndex.Kind.penalty`, and `alternateDemotion` when own names come first),
        /// and for a typo an arbitrary edit's `arbitraryTypoPenalty`.
        var nameTerm: Float
        /// What the distance from `near` adds or takes off (`nearness`); 0 without it.
        var distanceTerm: Float = 0
    }

    /// Typed text of at most this many letters starts many names by chance: a prefix match through an
    /// alternate name ("hel" → Heleb, an old name of Aleppo) then ranks below every match of a place's own name;
    /// the whole alternate name ("Wien") does not.
    static let shortTextLetters = 5

    /// How much less likely an arbitrary one-letter change is than a likely slip (a swap, a doubled or dropped
    /// letter, a neighbouring key), in log2 units as importance: a likely slip of a town ranks above an
    /// arbitrary change of a place up to 2^4 = 16 times bigger.
    static let arbitraryTypoPenalty: Float = 4

    /// Typo tolerance starts at this many letters: below, one edit reaches too many names to mean anything.
    static let typoLetters = 4

    /// What a one-edit typo match costs in ranking; nothing for a likely slip.
    static func typoPenalty(_ edit: TypoEdit?) -> Float {
        edit.map { $0.isLikelySlip ? 0 : arbitraryTypoPenalty } ?? 0
    }

    /// Collects the best candidates for a folded key. Search: exact (tier 3) > prefix (2); suggest: prefix (2).
    /// In search, text that only starts names also matches whole names one likely slip away, as prefixes (2).
    /// With `typos`, only typo-tolerant matches instead: one edit (tier 1) > two (0), for 4+ and 9+ letters;
    /// an arbitrary one-letter change ranks below a likely slip (`typoPenalty`).
    /// With `near`, more candidates are drawn and re-ranked by distance. With `sections`, a section of a city
    /// found before it is left out ("zur": Zürich, not also its twelve Kreise).
    func rank(key: [UInt8], mode: Mode, _ limit: Int, _ near: Coordinate?, typos: Bool, sections: Bool = false,
              accept: (Int32) -> Bool) -> [Candidate] {
        let wanted = near == nil ? limit : max(limit, 200)
        let letters = Self.letterCount(key)
        var found: [Candidate]
        if typos {
            var fuzzy = letters >= Self.typoLetters ? names.fuzzyRanges(key, maxEdits: 1, asPrefix: mode == .suggest) : []
            // Two edits only when one finds nothing, and then keeping the first letter: the two-edit
            // neighbourhood of every first letter is most of the dictionary.
            if fuzzy.isEmpty, letters >= 9 {
                fuzzy = names.fuzzyRanges(key, maxEdits: 2, asPrefix: mode == .suggest, exactFirstByte: true)
            }
            found = collect(fuzzy.map { .init(range: $0.range, tier: 1 - $0.edits, penalty: Self.typoPenalty($0.edit)) },
                            wanted: wanted, accept: accept, sections: sections)
        } else {
            let (all, exact) = names.ranges(prefix: key)
            let ownNamesFirst = letters <= Self.shortTextLetters
            let prefixes = NameIndex.TieredRange(range: exact.upperBound..<all.upperBound, tier: 2, ownNamesFirst: ownNamesFirst)
            let ranges: [NameIndex.TieredRange]
            switch mode {
            case .search:
                // Text that only starts names ("Wawr", "Histo"): a whole name one likely slip away (Wawer,
                // Histon) is as good a reading, so it competes with the prefix matches by importance.
                let slips = exact.isEmpty && !all.isEmpty && letters >= Self.typoLetters
                    ? names.fuzzyRanges(key, maxEdits: 1, asPrefix: false).filter { $0.edit?.isLikelySlip == true } : []
                ranges = [.init(range: exact, tier: 3), prefixes] + slips.map { .init(range: $0.range, tier: 2, ownNamesFirst: ownNamesFirst) }
            case .suggest: ranges = [.init(range: exact, tier: 2), prefixes]
            case .exact: ranges = [.init(range: exact, tier: 3)]
            }
            found = collect(ranges, wanted: wanted, accept: accept, sections: sections)
            if near != nil { found += streetLevelMatches(ranges, besides: found, accept: accept) }
        }
        guard let near else {
            // Cut in place: a copy of the list would cost an array each answer.
            if found.count > limit { found.removeSubrange(limit...) }
            return found
        }
        for i in found.indices {
            found[i].distanceTerm = nearness(found[i].slot, near)
            found[i].score += found[i].distanceTerm
        }
        found.sort { $0.tier != $1.tier ? $0.tier > $1.tier : $0.score > $1.score }
        guard sections else { return Array(found.prefix(limit)) }
        // A section folds under its city, an address under its street while the text has not reached its number
        // ("manne": Mannerheimintie, not also its 200 doors).
        let towns = found.filter { $0.slot < firstStreetLevelRow }
        let streets = found.filter { places.rowKind($0.slot) == .street }.map { Array(TextFolding.fold(places.name($0.slot)).utf8) + [0x20] }
        var kept: [Candidate] = []
        for c in found where kept.count < limit {
            if c.slot < firstStreetLevelRow {
                if places.couldBeSection(c.slot), towns.contains(where: { places.isSection(c.slot, of: $0.slot) }) { continue }
            } else if places.rowKind(c.slot) == .address, names.entryKind[c.entry] == NameIndex.Kind.primary.rawValue {
                let start = Int(names.keyStart[c.entry]), name = names.keyBytes[start..<(start + Int(names.keyLength[c.entry]))]
                if streets.contains(where: { key.count < $0.count && name.starts(with: $0) }) { continue }
            }
            kept.append(c)
        }
        return kept
    }

    /// Location bias, added to a candidate's score with `near`, in the log2 units of importance. A GeoNames place:
    /// every doubling of the distance past 10 km weighs like 1.5 doublings of population, so a nearby town beats
    /// a distant city of the same name. A street-level row has no population to weigh: at the user's door it
    /// counts as a town of 70,000–200,000 people (`streetLevelNearby` + its importance), losing 3 per doubling of the
    /// distance past 200 m, so across a city the nearer answer wins and a big city far away still beats a
    /// venue a few kilometres off ("Par" in Tampere: Paris, not a barber's in Helsinki).
    func nearness(_ slot: Int, _ near: Coordinate) -> Float {
        guard slot >= firstStreetLevelRow else { return -1.5 * Float(log2(1 + distance(slot, near) / 10_000)) }
        return Self.streetLevelNearby - 3 * Float(log2(1 + streetLevelDistance(slot, near) / 200))
    }

    /// What a street-level row at the user's door adds to its importance (log2 units).
    static let streetLevelNearby: Float = 9.5

    /// Metres from `c` to a street-level row: a street's nearest point along it, another row's own point.
    func streetLevelDistance(_ slot: Int, _ c: Coordinate) -> Double {
        let r = slot - firstStreetLevelRow
        let points = Int(streetPointStart[r])..<Int(streetPointStart[r + 1])
        guard !points.isEmpty else { return distance(slot, c) }
        let (qx, qy, qz) = Geo.unitVector(latitude: c.latitude, longitude: c.longitude)
        var best = Double.infinity
        for i in points { best = min(best, street.streetPoints.nodes[Int(streetPointSlots[i])].distance2(qx, qy, qz)) }
        return Geo.meters(forUnitChord: best.squareRoot())
    }

    /// Street-level entries read per query at most: a prefix's matches in a city's extract are far fewer.
    static let streetLevelScan = 5_000

    /// The street-level rows matching in `ranges` that `found` lacks, each through its best entry (bounded by
    /// `streetLevelScan`); `nearness` then ranks them against the GeoNames places.
    private func streetLevelMatches(_ ranges: [NameIndex.TieredRange], besides found: [Candidate], accept: (Int32) -> Bool) -> [Candidate] {
        var position = Dictionary(uniqueKeysWithValues: found.map { ($0.slot, -1) })
        var matches: [Candidate] = []
        var scanned = 0
        for r in ranges {
            // The first street-level entry at or after the range's start.
            var lo = firstIndex(in: streetLevelEntries.indices) { Int(streetLevelEntries[$0]) >= r.range.lowerBound }
            while lo < streetLevelEntries.count, Int(streetLevelEntries[lo]) < r.range.upperBound, scanned < Self.streetLevelScan {
                let e = Int(streetLevelEntries[lo]), slot = Int(names.entryPlace[e])
                lo += 1; scanned += 1
                guard position[slot] != -1, accept(Int32(slot)) else { continue }
                let lowered = r.ownNamesFirst && names.entryKind[e] == NameIndex.Kind.alternate.rawValue ? NameIndex.alternateDemotion : 0
                let importance = places.importance(slot)
                let nameTerm = -(NameIndex.Kind(rawValue: names.entryKind[e])?.penalty ?? 0) - lowered
                let c = Candidate(slot: slot, tier: r.tier, score: importance + nameTerm, entry: e, importance: importance, nameTerm: nameTerm)
                if let i = position[slot] {
                    // The best entry as the draw by importance would pick it: by its score, its kind's penalty in.
                    if (c.tier, c.score) > (matches[i].tier, matches[i].score) { matches[i] = c }
                } else {
                    position[slot] = matches.count
                    matches.append(c)
                }
            }
        }
        return matches
    }

    /// The best places of the ranges, best first. With `sections`, a section of a city already found is left out.
    func collect(_ ranges: [NameIndex.TieredRange], wanted: Int, accept: (Int32) -> Bool, sections: Bool) -> [Candidate] {
        var found: [Candidate] = []
        found.reserveCapacity(min(wanted, 256))
        var seen = SlotSet()
        var visited = 0
        var walk = names.bestFirst(ranges)
        // Entries are drawn a few at a time, and what ranking reads of their places is asked for before any is read:
        // the rows lie far apart, so nearly every read misses the cache, and misses asked for together are waited
        // for together. The order they are looked at in is the walk's, batch or not.
        var batch: [(entry: Int, tier: Int, score: Float)] = []
        batch.reserveCapacity(Self.collectBatch)
        // Bounded: a filter that rejects nearly everything must not scan a whole prefix range.
        while found.count < wanted, visited < 5_000 {
            batch.removeAll(keepingCapacity: true)
            while batch.count < min(Self.collectBatch, wanted - found.count), let next = names.nextBest(&walk) { batch.append(next) }
            guard !batch.isEmpty else { break }
            for drawn in batch { names.entryPlace.prefetch(drawn.entry) }
            places.prefetchRanking(batch.lazy.map { Int(self.names.entryPlace[$0.entry]) })
            for (entry, tier, score) in batch {
                visited += 1
                let slot = names.entryPlace[entry]
                if seen.insert(slot), accept(slot),
                   !sections || !places.couldBeSection(Int(slot)) || !found.contains(where: { places.isSection(Int(slot), of: $0.slot) }) {
                    // What the range took off: the demotion of an alternate name, a typo's penalty.
                    let lowered = names.entryScore[entry] - score
                    let importance = places.importance(Int(slot))
                    let nameTerm = -(NameIndex.Kind(rawValue: names.entryKind[entry])?.penalty ?? 0) - lowered
                    found.append(Candidate(slot: Int(slot), tier: tier, score: importance + nameTerm, entry: entry,
                                           importance: importance, nameTerm: nameTerm))
                }
                if found.count >= wanted || visited >= 5_000 { break }
            }
        }
        return found
    }

    /// Entries drawn at most at once by `collect`.
    static let collectBatch = 16

    /// The places found, each with the alternate name it matched as written (`typed` is the text asked), and with
    /// `explain` why it ranked there (`key` is the folded text the candidates were found for, in `mode`).
    private func results(_ found: [Candidate], near: Coordinate?, typed: String, key: [UInt8], mode: Mode, explain: Bool) -> [PlaceResult] {
        // Only a match through an alternate name (or an explanation) needs the typed text, trimmed.
        lazy var asTyped = String(typed[..<(typed.utf8.firstIndex(of: UInt8(ascii: ",")) ?? typed.endIndex)]).trimmingWhitespace()
        places.prefetchPlaces(found.lazy.map(\.slot))
        for c in found where names.entryKind[c.entry] == NameIndex.Kind.alternate.rawValue { places.alternateStart.prefetch(c.slot) }
        // Each result made where the array keeps it: a result is a large value, and moving it through `map` copied it.
        return [PlaceResult](unsafeUninitializedCapacity: found.count) { buffer, count in
            for c in found {
                var matchedName: String?
                if names.entryKind[c.entry] == NameIndex.Kind.alternate.rawValue {
                    let start = Int(names.keyStart[c.entry])
                    matchedName = places.alternate(c.slot, at: names.alternateAt[c.entry], foldedAs: names.keyBytes[start..<(start + Int(names.keyLength[c.entry]))], typed: asTyped)
                }
                let distanceMeters = near.map { distance(c.slot, $0) }
                (buffer.baseAddress! + count).initialize(to: PlaceResult(
                    place: answerPlace(c.slot), distanceMeters: distanceMeters, matchedName: matchedName,
                    explanation: explain ? explanation(c, key: key, mode: mode, typed: asTyped, distanceMeters: distanceMeters) : nil))
                count += 1
            }
        }
    }

    /// Letters in a folded key, spaces not counted: typo tolerance and corrections start at 5.
    static func letterCount(_ key: [UInt8]) -> Int {
        // The key's scalars other than spaces: its UTF-8 bytes that start one.
        key.reduce(0) { $0 + ($1 & 0xC0 != 0x80 && $1 != 0x20 ? 1 : 0) }
    }

    private func distance(_ slot: Int, _ c: Coordinate) -> Double {
        Geo.haversineMeters(c.latitude, c.longitude, places.latitude[slot], places.longitude[slot])
    }

    // MARK: Filters

    private func countryFilter(_ code: String?) throws(PindropError) -> UInt16? {
        guard let code else { return nil }
        guard let i = places.countries.firstIndex(where: { $0.code == code }) else {
            throw .invalidInput("unknown country code \"\(code)\"")
        }
        return UInt16(i)
    }

    /// A filter built once per query: the country filter, every qualifier (each must name the place's
    /// country or admin1), as lookup tables so testing a candidate costs two array reads per qualifier, and the
    /// request's `within` (`containment`).
    private func acceptance(country: UInt16?, qualifiers: [String], lastIsPrefix: Bool,
                            within: ((Int32) -> Bool)?) -> (Int32) -> Bool {
        let base = acceptance(country: country, qualifiers: qualifiers, lastIsPrefix: lastIsPrefix)
        guard let within else { return base }
        return { base($0) && within($0) }
    }

    private func acceptance(country: UInt16?, qualifiers: [String], lastIsPrefix: Bool) -> (Int32) -> Bool {
        // Most questions have neither: then nothing is looked up, and no table is captured (shared, so each
        // capture is a retain every serving thread contends for).
        if country == nil, qualifiers.isEmpty { return { _ in true } }
        let tables: [(countries: [Bool], admin1s: [Bool], town: (String) -> Bool)] = qualifiers.enumerated().map { n, q in
            var countries = [Bool](repeating: false, count: places.countries.count)
            var admin1s = [Bool](repeating: false, count: places.admin1s.count)
            let prefix = lastIsPrefix && n == qualifiers.count - 1
            let named = prefix ? qualifierForms.filter { $0.key.hasPrefix(q) }.map(\.value) : [qualifierForms[q]].compactMap { $0 }
            for division in named {
                for c in division.countries { countries[Int(c)] = true }
                for a in division.admin1s { admin1s[Int(a)] = true }
            }
            return (countries, admin1s, { prefix ? $0.hasPrefix(q) : $0 == q })
        }
        let placeCountry = places.country, placeAdmin1 = places.admin1, towns = streetTowns
        return { slot in
            let i = Int(slot)
            if let country, placeCountry[i] != country { return false }
            for table in tables {
                let c = placeCountry[i], a = placeAdmin1[i]
                let byCountry = c != PlaceTable.noCountry && table.countries[Int(c)]
                guard byCountry || (a >= 0 && table.admin1s[Int(a)]) || towns[slot].map(table.town) == true else { return false }
            }
            return true
        }
    }
}

/// The slots a query has met: a short list while it is short (most queries meet a few dozen), a set after.
struct SlotSet {
    private var list: [Int32] = []
    private var set: Set<Int32>?

    /// Adds `slot`; whether it was new.
    mutating func insert(_ slot: Int32) -> Bool {
        if set != nil { return set!.insert(slot).inserted }
        if list.contains(slot) { return false }
        if list.count == 64 { set = Set(list + [slot]); return true }
        if list.isEmpty { list.reserveCapacity(64) }
        list.append(slot)
        return true
    }
}
