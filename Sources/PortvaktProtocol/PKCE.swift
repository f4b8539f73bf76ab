import Crypto
import Foundation

/// Proof Key for Code Exchange, S256 only (RFC 7636).
public enum PKCE {
    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// §4.1: 43–128 unreserved characters.
    public static func isWellFormed(verifier: String) -> Bool {
        (43...128).contains(verifier.count) && verifier.allSatisfy(alphabet.contains)
    }

    /// §4.2: a base64url SHA-256, 43 characters.
    public static func isWellFormed(challenge: String) -> Bool {
        challenge.count == 43 && challenge.allSatisfy(alphabet.contains)
    }

    /// §4.6: BASE64URL(SHA256(ASCII(verifier))) == challenge, compared in constant time.
    public static func verify(verifier: String, challenge: String) -> Bool {
        guard isWellFormed(verifier: verifier) else { return false }
        return constantTimeEqual(Self.challenge(for: verifier), challenge)
    }
}

extension PKCE {
    /// A fresh verifier: 32 random bytes, base64url (43 characters, §7.1).
    public static func makeVerifier() -> String {
        randomToken()
    }

    /// The S256 challenge of a verifier.
    public static func challenge(for verifier: String) -> String {
        Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncoded()
    }
}
