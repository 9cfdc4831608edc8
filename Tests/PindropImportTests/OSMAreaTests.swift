import Foundation
import PindropCore
import PindropImport
import PindropTesting
import Testing

@Suite("OSM areas: boundaries assembled into polygons")
struct OSMAreaTests {
    static let liechtenstein = Result { try OSMFeatureExtractor.extract(fromFileAt: ConformanceData.liechtensteinExtract) }

    @Test("Liechtenstein: exactly the named areas pyosmium assembles are kept, and every one it cannot is reported")
    func sameAreasAsPyosmium() throws {
        let features = try Self.liechtenstein.get()
        let rows = try ConformanceData.areaFixture("liechtenstein/areas.tsv")
        func id(_ row: [String]) -> String { "osm:\(row[0] == "r" ? "relation" : "way")/\(row[1])" }
        let assembled = Set(rows.filter { $0[7] == "assembled" }.map(id))
        let broken = Set(rows.filter { $0[7].hasPrefix("not-assembled") }.map(id))
        #expect(assembled.count == 18 && broken.count == 36)
        let kept = Set(features.areas.map(\.id))
        #expect(kept == assembled, "kept, not assembled: \(kept.subtracting(assembled)); assembled, not kept: \(assembled.subtracting(kept))")
        let reported = Set(features.skippedAreas.map { String($0.prefix { $0 != " " }) })
        #expect(reported == broken, "reported, not broken: \(features.skippedAreas.filter { !broken.contains(String($0.prefix { $0 != " " })) }); broken, not reported: \(broken.subtracting(reported))")
        #expect(features.skippedAreas.contains { $0.hasPrefix("osm:relation/51701 (Schweiz/Suisse/Svizzera/Svizra): 619 of 640 member ways") })
    }

    @Test("the 11 municipalities are cities, the two Landschaften counties, Liechtenstein a country; exclaves kept")
    func levels() throws {
        let areas = try Self.liechtenstein.get().areas
        let municipalities = areas.filter { $0.level == .city && $0.id.hasPrefix("osm:relation/11559") }
        #expect(Set(municipalities.map(\.name)) == ["Balzers", "Eschen", "Gamprin", "Mauren", "Planken", "Ruggell", "Schaan",
                                                     "Schellenberg", "Triesen", "Triesenberg", "Vaduz"])
        #expect(Set(areas.filter { $0.level == .county }.map(\.name)).isSuperset(of: ["Oberland", "Unterland"]))
        #expect(areas.first { $0.name == "Liechtenstein" }?.level == .country)
        // Balzers: its main part and two exclaves in the mountains (three outer rings, no holes).
        #expect(municipalities.first { $0.name == "Balzers" }?.rings.count == 3)
        #expect(areas.allSatisfy { $0.rings.allSatisfy { $0.count >= 4 && $0.first == $0.last } })
    }

    @Test("Helsinki's extract cuts every boundary: none is kept, all are reported")
    func helsinkiBoundariesCut() throws {
        let features = try OSMTestData.helsinkiFeatures()
        #expect(features.areas.isEmpty)
        let rows = try ConformanceData.areaFixture("helsinki/areas.tsv")
        #expect(features.skippedAreas.count == rows.count)
        #expect(features.skippedAreas.contains { $0.hasPrefix("osm:relation/34914 (Helsinki): 56 of 56 member ways are not in the file") })
    }
}
