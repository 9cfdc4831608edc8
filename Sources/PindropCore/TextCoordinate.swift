import Foundation

/// A coordinate written at the start or the end of a search text, as Nominatim reads one: "47.1, 9.5",
/// "N 47.10791° E 9.52676°", "47.10791° N 9.52676° E", degrees and minutes ("N 47° 6.47′ E 9° 31.6′"), degrees, minutes
/// and seconds ("47°06'28.5\"N 9°31'36.3\"E"), with spaces, tabs or a comma between the two halves and the rest of
/// the text before or after it ("sporry weiher, N 47.10791° E 9.52676°"). What is left of the text is searched near
/// the coordinate; a text that is only a coordinate asks what is there.
public struct TextCoordinate: Sendable, Hashable {
    /// The point written.
    public var coordinate: Coordinate
    /// The text before or after it, without the spaces between; empty when the text was only the coordinate.
    public var rest: String

    /// Makes a reading.
    public init(coordinate: Coordinate, rest: String) { self.coordinate = coordinate; self.rest = rest }

    /// The coordinate at the start or the end of `text`, and the rest; nil when there is none, when text stands on both
    /// sides of it, or when it is off the globe. The forms are tried in Nominatim's order and the first that reads
    /// wins: hemisphere letters with decimal degrees (before, then after the numbers), with degrees and minutes, with
    /// degrees, minutes and seconds, and last two signed decimal numbers, latitude first ("[47.1, 9.5]").
    public static func reading(_ text: String) -> TextCoordinate? {
        guard mayHoldCoordinate(text) else { return nil }
        for form in forms {
            guard let match = try? form.wholeMatch(in: text) else { continue }
            let pre = match.output["pre"]?.substring, post = match.output["post"]?.substring
            // Text on both sides: a number in the middle of an address, not a coordinate.
            if let pre, !pre.isEmpty, let post, !post.isEmpty { continue }
            func degrees(_ axis: String) -> Double? {
                guard let whole = match.output["\(axis)_deg"]?.substring.flatMap({ Double($0) }) else { return nil }
                let minutes = match.output["\(axis)_min"]?.substring.flatMap { Double($0) } ?? 0
                let seconds = match.output["\(axis)_sec"]?.substring.flatMap { Double($0) } ?? 0
                return whole + minutes / 60 + seconds / 3600
            }
            guard var latitude = degrees("lat"), var longitude = degrees("lon") else { continue }
            if match.output["ns"]?.substring == "S" { latitude = -latitude }
            if match.output["ew"]?.substring == "W" { longitude = -longitude }
            guard let coordinate = try? Coordinate(validatingLatitude: latitude, longitude: longitude) else { return nil }
            return TextCoordinate(coordinate: coordinate, rest: String(pre ?? post ?? ""))
        }
        return nil
    }

    /// Whether `text` can hold a coordinate at all: a decimal number ("47.1"), or a digit and a hemisphere letter
    /// standing alone ("N 47", "47°N"). Checked byte by byte first: most search texts have neither, and the patterns
    /// cost microseconds.
    static func mayHoldCoordinate(_ text: String) -> Bool {
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
        var digits = false, hemisphere = false
        // The byte before the previous one and the previous one: a letter stands alone when neither neighbour is one.
        var twoBack: UInt8 = 0x20, previous: UInt8 = 0x20
        func look(_ next: UInt8) {
            if previous == UInt8(ascii: "N") || previous == UInt8(ascii: "S"), !isLetter(twoBack), !isLetter(next) { hemisphere = true }
        }
        for byte in text.utf8 {
            if isDigit(byte) {
                if previous == UInt8(ascii: "."), isDigit(twoBack) { return true }
                digits = true
            }
            look(byte)
            (twoBack, previous) = (previous, byte)
        }
        look(0x20)
        return digits && hemisphere
    }

    // MARK: The forms, as Nominatim's COORD_REGEX writes them

    private static func decimal(_ axis: String) -> String { #"(?<\#(axis)_deg>[0-9]+\.[0-9]+)°?"# }
    private static func degreesMinutes(_ axis: String) -> String {
        #"(?<\#(axis)_deg>[0-9]+)[°\s]+(?<\#(axis)_min>[0-9.]+)[′']*"#
    }
    private static func degreesMinutesSeconds(_ axis: String) -> String {
        #"(?<\#(axis)_deg>[0-9]+)[°\s]+(?<\#(axis)_min>[0-9]+)[′'\s]+(?<\#(axis)_sec>[0-9.]+)["″]*"#
    }

    /// Hemisphere letters before the numbers, then after them, for each way of writing degrees; then plain numbers.
    private static let patterns: [String] = {
        var patterns: [String] = []
        for axis in [decimal, degreesMinutes, degreesMinutesSeconds] {
            patterns.append(#"(?<ns>[NS])\s*"# + axis("lat") + #"[\s,]+(?<ew>[EW])\s*"# + axis("lon"))
            patterns.append(axis("lat") + #"\s*(?<ns>[NS])[\s,]+"# + axis("lon") + #"\s*(?<ew>[EW])"#)
        }
        patterns.append(#"\[?(?<lat_deg>[+-]?[0-9]+\.[0-9]+)[\s,]+(?<lon_deg>[+-]?[0-9]+\.[0-9]+)\]?"#)
        return patterns
    }()

    /// Each pattern with the text allowed before it (as little as can be) or after it, whole-text matched.
    nonisolated(unsafe) private static let forms: [Regex<AnyRegexOutput>] = patterns.map { pattern in
        // Made from constant patterns: a failure here is a typo in them, which every test run would show.
        try! Regex(#"(?:(?<pre>.*?)\s+)??"# + pattern + #"(?:\s+(?<post>.*))?"#)
    }
}
