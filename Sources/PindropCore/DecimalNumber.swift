/// Numbers as people and the APIs write them: an optional sign, decimal digits with an optional point, an optional
/// exponent ("47.37", "-8.5", ".5", "5.", "1e3"). Swift's `Double(String)` and C's `strtod` also read hexadecimal
/// ("0x1p3" is 8), "inf", "nan" and surrounding spaces, which no coordinate or radius is written as: every number
/// a request gives is read here.
public enum DecimalNumber {
    /// The finite value of decimal `text`, or nil.
    public static func parse(_ text: some StringProtocol) -> Double? {
        guard isDecimal(text.utf8) else { return nil }
        return Double(String(text)).flatMap { $0.isFinite ? $0 : nil }
    }

    /// Whether the bytes are `[+-]? (digits [. digits?]? | . digits) ([eE] [+-]? digits)?`.
    public static func isDecimal(_ bytes: some Collection<UInt8>) -> Bool {
        var i = bytes.startIndex
        func digits() -> Int {
            var n = 0
            while i != bytes.endIndex, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[i]) { n += 1; i = bytes.index(after: i) }
            return n
        }
        func skip(_ allowed: UInt8...) -> Bool {
            guard i != bytes.endIndex, allowed.contains(bytes[i]) else { return false }
            i = bytes.index(after: i)
            return true
        }
        _ = skip(UInt8(ascii: "+"), UInt8(ascii: "-"))
        var mantissa = digits()
        if skip(UInt8(ascii: ".")) { mantissa += digits() }
        guard mantissa > 0 else { return false }
        if skip(UInt8(ascii: "e"), UInt8(ascii: "E")) {
            _ = skip(UInt8(ascii: "+"), UInt8(ascii: "-"))
            guard digits() > 0 else { return false }
        }
        return i == bytes.endIndex
    }
}
