import Foundation
import PindropCore
import PindropTesting
import Testing
@testable import PindropIndex

/// Nearby's bounded walk (the nearest first, the total from subtree counts) against the collection of every place
/// in the radius it replaces.
@Suite("Nearby walk")
struct NearbyWalkTests {
    /// The page and total as nearby made them before: every row in the radius, measured, filtered and sorted. The
    /// great-circle distance is measured from each place's point on the unit sphere (its chord), as nearby measures
    /// it; `sameAsCollecting` checks it against the haversine of the stored coordinate.
    static func collected(_ index: PlaceIndex, _ request: NearbyRequest) -> NearbyPage {
        let c = request.coordinate, first = index.contents.street.stored.venueRows.lowerBound
        var hits: [(place: Int32, chord2: Double)] = []
        index.contents.street.stored.venues.within(c, meters: request.radiusMeters, into: &hits)
        var rows = hits.map { (first + Int($0.place), $0.chord2) }
        if let category = request.category {
            rows = rows.filter { (index.contents.places.extras($0.0)?.category ?? "") == category }
        } else {
            hits.removeAll()
            index.contents.spatial.within(c, meters: request.radiusMeters, into: &hits)
            rows += hits.map { (Int($0.place), $0.chord2) }
        }
        let inside = rows.map { ($0.0, Geo.meters(forUnitChord: $0.1.squareRoot())) }.filter { $0.1 <= request.radiusMeters }
        func position(_ row: (Int, Double)) -> NearbyPosition { NearbyPosition(distanceMeters: row.1, id: index.contents.places.id(row.0)) }
        var rest = inside
        if let after = request.after {
            rest = inside.filter { $0.1 != after.distanceMeters ? $0.1 > after.distanceMeters : after < position($0) }
        }
        rest.sort { a, b in a.1 != b.1 ? a.1 < b.1 : position(a) < position(b) }
        return NearbyPage(results: rest.prefix(request.limit).map { PlaceResult(place: index.contents.places.place($0.0), distanceMeters: $0.1) },
                          total: inside.count)
    }

    @Test("each stored box (Float, rounded outward) holds every place of its subtree, so pruning by it never drops one")
    func boxesHoldTheirSubtrees() throws {
        let spatial = try SharedIndex.index.contents.spatial
        var outside = 0, tight = 0
        /// The subtree's exact bounds (from its children's and its node's point), checked against its stored box.
        func check(_ lo: Int, _ hi: Int) -> (low: SIMD3<Double>, high: SIMD3<Double>) {
            guard lo < hi else { return (SIMD3(repeating: .infinity), SIMD3(repeating: -.infinity)) }
            let mid = (lo + hi) >> 1
            let node = spatial.nodes[mid], point = SIMD3(node.x, node.y, node.z)
            let (left, right) = (check(lo, mid), check(mid + 1, hi))
            let low = pointwiseMin(point, pointwiseMin(left.low, right.low)), high = pointwiseMax(point, pointwiseMax(left.high, right.high))
            for a in 0..<3 {
                let (b, t) = (Double([node.minX, node.minY, node.minZ][a]), Double([node.maxX, node.maxY, node.maxZ][a]))
                if b > low[a] || t < high[a] { outside += 1 }
                // Rounded outward by at most one Float step.
                if low[a] - b > Double(Float(low[a]).ulp) || t - high[a] > Double(Float(high[a]).ulp) { tight += 1 }
            }
            return (low, high)
        }
        _ = check(0, spatial.count)
        #expect(spatial.count > 200_000)
        #expect(outside == 0)
        #expect(tight == 0)
    }

    @Test("each node splits its subtree on its axis (the subtrees below the top three levels are built in parallel)")
    func nodesSplitTheirSubtrees() throws {
        let spatial = try SharedIndex.index.contents.spatial
        var misplaced = 0, nodes = 0
        /// The least and greatest value on `axis` in [lo, hi).
        func range(_ lo: Int, _ hi: Int, _ axis: Int) -> (Double, Double) {
            (lo..<hi).reduce((Double.infinity, -Double.infinity)) { (min($0.0, spatial.nodes[$1].coordinate(axis)), max($0.1, spatial.nodes[$1].coordinate(axis))) }
        }
        func check(_ lo: Int, _ hi: Int, depth: Int) {
            guard hi - lo > 1, depth < 12 else { return }
            let mid = (lo + hi) >> 1, axis = Int(spatial.nodes[mid].axis), split = spatial.nodes[mid].coordinate(axis)
            nodes += 1
            if range(lo, mid, axis).1 > split || range(mid + 1, hi, axis).0 < split { misplaced += 1 }
            check(lo, mid, depth: depth + 1)
            check(mid + 1, hi, depth: depth + 1)
        }
        check(0, spatial.count, depth: 0)
        #expect(nodes > 4_000)
        #expect(misplaced == 0)
    }

    @Test("pages and totals are those of collecting every place in the radius: places, venues, categories, cursors")
    func sameAsCollecting() throws {
        let index = try SharedIndex.index
        var random = SplitMix64(seed: 19)
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        let first = index.contents.street.stored.venueRows.lowerBound
        var centres: [Coordinate] = []
        for _ in 0..<400 {
            let i = Int(random.next() % UInt64(index.placeCount))
            centres.append(Coordinate(latitude: index.contents.places.latitude[i], longitude: index.contents.places.longitude[i]))
        }
        for _ in 0..<400 {
            let v = first + Int(random.next() % UInt64(index.contents.street.stored.venueRows.count))
            let c = Coordinate(latitude: index.contents.places.latitude[v], longitude: index.contents.places.longitude[v])
            centres.append(Coordinate(latitude: c.latitude + unit() * 0.01 - 0.005, longitude: c.longitude + unit() * 0.01 - 0.005))
        }
        let categories = index.contents.venueCategorySlots.keys.sorted() + ["no-such-category"]
        #expect(categories.count > 10)
        var compared = 0, paged = 0, measured = 0
        for (n, c) in centres.enumerated() {
            let radius = [1.0, 150, 1_000, 5_000, 20_000, 50_000][n % 6]
            let limit = [1, 10, 11, 100][n % 4]
            let category = n % 3 == 0 ? categories[Int(random.next() % UInt64(categories.count))] : nil
            let request = try NearbyRequest(coordinate: c, radiusMeters: radius, limit: limit, category: category)
            let page = try index.nearbyPage(request), expected = Self.collected(index, request)
            #expect(page.results == expected.results && page.total == expected.total, "at \(c), \(radius) m, \(limit), \(category ?? "-")")
            // Each distance is the great-circle distance to the place's coordinate, as the haversine gives it, to a millimetre.
            for r in page.results {
                let haversine = Geo.haversineMeters(c.latitude, c.longitude, r.place.coordinate.latitude, r.place.coordinate.longitude)
                #expect(abs((r.distanceMeters ?? -1) - haversine) < 0.001, "\(r.place.id) at \(c)")
                measured += 1
            }
            compared += 1
            // The next page, after the last place of this one.
            if let last = page.results.last, page.total > page.results.count {
                var next = request
                next.after = NearbyPosition(last)
                let more = try index.nearbyPage(next), expected = Self.collected(index, next)
                #expect(more.results == expected.results && more.total == expected.total, "after \(last.place.id) at \(c)")
                paged += 1
            }
        }
        #expect(compared == 800 && paged > 200 && measured > 5_000)
    }
}
