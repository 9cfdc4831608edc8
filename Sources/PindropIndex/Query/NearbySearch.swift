import PindropCore

/// Venues and places within a radius, nearest first, and how many the radius holds in all.
struct NearbySearch {
    let contents: IndexContents

    /// Venues and places within a radius, nearest first (ties by id); with a category, only venues of that
    /// category ("cafe", or a key such as "shop"). `request.limit` of them after `request.after`, and the total.
    func page(_ request: NearbyRequest) -> NearbyPage {
        // Neither the page nor the total visits every place in the radius: the page is the nearest first, the
        // total counts whole the subtrees well inside the circle and opens those across it. A category has a tree
        // of its own.
        let c = request.coordinate, radius = request.radiusMeters
        let chord = Geo.unitChord(forMeters: radius) * (1 + 1e-9), sure = Geo.unitChord(forMeters: radius) * (1 - 1e-6)
        let firstVenue = contents.street.venueRows.lowerBound
        // The best rows so far, reached by the walk's closures through a pointer: a variable they captured would be
        // checked for exclusivity at run time on every node the walk reads.
        var nearest = NearestRows(contents: contents, limit: request.limit, after: request.after, radius: radius)
        var total = 0
        withUnsafeMutablePointer(to: &nearest) { nearest in
            // Every place within `sure` counts: only subtrees across the edge, or near the point, are opened.
            if let category = request.category {
                total = contents.street.venuesByCategory.count(latitude: c.latitude, longitude: c.longitude, chord: chord, sure: sure,
                                                               slots: contents.venueCategorySlots[category] ?? 0..<0,
                                                               needed: { nearest.pointee.needed }) { place, chord2 in
                    nearest.pointee.visit(firstVenue + Int(place), chord2)
                }
            } else {
                let trees = request.venuesOnly ? [(contents.street.venues, firstVenue)] : [(contents.street.venues, firstVenue), (contents.spatial, 0)]
                for (tree, first) in trees {
                    total += tree.count(latitude: c.latitude, longitude: c.longitude, chord: chord, sure: sure,
                                        needed: { nearest.pointee.needed }) { place, chord2 in
                        // Not a venue: counted with the rest (a subtree inside the circle is counted unopened), left
                        // out of the page, and taken off the total below.
                        if request.venuesOnly, let category = contents.places.category(first + Int(place)),
                           NearbyRequest.notVenues.contains(category) {
                            return Geo.meters(forUnitChord: chord2.squareRoot()) <= radius
                        }
                        return nearest.pointee.visit(first + Int(place), chord2)
                    }
                }
            }
        }
        if request.venuesOnly, request.category == nil {
            for category in NearbyRequest.notVenues {
                guard let slots = contents.venueCategorySlots[category] else { continue }
                total -= contents.street.venuesByCategory.count(latitude: c.latitude, longitude: c.longitude, chord: chord, sure: sure,
                                                                slots: slots, needed: { -1 }) { _, chord2 in
                    Geo.meters(forUnitChord: chord2.squareRoot()) <= radius
                }
            }
        }
        let best = nearest.best
        contents.places.prefetchPlaces(best.lazy.map(\.0))
        let page = best.map { PlaceResult(place: contents.places.place($0.0), distanceMeters: $0.1) }
        return NearbyPage(results: page, total: total)
    }
}

/// `NearbySearch.page`'s best `limit` rows after `after` so far, in order, each with its distance; once there are
/// `limit`, no row past the last one's distance can join (`needed`: that distance as a squared chord, with a margin for
/// the rounding between a chord and its arc).
struct NearestRows {
    let contents: IndexContents, limit: Int, after: NearbyPosition?, radius: Double
    var best: [(Int, Double)] = [], needed = Double.infinity

    init(contents: IndexContents, limit: Int, after: NearbyPosition?, radius: Double) {
        (self.contents, self.limit, self.after, self.radius) = (contents, limit, after, radius)
        best.reserveCapacity(limit + 1)
    }

    /// A row's id is built only for ties of distance, which are rare.
    func position(_ row: (Int, Double)) -> NearbyPosition { NearbyPosition(distanceMeters: row.1, id: contents.places.id(row.0)) }
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
