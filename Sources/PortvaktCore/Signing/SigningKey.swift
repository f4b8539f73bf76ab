import Crypto
import Foundation
import JWTKit

/// One ES256 key that signs Portvakt's tokens, named by its RFC 7638 JWK thumbprint.
public struct SigningKey: Sendable {
    public let kid: String
    public let privateKey: ES256PrivateKey
    public let createdAt: Date
    /// When a newer key took over signing; a retired key still verifies until it ages out.
    public let retiredAt: Date?

    public init(privateKey: ES256PrivateKey, createdAt: Date, retiredAt: Date? = nil) {
        self.privateKey = privateKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
        self.kid = Self.thumbprint(of: privateKey)
    }

    /// A new random key.
    public static func generate(now: Date) -> SigningKey {
        SigningKey(privateKey: ES256PrivateKey(), createdAt: now)
    }

    /// The public half as a JWK for the JWKS document.
    public var publicJWK: JWK {
        let point = privateKey.parameters!
        return .ecdsa(.es256, identifier: JWKIdentifier(string: kid), x: point.x, y: point.y, curve: .p256)
    }

    private static func thumbprint(of key: ES256PrivateKey) -> String {
        let point = key.parameters!
        return JWKThumbprint.p256(x: point.x, y: point.y)
    }
}
