import PindropCore

/// Rows in PostgreSQL's COPY text format, built up as bytes: fields separated by tabs, rows ended by newlines,
/// `\N` for NULL, and backslash escapes for the bytes that would break them. Numbers are written in Swift's
/// shortest exact form, which PostgreSQL reads back to the same double.
struct CopyRows {
    /// The encoded rows so far.
    var bytes: [UInt8] = []
    private var atRowStart = true

    /// Makes an empty buffer with room for `capacity` bytes.
    init(capacity: Int = 1 << 18) { bytes.reserveCapacity(capacity) }

    /// Ends the current row.
    mutating func endRow() {
        bytes.append(0x0A)
        atRowStart = true
    }

    mutating func text(_ value: String?) {
        separate()
        guard let value else { return null() }
        escape(value.utf8)
    }

    mutating func integer(_ value: Int) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func double(_ value: Double) {
        separate()
        bytes.append(contentsOf: value.description.utf8)
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(value ? 0x74 : 0x66)   // t, f
    }

    /// A `text[]` field: an array literal (each element quoted) written as one escaped field.
    mutating func textArray(_ values: [String]) {
        separate()
        var literal: [UInt8] = [0x7B]   // {
        for (i, value) in values.enumerated() {
            if i > 0 { literal.append(0x2C) }
            literal.append(0x22)
            for byte in value.utf8 {
                if byte == 0x22 || byte == 0x5C { literal.append(0x5C) }
                literal.append(byte)
            }
            literal.append(0x22)
        }
        literal.append(0x7D)
        escape(literal)
    }

    /// A geometry as hex EWKB, which PostGIS reads exactly.
    mutating func geometry(_ ewkb: [UInt8]) {
        separate()
        let digits = Array("0123456789ABCDEF".utf8)
        for byte in ewkb {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0x0F)])
        }
    }

    private mutating func null() { bytes.append(contentsOf: [0x5C, 0x4E]) }   // \N

    private mutating func separate() {
        if !atRowStart { bytes.append(0x09) }
        atRowStart = false
    }

    /// Copies text, escaping the backslash, tab, newline and carriage return; a NUL (which text cannot hold in
    /// PostgreSQL) is dropped.
    private mutating func escape<Bytes: Sequence>(_ text: Bytes) where Bytes.Element == UInt8 {
        for byte in text {
            switch byte {
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x00: continue
            default: bytes.append(byte)
            }
        }
    }
}

/// Well-known binary for the lines the street level stores (OGC WKB, little-endian, x = longitude), written
/// with SRID 4326 (EWKB) and read back as `ST_AsBinary` gives it. Exact both ways, unlike text.
enum WKB {
    static let lineStringType: UInt32 = 2, multiLineStringType: UInt32 = 5, sridFlag: UInt32 = 0x2000_0000

    /// A LINESTRING in EWKB with SRID 4326.
    static func lineString(_ points: [Coordinate]) -> [UInt8] {
        var out: [UInt8] = []
        header(lineStringType | sridFlag, srid: true, into: &out)
        appendPoints(points, into: &out)
        return out
    }

    /// A MULTILINESTRING in EWKB with SRID 4326, one line per ring.
    static func multiLineString(_ lines: [[Coordinate]]) -> [UInt8] {
        var out: [UInt8] = []
        header(multiLineStringType | sridFlag, srid: true, into: &out)
        append(UInt32(lines.count), to: &out)
        for line in lines {
            header(lineStringType, srid: false, into: &out)
            appendPoints(line, into: &out)
        }
        return out
    }

    /// The lines of a LINESTRING (one) or MULTILINESTRING (each), from plain or extended WKB.
    static func lines(_ wkb: [UInt8]) throws(PindropError) -> [[Coordinate]] {
        var reader = Reader(bytes: wkb)
        let type = try reader.header()
        switch type {
        case lineStringType: return [try reader.points()]
        case multiLineStringType:
            let count = Int(try reader.uint32())
            var lines: [[Coordinate]] = []
            lines.reserveCapacity(min(count, 1 << 16))
            for _ in 0..<count {
                guard try reader.header() == lineStringType else { throw bad("a part that is not a line") }
                lines.append(try reader.points())
            }
            return lines
        default: throw bad("geometry type \(type)")
        }
    }

    private static func header(_ type: UInt32, srid: Bool, into out: inout [UInt8]) {
        out.append(1)   // little-endian
        append(type, to: &out)
        if srid { append(UInt32(4326), to: &out) }
    }

    private static func appendPoints(_ points: [Coordinate], into out: inout [UInt8]) {
        append(UInt32(points.count), to: &out)
        for p in points {
            append(p.longitude.bitPattern, to: &out)
            append(p.latitude.bitPattern, to: &out)
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
    }

    static func bad(_ what: String) -> PindropError { .internalFailure("the database holds a geometry Pindrop cannot read (\(what))") }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        var littleEndian = true

        mutating func header() throws(PindropError) -> UInt32 {
            guard offset < bytes.count else { throw WKB.bad("truncated") }
            littleEndian = bytes[offset] == 1
            offset += 1
            let type = try uint32()
            if type & WKB.sridFlag != 0 { _ = try uint32() }
            return type & 0x0FFF_FFFF
        }

        mutating func uint32() throws(PindropError) -> UInt32 { UInt32(truncatingIfNeeded: try integer(4)) }

        mutating func points() throws(PindropError) -> [Coordinate] {
            let count = Int(try uint32())
            guard count <= (bytes.count - offset) / 16 else { throw WKB.bad("truncated") }
            var points: [Coordinate] = []
            points.reserveCapacity(count)
            for _ in 0..<count {
                let x = Double(bitPattern: try integer(8)), y = Double(bitPattern: try integer(8))
                points.append(Coordinate(latitude: y, longitude: x))
            }
            return points
        }

        private mutating func integer(_ size: Int) throws(PindropError) -> UInt64 {
            guard offset + size <= bytes.count else { throw WKB.bad("truncated") }
            var value: UInt64 = 0
            for i in 0..<size {
                let byte = UInt64(bytes[offset + (littleEndian ? i : size - 1 - i)])
                value |= byte << (8 * UInt64(i))
            }
            offset += size
            return value
        }
    }
}
