/// What a server said about its rate limit in one response, converted to waits relative to the moment
/// the response arrived (`X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset`, `Retry-After`).
public struct RateLimitAdvice: Sendable, Hashable {
    /// Requests allowed per window and requests left in the current window, when the server said.
    public var limit, remaining: Int?
    /// How long after the response the window resets (from `X-RateLimit-Reset`), and how long the server asked
    /// us to wait before retrying (from `Retry-After`).
    public var resetAfter, retryAfter: Duration?

    /// Makes advice; every part is optional because servers send any subset.
    public init(limit: Int? = nil, remaining: Int? = nil, resetAfter: Duration? = nil, retryAfter: Duration? = nil) {
        self.limit = limit; self.remaining = remaining; self.resetAfter = resetAfter; self.retryAfter = retryAfter
    }

    /// No advice at all.
    public static let none = RateLimitAdvice()

    /// The longest wait a header is believed for: an hour. A longer (or absurd) value is cut to it, so a server
    /// cannot park a client for days and a huge number cannot overflow `Duration`.
    public static let longestWait: Duration = .seconds(3600)

    /// Reads the standard headers. `resetEpochSeconds` and `retryAfter` accept whole or fractional seconds;
    /// a `Retry-After` given as an HTTP date is read too; waits are capped at `longestWait` and anything else
    /// is ignored. `now` is the current wall-clock time in seconds since 1970 (injected so the conversion is
    /// testable).
    public init(limitHeader: String?, remainingHeader: String?, resetHeader: String?, retryAfterHeader: String?,
                nowEpochSeconds: Double) {
        limit = limitHeader.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        remaining = remainingHeader.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let reset = resetHeader.flatMap({ Self.decimalSeconds($0.trimmingCharacters(in: .whitespaces)) }) {
            resetAfter = Self.wait(reset - nowEpochSeconds)
        }
        retryAfter = Self.retryAfter(retryAfterHeader, nowEpochSeconds: nowEpochSeconds)
    }

    /// A `Retry-After` value as a wait: delay-seconds ("120", or fractional "0.125") or an HTTP date
    /// ("Sun, 06 Nov 1994 08:49:37 GMT") relative to `nowEpochSeconds`, between zero and `longestWait`; nil for
    /// anything else, so a provider's garbage (or a 5 KB header) is never believed nor repeated.
    public static func retryAfter(_ header: String?, nowEpochSeconds: Double) -> Duration? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), text.utf8.count <= 40 else { return nil }
        if let delay = decimalSeconds(text) { return wait(delay) }
        return HTTPDate.epochSeconds(text).map { wait($0 - nowEpochSeconds) }
    }

    /// Digits with at most one decimal point; nil for signs, exponents, "inf", "nan" and hex, which `Double`
    /// would accept, and for more than 40 characters.
    static func decimalSeconds(_ text: String) -> Double? {
        guard text.utf8.count <= 40, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2E }),
              text.utf8.count(where: { $0 == 0x2E }) <= 1 else { return nil }
        return Double(text)
    }

    /// `seconds` as a wait between zero and `longestWait`.
    static func wait(_ seconds: Double) -> Duration {
        .seconds(min(max(0, seconds), longestWait.seconds))
    }
}

/// Reads IMF-fixdate HTTP dates ("Sun, 06 Nov 1994 08:49:37 GMT"), the form `Retry-After` may take.
enum HTTPDate {
    static func epochSeconds(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        // Ranges checked so that a forged date cannot overflow the arithmetic below.
        guard parts.count == 6, parts[5] == "GMT",
              let day = Int(parts[1]), (1...31).contains(day), let year = Int(parts[3]), (1970...9999).contains(year),
              let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
                .firstIndex(of: String(parts[2])) else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3, (0...23).contains(time[0]), (0...59).contains(time[1]), (0...60).contains(time[2]) else { return nil }
        return Double(daysFromCivil(year: year, month: month + 1, day: day) * 86_400 + time[0] * 3600 + time[1] * 60 + time[2])
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
