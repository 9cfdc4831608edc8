import Foundation
import PindropCore
import PindropProviders
import PindropTesting
import Testing

/// What a provider writes back never reaches a person: each failure is our own sentence with the status and a
/// parsed, capped `Retry-After`, with no key in any form and no URL.
@Suite("Provider text never leaks")
struct ProviderLeakTests {
    /// A keyed provider and one of its hostile answers.
    struct Case: Sendable, CustomTestStringConvertible {
        var kind: FakeProviderKind
        var behavior: FakeProviderBehavior
        var testDescription: String {
            guard case .raw(let status, _, let retryAfter) = behavior else { return kind.rawValue }
            return "\(kind.rawValue) HTTP \(status)" + (retryAfter == nil ? "" : " with a 5 KB Retry-After")
        }
    }

    static let cases = [FakeProviderKind.google, .mapbox, .foursquare].flatMap { kind in
        FakeProviderLeaks.behaviors(kind, echoing: FakeProviderLeaks.key).map { Case(kind: kind, behavior: $0) }
    }

    @Test("a body and a Retry-After echoing the key in every form, across the old cut, leave no trace", arguments: cases)
    func keyEchoed(_ hostile: Case) async throws {
        try await withFake(hostile.kind, apiKey: FakeProviderLeaks.key) { server in
            server.setBehavior(hostile.behavior)
            let message = try #require(await pindropError { try await askOnce(server) }?.message)
            for form in FakeProviderLeaks.forms(of: FakeProviderLeaks.key) {
                #expect(!message.contains(form), "\(message) holds \(form)")
            }
            #expect(!message.contains(server.baseURL) && !message.contains("127.0.0.1"), "\(message)")
            #expect(!message.contains("xxxx") && !message.contains("9999"), "the provider's text is repeated: \(message)")
            #expect(message.count <= 160, "\(message.count) characters: \(message)")
            #expect(!message.contains("retry after"), "an unreadable Retry-After is ignored: \(message)")
        }
    }

    @Test("Retry-After is read as whole seconds, capped at an hour; an HTTP date becomes seconds; garbage is ignored",
          arguments: [("120", "; retry after 120 s"), ("0.2", "; retry after 1 s"), ("99999999999", "; retry after 3600 s"),
                      ("-5", ""), ("1e3", ""), ("inf", ""), ("soon", ""), ("Sun, 06 Nov 99999999999999999 08:49:37 GMT", "")])
    func retryAfterParsed(header: String, expected: String) async throws {
        try await withFake(.photon) { server in
            server.setBehavior(.raw(status: 429, body: "{}", retryAfter: header))
            let error = await pindropError { try await askOnce(server) }
            #expect(error?.message == "Photon is rate-limiting us: too many requests (HTTP 429)" + expected)
        }
    }

    @Test("a Retry-After date is turned into the seconds from now")
    func retryAfterDate() async throws {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        try await withFake(.photon) { server in
            server.setBehavior(.raw(status: 429, body: "{}", retryAfter: formatter.string(from: Date().addingTimeInterval(90))))
            let message = await pindropError { try await askOnce(server) }?.message ?? ""
            let seconds = Int(message.split(separator: " ").dropLast().last ?? "") ?? -1
            #expect((60...91).contains(seconds), "\(message)")
        }
    }

    @Test("rate-limit headers: waits capped at an hour, forged numbers and dates ignored, never a crash")
    func adviceBounded() {
        let now = 1_700_000_000.0
        let huge = String(repeating: "9", count: 38)
        let advice = RateLimitAdvice(limitHeader: nil, remainingHeader: nil, resetHeader: huge, retryAfterHeader: huge,
                                     nowEpochSeconds: now)
        #expect(advice.resetAfter == .seconds(3600) && advice.retryAfter == .seconds(3600))
        for forged in ["1e308", "0x1p30", "nan", "+5", "Tue, 14 Nov 9223372036854775807 22:14:20 GMT",
                       "Tue, 99 Nov 2023 22:14:20 GMT", "Tue, 14 Nov 2023 22:99:20 GMT", String(repeating: "1", count: 5000)] {
            #expect(RateLimitAdvice.retryAfter(forged, nowEpochSeconds: now) == nil, "\(forged)")
        }
        #expect(RateLimitAdvice.retryAfter(" 30 ", nowEpochSeconds: now) == .seconds(30))
        #expect(RateLimitAdvice.retryAfter("Tue, 14 Nov 2023 22:14:20 GMT", nowEpochSeconds: now) == .seconds(60))
    }
}
