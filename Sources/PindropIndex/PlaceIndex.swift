import Foundation
import PindropCore

/// The embedded engine: GeoNames places and OpenStreetMap rows searched, suggested, reverse-geocoded and found
/// nearby, from the index's structures mapped into memory (`MappedStructures`). A composition of the query stages
/// (`TextSearch`, `ReverseGeocoder`, `NearbySearch`, `MapLayers`, `PlaceLookup`) over the open index's contents
/// (`IndexContents`). Immutable once open, so any number of threads may query it at once.
public final class PlaceIndex: PlaceStore, Sendable {
    /// The structures every stage reads.
    let contents: IndexContents
    let textSearch: TextSearch
    let reverseGeocoder: ReverseGeocoder
    let nearbySearch: NearbySearch
    let mapLayers: MapLayers
    let lookup: PlaceLookup
    /// Where the index was read from.
    public let path: String
    /// The build it was read from (the meta's `build_id`): a new import or update is a new build.
    public let buildID: String
    /// How far a replication feed had been applied when it was built, if one was.
    public let replication: ReplicationState?

    init(_ structures: IndexStructures.Decoded, path: String, buildID: String = "", replication: ReplicationState? = nil) {
        self.buildID = buildID
        self.replication = replication
        let contents = IndexContents(structures)
        self.contents = contents
        textSearch = TextSearch(contents: contents)
        reverseGeocoder = ReverseGeocoder(contents: contents)
        nearbySearch = NearbySearch(contents: contents)
        mapLayers = MapLayers(contents: contents)
        lookup = PlaceLookup(contents: contents)
        self.path = path
    }

    // MARK: Opening

    /// Opens an index built by `IndexBuilder`: reads the database's meta and maps the structures file it names
    /// (no structure is copied: opening costs the same at any size, and pages are read as queries need them).
    /// Throws `.indexUnavailable` with the reason when either file is missing, not an index, of another format
    /// version, from another import than its partner, or damaged.
    public static func open(at path: String) throws(PindropError) -> PlaceIndex {
        try IndexReader.withStructures(at: path) { database, names throws(PindropError) in
            let (decoded, structures) = try IndexReader.decode(database, names, checks: .none)
            let index = PlaceIndex(decoded, path: database.path, buildID: names.published,
                                   replication: IndexDatabase.replication(in: try database.meta()))
            // Opening has read what it reads in a row; queries from here on read here and there.
            structures.adviseRandomReads()
            return index
        }
    }

    /// Checks every value of the structures `checks` names of the index at `path` (what an import does with the
    /// index it is about to publish), without making the index. Throws as `open(at:)` does, and for a value out of
    /// range.
    static func verify(at path: String, checks: IndexStructures.ValueChecks = .all) throws(PindropError) {
        try IndexReader.withStructures(at: path) { database, names throws(PindropError) in
            _ = try IndexReader.decode(database, names, checks: checks)
        }
    }

    /// The files the index at `path` is made of: the database, and the structures files it names when it names
    /// them, the one every import and update writes last (to copy, move or remove an index whole).
    public static func files(at path: String) -> [String] { IndexReader.files(at: path) }

    /// Whether the index file at `path` records that it was built from the shipped data, so rebuilding it
    /// loses nothing. False for a user's import, for an index from before this was recorded and for a file
    /// whose metadata cannot be read: what is not known to be rebuildable is kept.
    public static func isBuiltFromShippedData(at path: String) -> Bool {
        (try? IndexDatabase(openingAt: path).meta()["origin"]) == IndexDatabase.shippedOrigin
    }

    // MARK: What it holds

    /// How many GeoNames places the index holds (rows 0 ..< placeCount; street-level rows come after).
    public var placeCount: Int { contents.places.geonamesCount }

    /// How many street-level rows (venues, addresses, streets, areas) the index holds.
    public var streetLevelCount: Int { contents.places.count - contents.places.geonamesCount }

    /// Credits the shipped data requires.
    public static let attribution = ["Place data © GeoNames (geonames.org), CC-BY 4.0"]
    /// Credits for street-level data.
    public static let streetAttributionText = "Street data © OpenStreetMap contributors, ODbL 1.0"

    /// Credits for what this index holds.
    public var attribution: [String] { Self.attribution + streetAttribution }
    /// Credits for the street-level data, when the index holds any.
    public var streetAttribution: [String] { contents.street.isEmpty ? [] : [Self.streetAttributionText] }

    /// What this store holds.
    public func status() -> StoreStatus {
        StoreStatus(name: "embedded", placeCount: contents.places.count, location: path, attribution: attribution,
                    dataUpdated: replication?.timestamp
                        ?? Self.files(at: path).last.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate] as? Date },
                    replicationSequence: replication?.sequence)
    }

    // MARK: Queries (the protocol requirements are met by these synchronous methods)

    /// Forward geocoding (`TextSearch.search`).
    public func search(_ request: SearchRequest) throws(PindropError) -> [PlaceResult] { try textSearch.search(request) }

    /// Search as you type (`TextSearch.suggest`).
    public func suggest(_ request: SuggestRequest) throws(PindropError) -> [PlaceResult] { try textSearch.suggest(request) }

    /// What is at a point, nearest first (`ReverseGeocoder.reverse`).
    public func reverse(_ request: ReverseRequest) throws(PindropError) -> [PlaceResult] { reverseGeocoder.reverse(request) }

    /// The areas the point lies in (OSM boundaries, postcode areas, places drawn as polygons), coarse to fine.
    public func areas(containing c: Coordinate) -> [(name: String, level: AreaLevel)] { reverseGeocoder.areas(containing: c) }

    /// The nearest GeoNames place to a point: its row and distance in metres. The allocation-free path of
    /// batches (and of the benchmark's throughput figure); `reverse` adds street-level answers first.
    public func nearestPlace(latitude: Double, longitude: Double) -> (row: Int, meters: Double)? {
        reverseGeocoder.nearestPlace(latitude: latitude, longitude: longitude)
    }

    /// The allocation-free path of `reverse --batch` (`BatchReverser`).
    public func batchReverser(workers: Int) -> (any BatchReversing)? { BatchReverser(contents: contents, workers: workers) }

    /// The place in a row (0 ..< `placeCount` for GeoNames places, then street-level rows), as `nearestPlace` gives rows.
    public func place(atRow row: Int) -> Place { contents.places.place(row) }

    /// Venues and places within a radius, nearest first (`NearbySearch.page`), and how many the radius holds.
    public func nearbyPage(_ request: NearbyRequest) throws(PindropError) -> NearbyPage { nearbySearch.page(request) }

    /// The places of `nearbyPage`.
    public func nearby(_ request: NearbyRequest) throws(PindropError) -> [PlaceResult] { try nearbyPage(request).results }

    /// What the street-level map draws inside a box (`MapLayers.streetMap`).
    public func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) -> [MapFeature] {
        mapLayers.streetMap(in: box, zoom: zoom, limit: limit)
    }

    /// The names of the GeoNames places in a view, biggest first, de-cluttered for `zoom` (`MapLayers.mapLabels`).
    public func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) -> [MapLabel] { mapLayers.mapLabels(in: box, zoom: zoom, limit: limit) }

    /// A place by id ("geonames:2988507"); nil for an unknown or foreign id.
    public func place(id: String) -> Place? { lookup.place(id: id) }
}
