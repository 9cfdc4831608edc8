import Crypto
import Foundation

/// The bearer tokens that name a user (`Authorization: Bearer <token>`), made and hashed the same way by every
/// store that keeps users (`UserAccounts`): a store keeps only a token's hash, so a token is shown once, when made.
public enum UserTokens {
    /// What every token starts with, so one is easy to recognise (in a config file, a log someone pasted).
    public static let prefix = "pd_"

    /// A new token: `prefix` and 32 bytes from the system's secure random source, in base64url without padding
    /// (46 characters in all).
    public static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let base64 = Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return prefix + base64
    }

    /// The token's SHA-256 (of its UTF-8 bytes), as a store keeps and looks it up. A lookup by hash also means
    /// that how long the lookup takes says nothing about the tokens kept.
    public static func hash(_ token: String) -> [UInt8] {
        Array(SHA256.hash(data: Array(token.utf8)))
    }
}
