import Crypto
import CryptoExtras
import Foundation

/// A credential public key in COSE form (RFC 9052/9053), of the algorithms Portvakt offers:
/// ES256 (P-256), EdDSA (Ed25519) and RS256 (RSASSA-PKCS1-v1_5, SHA-256, 2048 bits or more).
public struct COSEKey: Sendable {
    public enum Algorithm: Int, Sendable, CaseIterable {
        case es256 = -7
        case edDSA = -8
        case rs256 = -257
    }

    private enum Key {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    public let algorithm: Algorithm
    private let key: Key

    /// Parses a COSE_Key map.
    /// - Throws: ``WebAuthnError/unsupportedKey(_:)`` for another type, curve or algorithm, or
    ///   coordinates of the wrong length.
    public init(_ cose: CBOR) throws(WebAuthnError) {
        guard let type = cose[int: 1]?.int, let number = cose[int: 3]?.int else { throw .unsupportedKey("kty and alg are required") }
        guard let algorithm = Algorithm(rawValue: number) else { throw .unsupportedKey("algorithm") }
        self.algorithm = algorithm
        do {
            switch (algorithm, type) {
            case (.es256, 2):
                guard cose[int: -1]?.int == 1, let x = cose[int: -2]?.byteString, let y = cose[int: -3]?.byteString, x.count == 32, y.count == 32
                else { throw WebAuthnError.unsupportedKey("ES256 needs P-256 and 32-byte coordinates") }
                key = .p256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
            case (.edDSA, 1):
                guard cose[int: -1]?.int == 6, let x = cose[int: -2]?.byteString, x.count == 32
                else { throw WebAuthnError.unsupportedKey("EdDSA needs Ed25519 and a 32-byte key") }
                key = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            case (.rs256, 3):
                guard let n = cose[int: -1]?.byteString, let e = cose[int: -2]?.byteString, n.count >= 256, n.count <= 512, e.count <= 8
                else { throw WebAuthnError.unsupportedKey("RS256 needs a 2048- to 4096-bit modulus") }
                key = .rsa(try _RSA.Signing.PublicKey(n: n, e: e))
            default:
                throw WebAuthnError.unsupportedKey("key type for the algorithm")
            }
        } catch let error as WebAuthnError {
            throw error
        } catch {
            throw .unsupportedKey("not a valid public key")
        }
    }

    /// Whether `signature` (DER for ES256, raw for EdDSA and RS256) is this key's over `data`.
    public func isValidSignature(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch key {
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: SHA256.hash(data: data))
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        case .rsa(let key):
            return key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
        }
    }
}
