import PindropCore

/// The house numbers an `addr:interpolation` line stands for, each at its share of the way between the two numbered
/// nodes around it, as Nominatim places them: 3, 5 and 7 between 1 and 9 on an odd line, "12b" between "12a" and "12c"
/// on an alphabetic one. The numbered nodes themselves are real addresses and are not repeated.
enum InterpolatedAddresses {
    /// The most numbers one stretch between two nodes may hold: a line tagged from 1 to 1,000,000 is a mistake, and
    /// is skipped rather than made a million rows.
    static let maxNumbersPerStretch = 1_000

    /// One interpolated address: its point, with the line it comes from as its id and the line's scheme.
    struct Point {
        var address: OSMAddressPoint
        var scheme: String
    }

    /// Every interpolated address of the lines.
    static func points(_ lines: [OSMInterpolation]) -> [Point] {
        lines.flatMap { line in
            zip(line.stops, line.stops.dropFirst()).flatMap { first, second in stretch(line, first, second) }
        }
    }

    /// The addresses between two numbered nodes of a line.
    private static func stretch(_ line: OSMInterpolation, _ first: (point: Int, address: Address),
                                _ second: (point: Int, address: Address)) -> [Point] {
        guard first.point < second.point, second.point < line.points.count,
              let low = first.address.houseNumber?.trimmingWhitespace(), let high = second.address.houseNumber?.trimmingWhitespace(),
              let numbers = numbers(between: low, and: high, scheme: line.scheme), !numbers.isEmpty else { return [] }
        let piece = Array(line.points[first.point...second.point])
        var address = first.address
        address.street = address.street ?? second.address.street
        address.place = address.place ?? second.address.place
        address.postcode = address.postcode ?? second.address.postcode
        guard address.street != nil || address.place != nil else { return [] }
        return numbers.map { number, share in
            var numbered = address
            numbered.houseNumber = number
            return Point(address: OSMAddressPoint(id: line.id, coordinate: point(along: piece, at: share), address: numbered),
                         scheme: line.scheme.tagValue)
        }
    }

    /// The numbers strictly between two, each with its share of the way from the first (0 … 1); nil when the two do
    /// not make a stretch of this scheme (not numbers, too far apart, letters on a numeric line).
    static func numbers(between low: String, and high: String, scheme: OSMInterpolation.Scheme) -> [(String, Double)]? {
        if case .alphabetic = scheme { return letters(between: low, and: high) }
        guard let a = Int(low), let b = Int(high), a != b, abs(b - a) <= maxNumbersPerStretch else { return nil }
        let step: Int
        switch scheme {
        case .odd, .even: step = 2
        case .all: step = 1
        case .step(let n): step = max(n, 1)
        case .alphabetic: return nil
        }
        let direction = b > a ? 1 : -1
        var result: [(String, Double)] = []
        var n = a + direction
        while n != b {
            let kept = switch scheme {
            case .odd: abs(n) % 2 == 1
            case .even: n % 2 == 0
            default: abs(n - a) % step == 0
            }
            if kept { result.append((String(n), Double(n - a) / Double(b - a))) }
            n += direction
        }
        return result
    }

    /// "12b" between "12a" and "12c": the same number, the letters between.
    private static func letters(between low: String, and high: String) -> [(String, Double)]? {
        guard let l = low.last, let h = high.last, l.isLetter, h.isLetter, low.dropLast() == high.dropLast(),
              let a = l.lowercased().unicodeScalars.first?.value, let b = h.lowercased().unicodeScalars.first?.value,
              (97...122).contains(a), (97...122).contains(b), a != b else { return nil }
        let base = low.dropLast(), direction: Int = b > a ? 1 : -1
        return stride(from: Int(a) + direction, to: Int(b), by: direction).map { c in
            (base + String(UnicodeScalar(UInt8(c))), Double(c - Int(a)) / Double(Int(b) - Int(a)))
        }
    }

    /// The point at `share` of the line's length.
    static func point(along line: [Coordinate], at share: Double) -> Coordinate {
        let lengths = zip(line, line.dropFirst()).map { $0.distance(to: $1) }
        var left = lengths.reduce(0, +) * share
        for (i, length) in lengths.enumerated() {
            if left <= length, length > 0 {
                let t = left / length, a = line[i], b = line[i + 1]
                return Coordinate(latitude: a.latitude + (b.latitude - a.latitude) * t, longitude: a.longitude + (b.longitude - a.longitude) * t)
            }
            left -= length
        }
        return line.last ?? line[0]
    }
}
