import Foundation
import PindropCore

/// Making place tables at import.
extension PlaceTable {
    /// A table of no rows.
    static var empty: PlaceTable {
        PlaceTable(geonameID: [], latitude: [], longitude: [], population: [], country: [], admin1: [],
                   nameStart: [0], nameBytes: [], kind: [], extraStart: [0], extraBytes: [], countries: [], admin1s: [])
    }

    /// The rows `rows` of this table, in that order, as a table of their own (its countries and divisions this one's).
    func rows(_ rows: [Int]) -> PlaceTable {
        var table = PlaceTable.empty
        table.countries = countries; table.admin1s = admin1s
        table.append(self, rows: rows)
        return table
    }

    /// This table's first `count` rows with the rows of `other` after them (the street level's rows and an overlay's).
    func keeping(_ count: Int, appending other: PlaceTable) -> PlaceTable {
        var table = self
        let drop = self.count - count
        if drop > 0 {
            for column in [\PlaceTable.latitude, \.longitude] as [WritableKeyPath<PlaceTable, Column<Double>>] { table[keyPath: column].modify { $0.removeLast(drop) } }
            table.geonameID.modify { $0.removeLast(drop) }; table.population.modify { $0.removeLast(drop) }
            table.country.modify { $0.removeLast(drop) }; table.admin1.modify { $0.removeLast(drop) }; table.kind.modify { $0.removeLast(drop) }
            table.nameBytes.modify { $0.removeLast($0.count - Int(nameStart[count])) }; table.nameStart.modify { $0.removeLast(drop) }
            table.extraBytes.modify { $0.removeLast($0.count - Int(extraStart[count])) }; table.extraStart.modify { $0.removeLast(drop) }
        }
        table.append(other, rows: Array(0..<other.count))
        return table
    }

    /// Appends rows of another table.
    private mutating func append(_ other: PlaceTable, rows: [Int]) {
        for r in rows {
            geonameID.append(other.geonameID[r]); latitude.append(other.latitude[r]); longitude.append(other.longitude[r])
            population.append(other.population[r]); country.append(other.country[r]); admin1.append(other.admin1[r]); kind.append(other.kind[r])
            nameBytes.append(contentsOf: other.nameBytes[Int(other.nameStart[r])..<Int(other.nameStart[r + 1])])
            nameStart.append(UInt32(nameBytes.count))
            extraBytes.append(contentsOf: other.extraBytes[Int(other.extraStart[r])..<Int(other.extraStart[r + 1])])
            extraStart.append(UInt32(extraBytes.count))
        }
    }

    /// Appends an OpenStreetMap row's extras to `bytes`: its fields with a separator between each two.
    static func appendExtras(to bytes: inout [UInt8], _ extras: PlaceExtras) {
        for (n, field) in extras.fields.enumerated() { appendExtra(field, to: &bytes, first: n == 0) }
    }

    /// Appends one field of the extras, after a separator unless `first`; a separator inside the value becomes a space.
    private static func appendExtra(_ value: String?, to bytes: inout [UInt8], first: Bool = false) {
        if !first { bytes.append(PlaceExtras.fieldSeparator) }
        guard var value else { return }
        // Copied whole, into the column itself (a byte at a time was most of making an import's rows).
        value.withUTF8 { utf8 in
            let start = bytes.count
            bytes.append(contentsOf: utf8)
            if utf8.contains(PlaceExtras.fieldSeparator) {
                for i in start..<bytes.count where bytes[i] == PlaceExtras.fieldSeparator { bytes[i] = 0x20 }
            }
        }
    }

    /// The `kind` byte of a GeoNames row named `name`: `sectionLike` when the name has a space before its last byte,
    /// `capital` for a country's capital.
    static func geonamesKind(name: some Collection<UInt8>, capital isCapital: Bool = false) -> UInt8 {
        (name.count > 1 && name.dropLast().contains(0x20) ? RowKind.geonames.rawValue | sectionLike : RowKind.geonames.rawValue)
            | (isCapital ? capital : 0)
    }

    /// The GeoNames rows in `biggestFirst` order, as the import stores them for the map's labels (sorted on the
    /// first zoomed-out view, it cost that view 0.6 s at ×50). Two stable passes of a radix sort, 16 bits of the
    /// population each, from the rows in order: no comparison sort of millions of rows.
    func labelOrder() -> [Int32] {
        // Biggest first: the sort key is the population's bits flipped (its sign bit too, so negatives sort last).
        // Keys move with their rows, so each pass reads both in order.
        var keys = (0..<geonamesCount).map { ~(UInt32(bitPattern: population[$0]) ^ 0x8000_0000) }, rows = Array(0..<Int32(geonamesCount))
        var movedKeys = keys, movedRows = rows
        for shift: UInt32 in [0, 16] {
            var start = [Int](repeating: 0, count: (1 << 16) + 1)
            for key in keys { start[Int((key >> shift) & 0xFFFF) + 1] += 1 }
            for b in 1..<start.count { start[b] += start[b - 1] }
            for (key, row) in zip(keys, rows) {
                let b = Int((key >> shift) & 0xFFFF)
                movedKeys[start[b]] = key; movedRows[start[b]] = row
                start[b] += 1
            }
            swap(&keys, &movedKeys); swap(&rows, &movedRows)
        }
        return rows
    }
}
