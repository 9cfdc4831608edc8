import Foundation
import PindropCore

/// The embedded engine: GeoNames places searched, suggested, reverse-geocoded and found nearby, all in memory
/// after one read of the index file. Immutable once open, so any number of threads may query it at once.
public final class PlaceIndex: Geocoder, StatusReporting, Sendable {
    let places: PlaceTable
    let names: NameIndex
    let spatial: SpatialIndex
    /// Where the index was read from.
    public let path: String

    /// Opens an index file built by `IndexBuilder`; throws `.indexUnavailable` with the reason when it is
    /// missing, not an index, of another format version, or damaged.
    public static func open(at path: String) throws(PindropError) -> PlaceIndex {
        let database = try IndexDatabase(openingAt: path)
        let meta = try database.meta()
        guard meta["structure_version"] == IndexDatabase.structureVersion else {
            throw .indexUnavailable("the index at \(path) has format \(meta["structure_version"] ?? "unknown"), this pindrop reads format \(IndexDatabase.structureVersion); rebuild it with `pindrop import geonames`")
        }
        let divisions = try database.countriesAndAdmin1()
        let (places, names, spatial) = try IndexStructures.decode(
            try database.structures(), countries: divisions.countries, admin1Names: divisions.admin1)
        return PlaceIndex(places: places, names: names, spatial: spatial, path: path)
    }

    init(places: PlaceTable, names: NameIndex, spatial: SpatialIndex, path: String) {
        self.places = places; self.names = names; self.spatial = spatial; self.path = path
    }

    /// How many places the index holds.
    public var placeCount: Int { places.count }

    /// Credits the shipped data requires.
    public static let attribution = ["Place data © GeoNames (geonames.org), CC-BY 4.0"]

    // MARK: Search

    /// Forward geocoding. Exact names rank above prefixes, prefixes above typo-tolerant matches; within a tier,
    /// by population (and nearness when `near` is set). "Name, Qualifier" narrows by country or admin1.
    public func search(_ request: SearchRequest) throws(PindropError) -> [PlaceResult] {
        let country = try countryFilter(request.countryCode)
        let parts = request.text.split(separator: ",").map { TextFolding.fold($0) }
        let name = parts.first ?? ""
        let qualifiers = parts.dropFirst().filter { !$0.isEmpty }
        guard !name.isEmpty else { return [] }
        var found = rank(key: Array(name.utf8), mode: .search, request.limit, request.near) {
            self.accepts($0, country: country, qualifiers: qualifiers, lastIsPrefix: false)
        }
        // "Paris France", "Portland Oregon": no match for the whole text, so try its last words as a qualifier.
        if found.isEmpty, qualifiers.isEmpty {
            let words = name.split(separator: " ")
            for split in stride(from: words.count - 1, through: 1, by: -1) where found.isEmpty {
                let head = words[..<split].joined(separator: " "), tail = words[split...].joined(separator: " ")
                found = rank(key: Array(head.utf8), mode: .search, request.limit, request.near) {
                    self.accepts($0, country: country, qualifiers: [tail], lastIsPrefix: false)
                }
            }
        }
        return results(found, near: request.near)
    }

    /// Search as you type: the text so far, the last word a prefix; "Portland, Or" narrows by a qualifier prefix.
    public func suggest(_ request: SuggestRequest) throws(PindropError) -> [PlaceResult] {
        let country = try countryFilter(request.countryCode)
        guard !request.isBelowMinimum else { return [] }
        let parts = request.text.split(separator: ",", omittingEmptySubsequences: false).map { TextFolding.fold($0) }
        var key = Array((parts.first ?? "").utf8)
        guard !key.isEmpty else { return [] }
        let found: [Candidate]
        if parts.count == 1 {
            // A trailing space means the last word is complete: "new " should not suggest "Newark".
            if request.text.last == " " { key.append(0x20) }
            found = rank(key: key, mode: .suggest, request.limit, request.near) {
                self.accepts($0, country: country, qualifiers: [], lastIsPrefix: false)
            }
        } else {
            let qualifiers = parts.dropFirst().filter { !$0.isEmpty }
            found = rank(key: key, mode: .search, request.limit, request.near) {
                self.accepts($0, country: country, qualifiers: Array(qualifiers), lastIsPrefix: true)
            }
        }
        return results(found, near: request.near)
    }

    /// The nearest places to a point, nearest first, by true great-circle distance.
    public func reverse(_ request: ReverseRequest) throws(PindropError) -> [PlaceResult] {
        let c = request.coordinate
        return spatial.nearest(latitude: c.latitude, longitude: c.longitude, k: request.limit).map { hit in
            let i = Int(hit.place)
            return PlaceResult(place: places.place(i), distanceMeters: distance(i, c))
        }
    }

    /// The nearest place to a point: its slot and distance in metres. The allocation-free path for batches.
    public func nearestPlace(latitude: Double, longitude: Double) -> (slot: Int, meters: Double)? {
        guard let hit = spatial.nearest(latitude: latitude, longitude: longitude) else { return nil }
        let i = Int(hit.place)
        return (i, Geo.haversineMeters(latitude, longitude, places.latitude[i], places.longitude[i]))
    }

    /// The place in a slot returned by `nearestPlace`.
    public func place(atSlot slot: Int) -> Place { places.place(slot) }

    /// Places within a radius, nearest first. GeoNames places have no venue category, so a category filter
    /// matches none of them.
    public func nearby(_ request: NearbyRequest) throws(PindropError) -> [PlaceResult] {
        guard request.category == nil else { return [] }
        let c = request.coordinate
        var hits: [(place: Int32, chord2: Double)] = []
        // A hair of slack on the chord so rounding never drops a place right on the edge; then filter exactly.
        spatial.within(latitude: c.latitude, longitude: c.longitude,
                       chord: Geo.unitChord(forMeters: request.radiusMeters) * (1 + 1e-9), into: &hits)
        var withDistance = hits.map { (Int($0.place), distance(Int($0.place), c)) }.filter { $0.1 <= request.radiusMeters }
        withDistance.sort { $0.1 != $1.1 ? $0.1 < $1.1 : places.population[$0.0] > places.population[$1.0] }
        return withDistance.prefix(request.limit).map { PlaceResult(place: places.place($0.0), distanceMeters: $0.1) }
    }

    /// A place by id ("geonames:2988507"); nil for an unknown or foreign id.
    public func place(id: String) -> Place? {
        guard id.hasPrefix("geonames:"), let n = Int32(id.dropFirst("geonames:".count)),
              let i = places.index(ofGeonameID: n) else { return nil }
        return places.place(i)
    }

    /// What this store holds (the protocol requirements above are met by the synchronous methods directly).
    public func status() -> StoreStatus {
        StoreStatus(name: "embedded", placeCount: places.count, location: path, attribution: Self.attribution)
    }

    // MARK: Ranking

    enum Mode { case search, suggest }

    struct Candidate { var slot: Int; var tier: Int; var score: Float }

    /// Collects the best candidates for a folded key. Search: exact (tier 3) > prefix (2) > one typo (1) > two (0).
    /// Suggest: prefix (2) > typo-tolerant prefix. With `near`, more candidates are drawn and re-ranked by distance.
    func rank(key: [UInt8], mode: Mode, _ limit: Int, _ near: Coordinate?, accept: (Int32) -> Bool) -> [Candidate] {
        let (all, exact) = names.ranges(prefix: key)
        var ranges: [NameIndex.TieredRange]
        switch mode {
        case .search:
            ranges = [.init(range: exact, tier: 3), .init(range: exact.upperBound..<all.upperBound, tier: 2)]
        case .suggest:
            ranges = [.init(range: all, tier: 2)]
        }
        let wanted = near == nil ? limit : max(limit, 200)
        var found = collect(ranges, wanted: wanted, accept: accept)
        if found.count < limit {
            let letters = String(decoding: key, as: UTF8.self).unicodeScalars.filter { $0 != " " }.count
            let maxEdits = letters >= 9 ? 2 : (letters >= 5 ? 1 : 0)
            let fuzzy = names.fuzzyRanges(key, maxEdits: maxEdits, asPrefix: mode == .suggest)
            if !fuzzy.isEmpty {
                let seen = Set(found.map(\.slot))
                let more = collect(fuzzy.map { .init(range: $0.range, tier: 1 - $0.edits) }, wanted: wanted + seen.count) {
                    !seen.contains(Int($0)) && accept($0)
                }
                found += more.filter { !seen.contains($0.slot) }
            }
        }
        guard let near else { return Array(found.prefix(limit)) }
        // Location bias: within a tier, every doubling of the distance (past 10 km) weighs like 1.5 doublings
        // of population, so a nearby town beats a distant city of the same name.
        for i in found.indices {
            let km = distance(found[i].slot, near) / 1000
            found[i].score -= 1.5 * Float(log2(1 + km / 10))
        }
        found.sort { $0.tier != $1.tier ? $0.tier > $1.tier : $0.score > $1.score }
        return Array(found.prefix(limit))
    }

    private func collect(_ ranges: [NameIndex.TieredRange], wanted: Int, accept: (Int32) -> Bool) -> [Candidate] {
        var found: [Candidate] = []
        var seen = Set<Int32>()
        var visited = 0
        names.forEachBest(ranges) { entry, tier in
            visited += 1
            let slot = names.entryPlace[entry]
            if seen.insert(slot).inserted, accept(slot) {
                found.append(Candidate(slot: Int(slot), tier: tier, score: places.importance(Int(slot))))
            }
            // Bounded: a filter that rejects nearly everything must not scan a whole prefix range.
            return found.count < wanted && visited < 20_000
        }
        return found
    }

    private func results(_ found: [Candidate], near: Coordinate?) -> [PlaceResult] {
        found.map { c in PlaceResult(place: places.place(c.slot), distanceMeters: near.map { distance(c.slot, $0) }) }
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

    /// Whether a place passes the country filter and every qualifier (each naming its country or admin1).
    private func accepts(_ slot: Int32, country: UInt16?, qualifiers: [String], lastIsPrefix: Bool) -> Bool {
        let i = Int(slot)
        if let country, places.country[i] != country { return false }
        for (n, q) in qualifiers.enumerated() {
            let prefix = lastIsPrefix && n == qualifiers.count - 1
            func matches(_ form: String) -> Bool { prefix ? form.hasPrefix(q) : form == q }
            let countryForms = places.countryInfo(i)?.qualifierForms ?? []
            let admin1Forms = places.admin1Info(i)?.qualifierForms ?? []
            guard countryForms.contains(where: matches) || admin1Forms.contains(where: matches) else { return false }
        }
        return true
    }
}
