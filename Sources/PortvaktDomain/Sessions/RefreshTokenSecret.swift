import Crypto
import Foundation
import PortvaktCore

/// Refresh tokens and authorization codes are 256 random bits; the store keeps only their
/// SHA-256. A token's successor is an HMAC of the token under a server key: the same token
/// always rotates to the same successor, and only the server can compute it.
public struct RefreshTokenSecret: Sendable {
    private let key: SymmetricKey

    public init(key: SymmetricKey) {
        self.key = key
    }

    public func successor(of token: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(("successor:" + token).utf8), using: key)).base64URLEncoded()
    }

    /// The authorization code of a completed BankID order, derived from the order's session id
    /// so that a repeated collect (its first answer lost on a bad connection) gets the same code.
    public func orderCode(forSession sessionID: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Data(("bankid-order-code:" + sessionID).utf8), using: key)).base64URLEncoded()
    }

    public static func hash(_ token: String) -> Data {
        Data(SHA256.hash(data: Data(token.utf8)))
    }
}
