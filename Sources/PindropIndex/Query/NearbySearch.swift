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
        // The stored level, and the rows an update laid over it. A stored row the overlay masks is counted as the tree
        // counts it (a subtree inside the circle unopened), left out of the page, and taken off the total below.
        let masked = contents.street.maskedRows
        // The best rows so far, reached by the walk's closures through a pointer: a variable they captured would be
        // checked for exclusivity at run time on every node the walk reads.
        var nearest = NearestRows(contents: contents, limit: request.limit, after: request.after, radius: radius)
        var total = 0
        withUnsafeMutablePointer(to: &nearest) { nearest in
            func within(_ chord2: Double) -> Bool { Geo.meters(forUnitChord: chord2.squareRoot()) <= radius }
            // A level and its categories' slots, lent: a copy would retain each of its columns.
            func count(_ level: StreetLevel, _ slots: [String: Range<Int>]) {
                let firstVenue = level.venueRows.lowerBound
                // Every place within `sure` counts: only subtrees across the edge, or near the point, are opened.
                if let category = request.category {
                    total += level.venuesByCategory.count(latitude: c.latitude, longitude: c.longitude, chord: chord, sure: sure,
                                                          slots: slots[category] ?? 0..<0, needed: { nearest.pointee.needed }) { place, chord2 in
                        let row = firstVenue + Int(place)
                        return masked.contains(row) ? within(chord2) : nearest.pointee.visit(row, chord2)
                    }
                    return
                }
                total += level.venues.count(latitude: c.latitude, longitude: c.longitude, chord: chord, sure: sure,
                                            needed: { nearest.pointee.needed }) { place, chord2 in
                    let row = firstVenue + Int(place)
                    // Not a venue: counted with the rest, left out of the page, and taken off the total below.
                    if masked.contains(row) || request.venuesOnly && contents.places.category(row).map(NearbyRequest.notVenues.contains) == true {
                        return within(chord2)
                    }
                    return nearest.pointee.visit(row, chord2)
                }
                if request.venuesOnly {
                    for category in NearbyRequest.notVenues {
                        guard let slots = slots[category] else { continue }
                        total -= level.venuesByCategory.count(latitude: c.latitude, longitude: c.longitude, chord: chord, sure: sure,
                                                              slots: slots, needed: { -1 }) { _, chord2 in within(chord2) }
                    }
                }
            }
            count(contents.street.stored, contents.venueCategorySlots)
            if let overlay = contents.street.overlay { count(overlay.level, contents.overlayCategorySlots) }
            if !request.venuesOnly, request.category == nil {
                total += contents.spatial.count(latitude: c.latitude, longitude: c.longitude, chord: chord, sure: sure,
                                                needed: { nearest.pointee.needed }) { place, chord2 in nearest.pointee.visit(Int(place), chord2) }
            }
        }
        total -= maskedCounted(request, masked)
        let best = nearest.best
        contents.places.prefetchPlaces(best.lazy.map(\.0))
        let page = best.map { PlaceResult(place: contents.places.place($0.0), distanceMeters: $0.1) }
        return NearbyPage(results: page, total: total)
    }
}

extension NearbySearch {
    /// How many of the stored rows `masked` holds the stored trees counted for `request`: those within the radius, of
    /// the category asked (a venue's, with `venuesOnly`; those not venues were taken off with their category).
    private func maskedCounted(_ request: NearbyRequest, _ masked: RowMask) -> Int {
        masked.members.count { row in
            guard contents.street.stored.venueRows.contains(row), contents.distance(row, request.coordinate) <= request.radiusMeters else { return false }
            let category = contents.places.category(row)
            if let asked = request.category { return category == asked }
            return !request.venuesOnly || category.map(NearbyRequest.notVenues.contains) != true
        }
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
