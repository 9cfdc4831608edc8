import Foundation
import PindropCore

/// The checks every `PlaceStore` must pass, whatever it keeps its data in: the place answers and accuracy
/// targets Pindrop promises, on the repository's shipped data (GeoNames cities500 and the central Helsinki
/// OpenStreetMap extract). A store's tests build it from that data and run each check, e.g.
/// `@Test(arguments: StoreConformance.checks) func conforms(_ check: StoreConformance.Check)`.
///
/// Truth comes from the imported data itself (brute force over the rows), not from another store.
public struct StoreConformance: Sendable {
    /// The store under test, built from `data`.
    public let store: any PlaceStore
    /// What the store was built from.
    public let data: ConformanceData

    /// A suite run over `store`, which was built from `data`.
    public init(store: any PlaceStore, data: ConformanceData) {
        self.store = store
        self.data = data
    }

    /// One named check; throws `ConformanceFailure` saying what went wrong.
    public struct Check: Sendable, CustomStringConvertible {
        /// What it checks, as a test name.
        public let description: String
        let body: @Sendable (StoreConformance) async throws -> Void

        /// Runs the check against a store.
        public func run(_ suite: StoreConformance) async throws { try await body(suite) }
    }

    /// Every check, in a stable order.
    public static let checks: [Check] = placeChecks + accuracyChecks + streetChecks + labelChecks
}

/// The rows a conformance store was built from, and the kept query set (`Tests/Fixtures/queries.tsv`).
public struct ConformanceData: Sendable {
    /// The GeoNames rows imported.
    public var places: [GeoNamesRecord]
    /// The OpenStreetMap features imported (addresses, streets, venues, buildings).
    public var streets: OSMFeatures
    /// The kept query set: category, query, expected place id.
    public var queries: [(category: String, query: String, expected: String)]

    /// Bundles the data; `queries` defaults to the kept set.
    public init(places: [GeoNamesRecord], streets: OSMFeatures,
                queries: [(category: String, query: String, expected: String)] = ConformanceData.keptQueries) {
        self.places = places
        self.streets = streets
        self.queries = queries
    }

    /// The venues a store makes places of: every one but the place nodes that label a country, state or county
    /// (`PlaceRank.boundaryLabels`) and those that a GeoNames place of the same name (or alternate name) within 5 km
    /// stands for, as the GeoNames row answers for Helsinki's node.
    public var distinctVenues: [OSMVenue] {
        streets.venues.filter { venue in
            guard venue.categoryKey == "place" else { return true }
            if PlaceRank.boundaryLabels.contains(venue.category) { return false }
            let name = TextFolding.fold(venue.name)
            return !places.contains { p in
                Coordinate(latitude: p.latitude, longitude: p.longitude).distance(to: venue.coordinate) < 5_000
                    && ([p.name, p.asciiName] + p.alternateNames).contains { TextFolding.fold($0) == name }
            }
        }
    }

    /// The repository's root folder, where `data/` and `Tests/Fixtures/` are.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The shipped GeoNames folder (cities500 with its country and admin1 files).
    public static let geonamesFolder = repository.appendingPathComponent("data/geonames").path
    /// The shipped OpenStreetMap extract of central Helsinki.
    public static let helsinkiExtract = repository.appendingPathComponent("data/osm/helsinki-center.osm.pbf").path
    /// The shipped OpenStreetMap extract of Liechtenstein, with its municipalities' boundaries.
    public static let liechtensteinExtract = repository.appendingPathComponent("data/osm/liechtenstein.osm.pbf").path

    /// Tests/Fixtures/areas/<name>: expectations made from the OSM geometry by scripts/area-expectations.py
    /// (pyosmium + shapely), independently of Pindrop. Rows without the header, split at tabs.
    public static func areaFixture(_ name: String) throws -> [[String]] {
        let text = try String(contentsOfFile: repository.appendingPathComponent("Tests/Fixtures/areas/\(name)").path, encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The kept query set (scripts/make-query-set.py): full names, names without diacritics, "Name, Qualifier",
    /// alternate names and other scripts, one-typo names, and 3-4 letter prefixes, each with the place meant.
    public static let keptQueries: [(category: String, query: String, expected: String)] = {
        let file = repository.appendingPathComponent("Tests/Fixtures/queries.tsv")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
            let cols = line.split(separator: "\t").map(String.init)
            return cols.count == 3 ? (cols[0], cols[1], "geonames:" + cols[2]) : nil
        }
    }()
}

/// A conformance check that did not hold.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// What was expected and what came instead.
    public let description: String
}

/// Fails the check with `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(ConformanceFailure) {
    if !condition { throw ConformanceFailure(description: message()) }
}

/// The value, or a failure saying what was missing.
func unwrap<T>(_ value: T?, _ message: @autoclosure () -> String) throws(ConformanceFailure) -> T {
    guard let value else { throw ConformanceFailure(description: message()) }
    return value
}

extension StoreConformance {
    func search(_ text: String, near: Coordinate? = nil, country: String? = nil, limit: Int = 10) async throws -> [PlaceResult] {
        try await store.search(SearchRequest(text: text, near: near, countryCode: country, limit: limit))
    }

    func first(_ text: String, near: Coordinate? = nil, country: String? = nil) async throws -> Place? {
        try await search(text, near: near, country: country).first?.place
    }

    func suggest(_ text: String, near: Coordinate? = nil, limit: Int = 10) async throws -> [PlaceResult] {
        try await store.suggest(SuggestRequest(text: text, near: near, limit: limit, minChars: 1))
    }

    func reverse(_ point: Coordinate, limit: Int = 1) async throws -> [PlaceResult] {
        try await store.reverse(ReverseRequest(coordinate: point, limit: limit))
    }
}

// MARK: Places (GeoNames)

extension StoreConformance {
    static let examples: [(query: String, name: String, admin1: String?, country: String)] = [
        ("Springfield, IL", "Springfield", "Illinois", "US"), ("Springfield, Illinois", "Springfield", "Illinois", "US"),
        ("Portland, Oregon", "Portland", "Oregon", "US"), ("Portland, Maine", "Portland", "Maine", "US"),
        ("Sao Paulo", "São Paulo", nil, "BR"), ("zurich", "Zürich", nil, "CH"), ("München", "Munich", nil, "DE"),
        ("Москва", "Moscow", nil, "RU"), ("Wien", "Vienna", nil, "AT"), ("Paris France", "Paris", nil, "FR"),
        ("Londn", "London", nil, "GB"), ("Amsterdma", "Amsterdam", nil, "NL"),
    ]

    static let placeChecks: [Check] = [
        Check(description: "the examples people type find the place they mean") { s in
            for e in examples {
                let place = try unwrap(try await s.first(e.query), "\(e.query): nothing found")
                let fits = place.name == e.name && place.countryCode == e.country && (e.admin1 == nil || place.admin1 == e.admin1)
                    && place.id.hasPrefix("geonames:") && place.displayName.hasPrefix(e.name + ", ")
                try require(fits, "\(e.query) → \(place.displayName) (\(place.id)), wanted \(e.name), \(e.admin1 ?? "") \(e.country)")
            }
        },
        Check(description: "\"Paris, US\" picks the biggest Paris in the United States; a country filter does the same") { s in
            let qualified = try unwrap(try await s.first("Paris, US"), "Paris, US: nothing found")
            try require(qualified.countryCode == "US", "Paris, US → \(qualified.displayName)")
            let filtered = try await s.first("Paris", country: "US")
            try require(filtered?.id == qualified.id, "Paris in US → \(filtered?.displayName ?? "nothing")")
            try require(try await s.first("Paris")?.countryCode == "FR", "Paris is not the French one first")
        },
        Check(description: "exact names rank above prefixes, and results come by population within a tier") { s in
            let exact = try await s.search("Paris").prefix { TextFolding.fold($0.place.name) == "paris" }
            let populations = exact.map(\.place.population)
            try require(exact.count >= 3 && populations == populations.sorted(by: >), "exact Paris tier: \(populations)")
        },
        Check(description: "a location bias brings the nearby namesake first, with distances") { s in
            let texas = Coordinate(latitude: 33.66, longitude: -95.55)
            let results = try await s.search("Paris", near: texas)
            let near = try unwrap(results.first?.place, "Paris near Texas: nothing found")
            try require(near.countryCode == "US" && near.admin1 == "Texas", "Paris near Texas → \(near.displayName)")
            try require(results.allSatisfy { $0.distanceMeters != nil }, "results near a point carry no distance")
        },
        Check(description: "suggest: prefixes by population, a trailing space completes the word, typos forgiven") { s in
            try require(try await s.suggest("zur").first?.place.name == "Zürich", "zur does not suggest Zürich first")
            try require(try await s.suggest("new yo").first?.place.name == "New York City", "new yo does not suggest New York City first")
            // The word "new" is complete: Newark and Newcastle must not appear (Delhi may, as "New Delhi").
            let words = try await s.suggest("new ").map { TextFolding.fold($0.place.name) }
            try require(words.count >= 5 && !words.contains { $0.hasPrefix("new") && !$0.hasPrefix("new ") }, "\"new \" → \(words)")
            let typing = try await s.suggest("new").map { TextFolding.fold($0.place.name) }
            try require(typing.contains { $0.hasPrefix("newark") || $0.hasPrefix("newcastle") }, "\"new\" → \(typing)")
            try require(try await s.suggest("Portland, Ore").first?.place.admin1 == "Oregon", "Portland, Ore is not in Oregon")
            try require(try await s.suggest("amsterdma").first?.place.name == "Amsterdam", "amsterdma does not suggest Amsterdam")
        },
        Check(description: "reverse finds the true great-circle nearest place (checked against brute force)") { s in
            var random = SplitMix64(seed: 12345)
            let all = s.data.places.map { Coordinate(latitude: $0.latitude, longitude: $0.longitude) }
            // Random points, and the hard places: poles, the antimeridian, high latitudes.
            var points = (0..<150).map { _ in Coordinate(latitude: asin(2 * random.unit() - 1) * 180 / .pi, longitude: 360 * random.unit() - 180) }
            points += [Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 0),
                       Coordinate(latitude: -17.8, longitude: 179.99), Coordinate(latitude: 65.6, longitude: -168.1),
                       Coordinate(latitude: 78.2, longitude: 15.6)]
            for p in points {
                let best = all.map { p.distance(to: $0) }.min()!
                let answer = try unwrap(try await s.reverse(p).first, "reverse at \(p): nothing")
                try require(abs((answer.distanceMeters ?? -1) - best) < 0.01, "at \(p): got \(answer.place.displayName), \(answer.distanceMeters ?? -1) m, nearest is \(best) m")
            }
        },
        Check(description: "reverse of the Eiffel Tower is in Paris, with a distance; k nearest come nearest first") { s in
            let results = try await s.reverse(Coordinate(latitude: 48.8584, longitude: 2.2945), limit: 5)
            let first = try unwrap(results.first, "reverse at the Eiffel Tower: nothing")
            try require(results.count == 5, "asked for 5, got \(results.count)")
            try require(first.place.countryCode == "FR" && first.place.admin1 == "Ile-de-France" && (first.distanceMeters ?? .infinity) < 3000,
                        "Eiffel Tower → \(first.place.displayName) at \(first.distanceMeters ?? -1) m")
            let distances = results.compactMap(\.distanceMeters)
            try require(distances == distances.sorted(), "not nearest first: \(distances)")
        },
        Check(description: "nearby: every place within the radius, nearest first, none outside it") { s in
            let nyc = Coordinate(latitude: 40.7128, longitude: -74.0060)
            let results = try await s.store.nearby(NearbyRequest(coordinate: nyc, radiusMeters: 5000, limit: 100))
            try require(results.first?.place.name == "New York City", "nearest to NYC: \(results.first?.place.displayName ?? "nothing")")
            let distances = results.compactMap(\.distanceMeters)
            try require(distances.count == results.count && distances == distances.sorted() && distances.allSatisfy { $0 <= 5000 },
                        "distances \(distances)")
            let inside = s.data.places.filter { Coordinate(latitude: $0.latitude, longitude: $0.longitude).distance(to: nyc) <= 5000 }
            try require(results.count == min(100, inside.count), "\(results.count) places within 5 km, the data has \(inside.count)")
            let sea = try await s.store.nearby(NearbyRequest(coordinate: Coordinate(latitude: 0, longitude: -140), radiusMeters: 50_000))
            try require(sea.isEmpty, "places in the empty Pacific: \(sea.map(\.place.displayName))")
        },
        Check(description: "lookup by id round-trips, unknown ids are nil") { s in
            let zurich = try await s.store.place(id: "geonames:2657896")
            try require(zurich?.name == "Zürich" && zurich?.displayName == "Zürich, Zurich, Switzerland", "geonames:2657896 → \(String(describing: zurich))")
            try require(try await s.store.place(id: "geonames:1") == nil, "geonames:1 found")
            try require(try await s.store.place(id: "osm:node/1") == nil, "osm:node/1 found")
        },
        Check(description: "an unknown country code is an error, not an empty list") { s in
            do {
                let results = try await s.search("Paris", country: "XX")
                throw ConformanceFailure(description: "country XX answered \(results.count) results")
            } catch let error as PindropError {
                try require(error == .invalidInput("unknown country code \"XX\""), "country XX: \(error)")
            }
        },
    ]

    /// The kept query set's categories with their top-1 targets.
    static let accuracyTargets: [(category: String, atLeast: Double)] = [
        ("exact", 0.95), ("qualified", 0.95), ("diacritic-free", 0.95), ("alternate", 0.95), ("typo", 0.85), ("prefix", 0.95),
    ]

    static let accuracyChecks: [Check] = accuracyTargets.map { target in
        Check(description: "kept query set, \(target.category): top-1 ≥ \(Int(target.atLeast * 100))%") { s in
            let rows = s.data.queries.filter { $0.category == target.category }
            try require(rows.count >= 100, "the query set for \(target.category) has only \(rows.count) rows")
            var misses: [String] = []
            for row in rows {
                // Prefixes are what a person types into the search box: suggestions, not searches.
                let results = target.category == "prefix" ? try await s.suggest(row.query, limit: 5) : try await s.search(row.query, limit: 5)
                if results.first?.place.id != row.expected {
                    misses.append("\(row.query) → \(results.first?.place.displayName ?? "nothing"), wanted \(row.expected)")
                }
            }
            let rate = 1 - Double(misses.count) / Double(rows.count)
            try require(rate >= target.atLeast, "\(target.category) top-1 \(rate): \(misses.prefix(10))")
        }
    }
}
