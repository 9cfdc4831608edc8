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

    /// Reads the standard headers. `resetEpochSeconds` and `retryAfter` accept whole or fractional seconds;
    /// a `Retry-After` given as an HTTP date is read too. `now` is the current wall-clock time in seconds
    /// since 1970 (injected so the conversion is testable).
    public init(limitHeader: String?, remainingHeader: String?, resetHeader: String?, retryAfterHeader: String?,
                nowEpochSeconds: Double) {
        limit = limitHeader.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        remaining = remainingHeader.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        if let reset = resetHeader.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), reset.isFinite {
            resetAfter = .seconds(max(0, reset - nowEpochSeconds))
        }
        if let text = retryAfterHeader?.trimmingCharacters(in: .whitespaces) {
            if let delay = Double(text), delay.isFinite, delay >= 0 {
                retryAfter = .seconds(delay)
            } else if let date = HTTPDate.epochSeconds(text) {
                retryAfter = .seconds(max(0, date - nowEpochSeconds))
            }
        }
    }
}

/// Reads IMF-fixdate HTTP dates ("Sun, 06 Nov 1994 08:49:37 GMT"), the form `Retry-After` may take.
enum HTTPDate {
    static func epochSeconds(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT",
              let day = Int(parts[1]), let year = Int(parts[3]),
              let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
                .firstIndex(of: String(parts[2])) else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
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
