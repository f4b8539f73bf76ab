import Crypto
import CryptoExtras
import Foundation
import PortvaktCore

/// A provider's RS256 signing key, plus a second key that is not in its JWKS: the signer of the
/// forged tokens the ID-token faults produce.
struct ProviderKeys: Sendable {
    let signing: _RSA.Signing.PrivateKey
    let kid: String
    let rogue: _RSA.Signing.PrivateKey
    let rogueKid: String

    /// Generates both keys (RSA 2048; BankID and Vipps publish 2048-bit keys).
    static func generate() throws -> ProviderKeys {
        let signing = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let rogue = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        return ProviderKeys(signing: signing, kid: try Self.thumbprint(signing.publicKey), rogue: rogue, rogueKid: try Self.thumbprint(rogue.publicKey))
    }

    /// The keys of `provider`, generated at the first call in a process: four RSA keys cost about half a second in a
    /// debug build, and a process that builds a sandbox again (a test suite, a restarted server) needs no new ones.
    /// The providers' keys stay distinct from each other.
    static func of(_ provider: SandboxProvider) throws -> ProviderKeys {
        switch provider {
        case .vipps: try vippsKeys.get()
        case .bankid: try bankIDKeys.get()
        }
    }

    private static let vippsKeys = Result { try generate() }
    private static let bankIDKeys = Result { try generate() }

    /// The JWKS document: only the real key.
    func jwks() throws -> JWKSDocument {
        JWKSDocument(keys: [try RSAPublicJWK(signing.publicKey, kid: kid)])
    }

    /// RFC 7638 §3.3 thumbprint of an RSA key: SHA-256 over `{"e","kty","n"}`.
    static func thumbprint(_ key: _RSA.Signing.PublicKey) throws -> String {
        let primitives = try key.getKeyPrimitives()
        let canonical = #"{"e":"\#(primitives.publicExponent.base64URLEncoded())","kty":"RSA","n":"\#(primitives.modulus.base64URLEncoded())"}"#
        return Data(SHA256.hash(data: Data(canonical.utf8))).base64URLEncoded()
    }
}

struct JWKSDocument: Codable, Sendable {
    let keys: [RSAPublicJWK]
}

/// An RSA public key as a JWK (RFC 7518 §6.3.1).
struct RSAPublicJWK: Codable, Sendable {
    var kty = "RSA"
    var use = "sig"
    var alg = "RS256"
    let kid: String
    let n: String
    let e: String

    init(_ key: _RSA.Signing.PublicKey, kid: String) throws {
        let primitives = try key.getKeyPrimitives()
        self.kid = kid
        n = primitives.modulus.base64URLEncoded()
        e = primitives.publicExponent.base64URLEncoded()
    }
}
