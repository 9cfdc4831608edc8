import Foundation
import PindropCore
import PindropTesting
import Testing
@testable import PindropIndex

/// Reverse's town lookup at scale (`TownFinder`) against the whole scan it replaces (`AddressContext.containingTown`).
@Suite("Town lookup")
struct TownFinderTests {
    @Test("the bounded town lookup answers as the scan of every place within 30 km, at places, around them and at sea")
    func sameAsScan() throws {
        let index = try SharedIndex.index
        let finder = TownFinder(places: index.places, spatial: index.spatial)
        var random = SplitMix64(seed: 11)
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        var points = [Coordinate(latitude: 0, longitude: -30), Coordinate(latitude: -45, longitude: -140)]
        for _ in 0..<3_000 {
            let i = Int(random.next() % UInt64(index.placeCount))
            let c = Coordinate(latitude: index.places.latitude[i], longitude: index.places.longitude[i])
            points.append(c)
            points.append(Coordinate(latitude: max(-90, min(90, c.latitude + unit() * 0.8 - 0.4)),
                                     longitude: max(-180, min(180, c.longitude + unit() * 0.8 - 0.4))))
        }
        var found = 0
        for c in points {
            let expected = AddressContext.containingTown(at: c, places: index.places, spatial: index.spatial)
            #expect(finder.containingTown(at: c, places: index.places, spatial: index.spatial) == expected, "at \(c)")
            if expected != nil { found += 1 }
        }
        #expect(found > 3_000 && found < points.count)
    }
}
