import Foundation
import Testing
import PindropImport

struct TmpDigestTests {
    @Test func digest() throws {
        for (name, path) in [("helsinki", "/work/shared/data/osm/helsinki-center.osm.pbf"), ("liechtenstein", "/work/shared/data/osm/liechtenstein.osm.pbf")] {
            let f = try OSMFeatureExtractor.extract(fromFileAt: path)
            var text = ""
            for p in f.addressPoints { text += "A \(p)\n" }
            for p in f.streets { text += "S \(p)\n" }
            for p in f.venues { text += "V \(p)\n" }
            for p in f.buildings { text += "B \(p)\n" }
            try text.write(toFile: (ProcessInfo.processInfo.environment["DIGEST_DIR"] ?? "/tmp/osmref") + "/\(name).txt", atomically: true, encoding: .utf8)
        }
    }
}
