import Foundation

/// Answers that try to make a client leak its key, for the tests that hold every message a person sees to be
/// clean: the key echoed back in every encoding within the first 300 characters of the provider's explanation,
/// a copy straddling character 300 (where a message cut before the key is removed would keep part of it), and a
/// `Retry-After` of about 5 KB that holds the key too.
public enum FakeProviderLeaks {
    /// A key with characters that percent-encoding, base64 and letter case all change.
    public static let key = "Sk/Live+SECRET=4f9a0c7d21:Zq"

    /// The forms a key may come back in: as is, lower and upper case, base64 and base64url (padded and not),
    /// percent-encoded, hex (lower and upper case), and its first half, which a cut through the key leaves.
    public static func forms(of key: String) -> [String] {
        let bytes = Data(key.utf8)
        let base64 = bytes.base64EncodedString()
        let base64URL = base64.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        return [key, key.lowercased(), key.uppercased(), base64, base64.replacingOccurrences(of: "=", with: ""),
                base64URL, base64URL.replacingOccurrences(of: "=", with: ""),
                key.addingPercentEncoding(withAllowedCharacters: unreserved) ?? key, hex, hex.uppercased(),
                String(key.prefix(key.count / 2))]
    }

    /// An explanation holding `key` encoded: lower and upper case, base64, base64url, percent-encoded and hex
    /// within its first 300 characters, then every other form.
    public static func encodings(of key: String) -> String {
        let all = forms(of: key)
        return [all[1], all[2], all[3], all[5], all[7], all[8]].joined(separator: " ") + " | " + all.joined(separator: " ")
    }

    /// An explanation with `key` across character 300, then every form of it.
    public static func acrossTheCut(_ key: String) -> String {
        String(repeating: "x", count: 300 - key.count / 2) + key + " " + forms(of: key).joined(separator: " ")
    }

    /// About 5 KB of `Retry-After`, with the key in it.
    public static func hugeRetryAfter(echoing key: String) -> String {
        "120 " + String(repeating: "9", count: 2_500) + " " + key + " " + String(repeating: "s", count: 2_500)
    }

    /// `kind`'s own error body with `text` as its explanation.
    public static func errorBody(_ kind: FakeProviderKind, explaining text: String) -> String {
        switch kind {
        case .nominatim: return #"{"error": {"code": 400, "message": "\#(text)"}}"#
        case .google: return #"{"results": [], "status": "REQUEST_DENIED", "error_message": "\#(text)"}"#
        case .photon, .mapbox, .foursquare: return #"{"message": "\#(text)"}"#
        }
    }

    /// The hostile answers for `kind`: 429 with the huge `Retry-After`, 400 echoing the key's encodings, 500
    /// with the key across the cut (and for Google, its HTTP 200 REQUEST_DENIED with the encodings).
    public static func behaviors(_ kind: FakeProviderKind, echoing key: String) -> [FakeProviderBehavior] {
        let encoded = errorBody(kind, explaining: encodings(of: key)), cut = errorBody(kind, explaining: acrossTheCut(key))
        let answers: [FakeProviderBehavior] = [.raw(status: 429, body: cut, retryAfter: hugeRetryAfter(echoing: key)),
                                               .raw(status: 400, body: encoded, retryAfter: nil),
                                               .raw(status: 500, body: cut, retryAfter: nil)]
        return answers + (kind == .google ? [.raw(status: 200, body: encoded, retryAfter: nil)] : [])
    }
}
