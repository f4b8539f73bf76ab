import Crypto
import CryptoExtras
import Foundation
import JWTKit
import PortvaktProtocol

/// One key that signs Portvakt's tokens, named by its RFC 7638 JWK thumbprint: ES256 (access
/// tokens, and ID tokens for clients that ask for it) or RS256 (ID tokens for everyone else: OIDC
/// Core §3.1.3.7 makes it the default a relying party expects).
public struct SigningKey: Sendable {
    public enum Algorithm: String, Sendable, CaseIterable {
        case es256 = "ES256"
        case rs256 = "RS256"
    }

    public enum Material: Sendable {
        case es256(ES256PrivateKey)
        case rs256(JWTKit.Insecure.RSA.PrivateKey)
    }

    public let kid: String
    public let material: Material
    /// The public half as a JWK for the JWKS document, read from the key once.
    public let publicJWK: JWK
    public let createdAt: Date
    /// When a newer key took over signing; a retired key still verifies until it ages out.
    public let retiredAt: Date?

    public init(material: Material, createdAt: Date, retiredAt: Date? = nil) throws {
        self.material = material
        self.createdAt = createdAt
        self.retiredAt = retiredAt
        switch material {
        case .es256(let key):
            let point = key.parameters!
            kid = JWKThumbprint.p256(x: point.x, y: point.y)
            publicJWK = .ecdsa(.es256, identifier: JWKIdentifier(string: kid), x: point.x, y: point.y, curve: .p256)
        case .rs256(let key):
            let (n, e) = try Self.rsaMembers(key.publicKey)
            kid = JWKThumbprint.rsa(n: n, e: e)
            publicJWK = .rsa(.rs256, identifier: JWKIdentifier(string: kid), modulus: n, exponent: e)
        }
    }

    public init(privateKey: ES256PrivateKey, createdAt: Date, retiredAt: Date? = nil) {
        // A P-256 key always has its coordinates, so its thumbprint cannot fail.
        try! self.init(material: .es256(privateKey), createdAt: createdAt, retiredAt: retiredAt)
    }

    /// Reads a key stored as PEM under `algorithm`.
    public init(algorithm: Algorithm, pem: String, createdAt: Date, retiredAt: Date?) throws {
        let material: Material = switch algorithm {
        case .es256: .es256(try ES256PrivateKey(pem: pem))
        case .rs256: .rs256(try JWTKit.Insecure.RSA.PrivateKey(pem: pem))
        }
        try self.init(material: material, createdAt: createdAt, retiredAt: retiredAt)
    }

    /// A new random key: P-256, or RSA with a 2048-bit modulus (RFC 7518 §3.3's minimum).
    public static func generate(_ algorithm: Algorithm = .es256, now: Date) throws -> SigningKey {
        switch algorithm {
        case .es256: SigningKey(privateKey: ES256PrivateKey(), createdAt: now)
        case .rs256: try SigningKey(material: .rs256(JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))), createdAt: now)
        }
    }

    public var algorithm: Algorithm {
        switch material {
        case .es256: .es256
        case .rs256: .rs256
        }
    }

    public var pemRepresentation: String {
        switch material {
        case .es256(let key): key.pemRepresentation
        case .rs256(let key): key.pemRepresentation
        }
    }

    /// Adds the key to `collection`: the private key when it signs, else the public key only.
    public func add(to collection: JWTKeyCollection, signing: Bool) async {
        let kid = JWKIdentifier(string: kid)
        switch (material, signing) {
        case (.es256(let key), true): await collection.add(ecdsa: key, kid: kid)
        case (.es256(let key), false): await collection.add(ecdsa: key.publicKey, kid: kid)
        case (.rs256(let key), true): await collection.add(rsa: key, digestAlgorithm: .sha256, kid: kid)
        case (.rs256(let key), false): await collection.add(rsa: key.publicKey, digestAlgorithm: .sha256, kid: kid)
        }
    }

    /// The base64url modulus and exponent, without leading zero bytes (RFC 7518 §6.3.1).
    private static func rsaMembers(_ key: JWTKit.Insecure.RSA.PublicKey) throws -> (n: String, e: String) {
        let primitives = try key.getKeyPrimitives()
        func unsigned(_ data: Data) -> String { Data(data.drop { $0 == 0 }).base64URLEncoded() }
        return (unsigned(primitives.modulus), unsigned(primitives.publicExponent))
    }
}
