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
        let finder = TownFinder(spatial: index.contents.spatial)
        var random = SplitMix64(seed: 11)
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        var points = [Coordinate(latitude: 0, longitude: -30), Coordinate(latitude: -45, longitude: -140)]
        for _ in 0..<3_000 {
            let i = Int(random.next() % UInt64(index.placeCount))
            let c = Coordinate(latitude: index.contents.places.latitude[i], longitude: index.contents.places.longitude[i])
            points.append(c)
            points.append(Coordinate(latitude: max(-90, min(90, c.latitude + unit() * 0.8 - 0.4)),
                                     longitude: max(-180, min(180, c.longitude + unit() * 0.8 - 0.4))))
        }
        var found = 0
        for c in points {
            let expected = AddressContext.containingTown(at: c, places: index.contents.places, spatial: index.contents.spatial)
            #expect(finder.containingTown(at: c, spatial: index.contents.spatial) == expected, "at \(c)")
            if expected != nil { found += 1 }
        }
        #expect(found > 3_000 && found < points.count)
    }

    @Test("each place's stored town, which reverse names, is the lookup's answer at the place's point")
    func storedTownOfEachPlace() throws {
        let index = try SharedIndex.index
        let finder = index.contents.townFinder
        var random = SplitMix64(seed: 26)
        var covered = 0
        for _ in 0..<3_000 {
            let i = random.below(index.contents.places.geonamesCount)
            let c = Coordinate(latitude: index.contents.places.latitude[i], longitude: index.contents.places.longitude[i])
            let expected = AddressContext.containingTown(at: c, places: index.contents.places, spatial: index.contents.spatial)
            #expect(finder.town(ofPlace: i, at: c, spatial: index.contents.spatial) == expected, "place \(index.contents.places.name(i))")
            if finder.townOfPlace[i] >= 0 { covered += 1 }
            if let expected, expected != i { #expect(index.contents.places.population[expected] >= index.contents.places.population[i]) }
        }
        // Every place's own reach covers it: none needs the lookup at query time.
        #expect(covered == 3_000)
        // Kamppi lies in Helsinki.
        let kamppi = try #require((0..<index.contents.places.geonamesCount).first { index.contents.places.name($0) == "Kamppi" })
        #expect(finder.townOfPlace[kamppi] >= 0 && index.contents.places.name(Int(finder.townOfPlace[kamppi])) == "Helsinki")
    }

    @Test("its reach tests without a sine or an arcsine decide as the trigonometry does, on either side of the bound")
    func reachTestsAsTrigonometry() {
        var random = SplitMix64(seed: 5)
        let farthest = Geo.unitChord(forMeters: AddressContext.townNameReach) * (1 + 1e-9)
        for _ in 0..<20_000 {
            // Reaches of a village to past the 30 km cap, and distances a hair either side of each, and far off.
            let meters = AddressContext.reach(population: Int32(random.below(20_000_000)))
            let exactChord = min(farthest, Geo.unitChord(forMeters: meters) * (1 + 1e-9))
            for d2 in [exactChord * exactChord, (exactChord * exactChord).nextUp, (exactChord * exactChord).nextDown,
                       exactChord * exactChord * (1 + 1e-9 * (random.unit() - 0.5)), exactChord * exactChord * 4 * random.unit()] {
                #expect(TownFinder.chord2(d2, within: meters) == (d2 <= exactChord * exactChord), "\(d2) within \(meters) m")
                let chord = min(d2.squareRoot(), farthest)
                #expect(TownFinder.chord(chord, reaches: meters) == (Geo.meters(forUnitChord: chord) <= meters), "\(chord) reaching \(meters) m")
            }
            // A chord whose arc is the reach itself, give or take the last bits.
            let onEdge = Geo.unitChord(forMeters: meters)
            for chord in [onEdge, onEdge.nextUp, onEdge.nextDown] where chord <= farthest {
                #expect(TownFinder.chord(chord, reaches: meters) == (Geo.meters(forUnitChord: chord) <= meters), "\(chord) reaching \(meters) m")
            }
        }
    }

    @Test("at fifty times the density, with every population repeated by its copies, it still answers as the scan")
    func sameAsScanWhenDense() throws {
        let index = try SharedIndex.index
        var random = SplitMix64(seed: 50)
        func unit() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        // Swiss places and 49 copies of each within ~20 km, with the same population (as the scale inputs are).
        var latitudes: [Double] = [], longitudes: [Double] = [], populations: [Int32] = []
        for i in 0..<index.placeCount where (46...48).contains(index.contents.places.latitude[i]) && (6...10).contains(index.contents.places.longitude[i]) {
            for copy in 0..<50 {
                latitudes.append(index.contents.places.latitude[i] + (copy == 0 ? 0 : unit() * 0.36 - 0.18))
                longitudes.append(index.contents.places.longitude[i] + (copy == 0 ? 0 : unit() * 0.5 - 0.25))
                populations.append(index.contents.places.population[i])
            }
        }
        let n = latitudes.count
        let places = PlaceTable(
            geonameID: Column((0..<Int32(n)).map { $0 }), latitude: Column(latitudes), longitude: Column(longitudes),
            population: Column(populations), country: Column(repeatElement(PlaceTable.noCountry, count: n)),
            admin1: Column(repeatElement(0, count: n)), nameStart: Column(repeatElement(0, count: n + 1)), nameBytes: [],
            kind: Column(repeatElement(0, count: n)), extraStart: Column(repeatElement(0, count: n + 1)), extraBytes: [],
            countries: [], admin1s: [])
        let spatial = SpatialIndex(latitudes: latitudes, longitudes: longitudes, weight: { populations[Int($0)] })
        let finder = TownFinder(spatial: spatial), stored = TownFinder.townsOfPlaces(spatial: spatial)
        #expect(n > 50_000)
        // Each place's stored town, made in one walk for all of them, is the lookup's at its point: every third place.
        let differing = stride(from: 0, to: n, by: 3).filter { Int(stored[$0]) != finder.containingTown(at: Coordinate(latitude: latitudes[$0], longitude: longitudes[$0]), spatial: spatial) }
        #expect(differing.isEmpty, "\(differing.count) of \(n / 3) places")
        #expect(Set(stored).count > 1_000)
        for _ in 0..<1_000 {
            let i = Int(random.next() % UInt64(n))
            // And the scan's.
            #expect(Int(stored[i]) == AddressContext.containingTown(at: Coordinate(latitude: latitudes[i], longitude: longitudes[i]),
                                                                    places: places, spatial: spatial))
            for c in [Coordinate(latitude: latitudes[i], longitude: longitudes[i]),
                      Coordinate(latitude: latitudes[i] + unit() * 0.2 - 0.1, longitude: longitudes[i] + unit() * 0.2 - 0.1)] {
                #expect(finder.containingTown(at: c, spatial: spatial)
                        == AddressContext.containingTown(at: c, places: places, spatial: spatial), "at \(c)")
            }
        }
    }
}
