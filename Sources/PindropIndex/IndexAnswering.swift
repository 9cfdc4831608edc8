import PindropCore

/// A store that answers every place question from the `PlaceIndex` it holds now, which it may replace while serving
/// (`FollowedIndex` when its file gets a new build, the shared store when an import commits). Conforming gives the
/// whole `PlaceStore`: each question asks the index of that moment, which a replacement never touches mid-answer.
public protocol IndexAnswering: PlaceStore {
    /// The index answering now.
    var index: PlaceIndex { get }
}

extension IndexAnswering {
    public var attribution: [String] { index.attribution }

    public var streetAttribution: [String] { index.streetAttribution }

    public func status() async throws -> StoreStatus { index.status() }

    public func search(_ request: SearchRequest) async throws -> [PlaceResult] { try index.search(request) }

    public func suggest(_ request: SuggestRequest) async throws -> [PlaceResult] { try index.suggest(request) }

    public func reverse(_ request: ReverseRequest) async throws -> [PlaceResult] { try index.reverse(request) }

    public func nearbyPage(_ request: NearbyRequest) async throws -> NearbyPage { try index.nearbyPage(request) }

    public func place(id: String) async throws -> Place? { index.place(id: id) }

    public func streetMap(in box: BoundingBox, zoom: Int?, limit: Int) async throws -> [MapFeature] {
        index.streetMap(in: box, zoom: zoom, limit: limit)
    }

    public func mapLabels(in box: BoundingBox, zoom: Int, limit: Int) async throws -> [MapLabel] {
        index.mapLabels(in: box, zoom: zoom, limit: limit)
    }

    public func batchReverser(workers: Int) -> (any BatchReversing)? { index.batchReverser(workers: workers) }
}
