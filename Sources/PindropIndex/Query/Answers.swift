import PindropCore

/// Rows made into answers: a place with its boundary's box when it is (or is the town of) an area, a GeoNames place
/// inside areas with the address they give it, and a search's found candidates as results with the alternate name
/// they matched as written and, when asked, why they ranked there.
struct Answers {
    let contents: IndexContents
    let explainer: MatchExplainer

    init(contents: IndexContents) {
        self.contents = contents
        explainer = MatchExplainer(contents: contents)
    }

    /// A row as an answer: with its boundary's box when it is (or is the town of) an area, and a GeoNames place
    /// inside areas with the address they give it (town, county, state, country).
    func place(_ row: Int) -> Place {
        let area = contents.area(ofRow: row)
        let box = area.map { contents.street.areas.areas[$0].box }
        if var held = heldAddress(ofRow: row) {
            var place = contents.places.place(row)
            place.boundingBox = box
            if let area { link(&place, &held, toBoundary: contents.street.areas.areas[area]) }
            place.address = held
            return place
        }
        // Most answers take nothing from the areas: returned as made, not copied to be changed.
        guard let box else { return contents.places.place(row) }
        var place = contents.places.place(row)
        place.boundingBox = box
        return place
    }

    /// A GeoNames town answered as one place with its boundary (`Place.boundaryID`): the boundary's id, admin level
    /// and postcode, and its place node's type ("town") as the town's kind.
    private func link(_ place: inout Place, _ address: inout Address, toBoundary area: AreaIndex.Area) {
        place.boundaryID = area.id
        var tags = place.tags ?? [:]
        if area.adminLevel > 0 { tags["admin_level"] = String(area.adminLevel) }
        if let type = area.placeType {
            tags["linked_place"] = type
            address.townKind = type
        }
        place.tags = tags.isEmpty ? nil : tags
        if address.postcode == nil { address.postcode = area.postcode }
    }

    /// The address the areas give a GeoNames place inside them (town, county, state, country); nil outside them.
    private func heldAddress(ofRow row: Int) -> Address? {
        guard row < contents.firstStreetLevelRow, let areaExtent = contents.areaExtent else { return nil }
        let c = contents.coordinate(row)
        // Most places lie outside every area: told from one box, without a call into the areas.
        guard areaExtent.contains(c) else { return nil }
        let chain = contents.street.areas.containing(c)
        guard !chain.isEmpty else { return nil }
        let held = contents.street.areas.address(of: chain)
        return held.isEmpty ? nil : held
    }

    /// The places found, each with the alternate name it matched as written (`typed` is the text asked), and with
    /// `explain` why it ranked there (`key` is the folded text the candidates were found for, in `mode`).
    func results(_ found: [Candidate], near: Coordinate?, typed: String, key: [UInt8], mode: Candidate.Mode, explain: Bool) -> [PlaceResult] {
        // Only a match through an alternate name (or an explanation) needs the typed text, trimmed.
        lazy var asTyped = String(typed[..<(typed.utf8.firstIndex(of: UInt8(ascii: ",")) ?? typed.endIndex)]).trimmingWhitespace()
        contents.places.prefetchPlaces(found.lazy.map(\.row))
        for c in found where contents.names.kind(c.entry) == NameIndex.Kind.alternate.rawValue { contents.places.alternateStart.prefetch(c.row) }
        // Each result made where the array keeps it: a result is a large value, and moving it through `map` copied it.
        return [PlaceResult](unsafeUninitializedCapacity: found.count) { buffer, count in
            for c in found {
                var matchedName: String?
                if contents.names.kind(c.entry) == NameIndex.Kind.alternate.rawValue {
                    matchedName = contents.places.alternate(c.row, at: contents.names.alternateAt(c.entry), foldedAs: contents.names.key(c.entry),
                                                            typed: asTyped)
                }
                let distanceMeters = near.map { contents.distance(c.row, $0) }
                (buffer.baseAddress! + count).initialize(to: PlaceResult(
                    place: place(c.row), distanceMeters: distanceMeters, matchedName: matchedName,
                    explanation: explain ? explainer.explanation(c, key: key, mode: mode, typed: asTyped, distanceMeters: distanceMeters) : nil))
                count += 1
            }
        }
    }
}
