import PindropCore

/// The embedded index's batch reverse path: each place's result members made once per place and worker, and one
/// writer per worker, so the answer for a point is a copy plus three numbers, with no allocation. One cache per
/// worker, so no locks. Points with a street-level answer are left to the general path, as single reverse answers
/// them.
final class BatchReverser: BatchReversing, @unchecked Sendable {
    /// Per worker: each place's members, made on first use (indexed by row, so no hashing per line), and its writer.
    private final class WorkerCache {
        var members: [[UInt8]?]
        var writer = JSONWriter(capacity: 1024)
        init(count: Int) { members = Array(repeating: nil, count: count) }
    }
    private let reverse: ReverseGeocoder
    private let contents: IndexContents
    private let caches: [WorkerCache]

    init(contents: IndexContents, workers: Int) {
        self.contents = contents
        reverse = ReverseGeocoder(contents: contents)
        caches = (0..<max(workers, 1)).map { _ in WorkerCache(count: contents.places.geonamesCount) }
    }

    func appendAnswer(latitude: Double, longitude: Double, worker: Int, to out: inout [UInt8]) -> Bool {
        guard reverse.streetLevelHit(at: Coordinate(latitude: latitude, longitude: longitude)) == nil,
              let hit = reverse.nearestPlace(latitude: latitude, longitude: longitude) else { return false }
        let cache = caches[worker]
        if cache.members[hit.row] == nil {
            var place = contents.places.place(hit.row)
            place.source = nil
            place.displayName = reverse.nearName(ofRow: hit.row)   // as `reverse` names its first answer
            cache.members[hit.row] = WireEncoding.placeMembers(place)
        }
        cache.writer.reset()
        WireEncoding.writeReverseBatchLine(latitude: latitude, longitude: longitude, placeMembers: cache.members[hit.row]!,
                                           distanceMeters: hit.meters, source: "embedded", into: &cache.writer)
        cache.writer.append(to: &out)
        return true
    }
}
