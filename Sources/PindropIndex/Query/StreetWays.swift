import Foundation
import PindropCore

/// A street answer as the OpenStreetMap ways it is made of, one answer each, as Nominatim answers with deduplication
/// off (`dedupe=0`): the index keeps one row per street name and town, the ways of that street in that town being
/// the lines of the row.
struct StreetWays {
    let contents: IndexContents

    /// How far from a street's label point its ways are looked for, metres (a street in one town is shorter).
    static let reach = 10_000.0

    /// The answers with each street among them replaced by its ways (each once), in the order they are stored, at most
    /// `limit`.
    func expanded(_ results: [PlaceResult], limit: Int) -> [PlaceResult] {
        var out: [PlaceResult] = [], seen: Set<String> = []
        for result in results where out.count < limit {
            let ways = result.place.kind == .street ? ways(of: result.place) : []
            // A way through two towns is in both towns' streets: answered once.
            for way in ways where seen.insert(way.id).inserted {
                var one = result
                one.place = way
                out.append(one)
            }
            if ways.isEmpty { out.append(result) }
        }
        return Array(out.prefix(limit))
    }

    /// The ways of a street answer: named as it is, running along its row's lines; each at its middle point, with its
    /// own box and id.
    func ways(of street: Place) -> [Place] {
        let level = contents.street
        guard let row = level.nearestStreet(to: street.coordinate, within: 1)?.row else { return [] }
        let c = street.coordinate, degrees = Self.reach / 111_320
        let across = degrees / max(cos(c.latitude * .pi / 180), 0.01)
        let box = BoundingBox(south: c.latitude - degrees, west: c.longitude - across, north: c.latitude + degrees, east: c.longitude + across)
        return level.mapStreets(named: TextFolding.fold(street.name), in: box).compactMap { way in
            let points = way.lines.joined()
            // A way cut by a town boundary lies in the rows of each town it runs through; two points, not one, so a
            // junction with another way of the name is no part of it.
            let own = points.filter { level.nearestStreet(to: $0, within: 1)?.row == row }.count
            guard own >= min(2, points.count), let line = way.lines.first, !line.isEmpty else { return nil }
            var place = street
            place.id = way.id
            place.coordinate = line[line.count / 2]
            place.boundingBox = BoundingBox(covering: points)
            return place
        }
    }
}
