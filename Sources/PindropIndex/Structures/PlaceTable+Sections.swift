import Foundation
import PindropCore

/// Whether a GeoNames place is a section of a city ("Zürich (Kreis 3)"), which suggestions fold under the city.
extension PlaceTable {
    /// Whether GeoNames row r can be a section of any city (`isSection`), as the import marked it (`sectionLike`).
    /// Read once for a row that most cities then need not be checked against.
    func couldBeSection(_ r: Int) -> Bool { kind[r] & Self.sectionLike != 0 }

    /// Whether GeoNames row r is a section of row `city`: named after it as sections are ("Zürich (Kreis 3)",
    /// "Dübendorf / Birchlen", "Paris 15 Vaugirard", "Budapest XII. kerület"; not "Miami Beach" or
    /// "Montréal-Est", towns of their own), smaller, and within 30 km.
    func isSection(_ r: Int, of city: Int) -> Bool {
        // Most pairs fail on the population or the first byte; cheap checks first (suggest with `near` asks often).
        guard population[r] < population[city], max(r, city) < alternateStart.count - 1 else { return false }
        let a = Int(nameStart[r]), b = Int(nameStart[city])
        let nameEnd = Int(nameStart[r + 1]), stemCount = Int(nameStart[city + 1]) - b
        guard nameEnd - a > stemCount + 1 else { return false }
        let startsWithStem = nameBytes.withUnsafeBufferPointer { bytes in
            bytes[a + stemCount] == 0x20 && memcmp(bytes.baseAddress! + a, bytes.baseAddress! + b, stemCount) == 0
        }
        guard startsWithStem else { return false }
        let name = nameBytes[a..<nameEnd]
        let rest = name.dropFirst(stemCount).drop { $0 == 0x20 }
        let numeral = rest.prefix { "IVXLC".utf8.contains($0) }
        let word = String(decoding: rest.prefix { $0 != 0x20 && $0 != 0x2D }, as: UTF8.self).lowercased()
        let named = rest.first.map { "(/0123456789".utf8.contains($0) } == true           // "(Kreis 3)", "/ Birchlen", "15"
            || ((rest.starts(with: "- ".utf8) || rest.starts(with: "– ".utf8)))           // "Podstrana - Miljevac"
            || (!numeral.isEmpty && rest.dropFirst(numeral.count).first == 0x2E)          // "XII. kerület"
            || Self.quarterWords.contains(word)                                            // "Ballarat North"
        return named && Geo.haversineMeters(latitude[r], longitude[r], latitude[city], longitude[city]) < 30_000
    }

    /// Words that name a quarter of a town after its name ("Bundaberg North", "Stuttgart Mitte").
    static let quarterWords: Set<String> = ["north", "south", "east", "west", "central", "centre", "center", "mitte",
                                            "nord", "süd", "ost", "zentrum", "sud", "centro", "norte"]

    /// The order of the map's labels: biggest population first, then the lower row (a stable order).
    func biggestFirst(_ a: Int32, _ b: Int32) -> Bool {
        let pa = population[Int(a)], pb = population[Int(b)]
        return pa != pb ? pa > pb : a < b
    }
}
