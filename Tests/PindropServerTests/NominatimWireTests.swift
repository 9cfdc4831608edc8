import Foundation
import PindropCore
import PindropTesting
import Testing
@testable import PindropServer

@Suite("Nominatim's wire: coordinates as its strings")
struct NominatimWireTests {
    @Test("a coordinate is written with 7 decimals, as printf's %.7f writes it away from exact halves, and zero without a sign")
    func degrees() {
        /// The digits as whole and fraction strings joined, the former way of writing them.
        func joined(_ value: Double) -> String {
            let scaled = Int64((abs(value) * 1e7).rounded())
            let fraction = String(scaled % 10_000_000)
            return (value < 0 && scaled != 0 ? "-" : "") + String(scaled / 10_000_000) + "."
                + String(repeating: "0", count: 7 - fraction.count) + fraction
        }
        let edges: [Double] = [0, -0.0, 1e-8, -1e-8, 0.00000005, -0.00000005, 90, -90, 180, -180, 179.99999995, -179.99999995,
                               1e-7, -1e-7, 9.9999999, -9.99999996]
        for value in edges { #expect(NominatimWire.degrees(value) == joined(value), "\(value)") }
        #expect(NominatimWire.degrees(-1e-8) == "0.0000000" && NominatimWire.degrees(-33.86785) == "-33.8678500")
        // Seeded: the same values every run, so a run does not pass or fail by the draw.
        var random = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let value = random.unit() * 360 - 180
            #expect(NominatimWire.degrees(value) == String(format: "%.7f", value), "\(value)")
        }
    }

    @Test("degrees written into a document are the same strings, each a JSON string with a comma before it where one is due")
    func degreesInDocument() throws {
        let values = [60.16952, -33.86785, 0, -1e-8, 179.99999995, -180]
        var w = JSONWriter()
        w.beginObject()
        w.key("box"); w.beginArray()
        for value in values { NominatimWire.writeDegrees(value, into: &w) }
        w.endArray()
        w.key("lat"); NominatimWire.writeDegrees(values[0], into: &w)
        w.endObject()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(w.bytes)) as? [String: Any])
        #expect(document["box"] as? [String] == values.map(NominatimWire.degrees))
        #expect(document["lat"] as? String == "60.1695200")
    }
}
