import Foundation

/// Every way a key may come back written in a provider's text, replaced by "<redacted>": as is in any letter
/// case, percent-encoded (strictly, as a query value, or every byte), in hex, and in base64 or base64url with
/// or without padding, including where the key sits inside a longer base64 text (`Basic base64(user:key)`).
/// Made once per client, since the forms depend only on the key.
struct KeyRedaction: Sendable {
    /// The forms to replace, longest first so that a form inside another does not break the longer one.
    let forms: [String]

    /// The forms of `key`; none for a missing or empty key.
    init(key: String?) {
        guard let key, !key.isEmpty else { forms = []; return }
        let bytes = Data(key.utf8)
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        var derived = [
            ProviderHTTP.percentEncoded(key),
            key.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? "",
            bytes.map { "%" + String(format: "%02X", $0) }.joined(),
            hex,
        ]
        for offset in 0..<3 { derived += Self.base64Forms(of: bytes, offset: offset) }
        // A very short derived form would match ordinary words; the key itself is always replaced.
        let unique = Set(derived.filter { $0.count >= 6 && $0 != key } + [key])
        forms = unique.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    /// `text` with every form replaced, letter case ignored (hex and percent-encoding are written both ways).
    func callAsFunction(_ text: String) -> String {
        forms.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>", options: .caseInsensitive) }
    }

    /// The base64 and base64url text of `bytes` preceded by `offset` other bytes: whole (padded and not) for
    /// offset 0, and for every offset the characters that depend on the key's bits alone, which stand in any
    /// base64 text holding the key at that alignment.
    private static func base64Forms(of bytes: Data, offset: Int) -> [String] {
        let encoded = Array((Data(repeating: 0, count: offset) + bytes).base64EncodedString())
        let first = (8 * offset + 5) / 6
        let end = 8 * (offset + bytes.count) / 6
        var forms = end > first ? [String(encoded[first..<end])] : []
        if offset == 0 {
            let padded = String(encoded)
            forms += [padded, padded.replacingOccurrences(of: "=", with: "")]
        }
        return forms + forms.map { $0.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_") }
    }
}
