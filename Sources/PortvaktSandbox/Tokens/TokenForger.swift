import PortvaktHTTP
import Crypto
import CryptoExtras
import Foundation
import PortvaktCore

/// Signs ID tokens as compact JWS (RFC 7515 §7.1), honestly or, when a fault asks for it, in one
/// of the ways an attacker or a broken provider would.
struct TokenForger: Sendable {
    let keys: ProviderKeys

    func sign(_ claims: ProviderIDTokenClaims, faults: FaultSettings) throws -> String {
        let payload = try Responses.encoder.encode(claims)
        if faults.contains(.algorithmNone) {
            return try Self.segment(["alg": "none", "typ": "JWT"]) + "." + payload.base64URLEncoded() + "."
        }
        if faults.contains(.hmacWithPublicKey) {
            let header = try Self.segment(["alg": "HS256", "typ": "JWT", "kid": keys.kid])
            let input = header + "." + payload.base64URLEncoded()
            let secret = SymmetricKey(data: Data(keys.signing.publicKey.pemRepresentation.utf8))
            let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret)
            return input + "." + Data(mac).base64URLEncoded()
        }
        if faults.contains(.embeddedKey) {
            let jwk = try RSAPublicJWK(keys.rogue.publicKey, kid: keys.kid)
            let header = try Self.segment(EmbeddedKeyHeader(kid: keys.kid, jwk: jwk))
            return try signRS256(header: header, payload: payload, with: keys.rogue)
        }
        if faults.contains(.unknownKeyID) {
            return try signRS256(header: Self.segment(["alg": "RS256", "typ": "JWT", "kid": keys.rogueKid]), payload: payload, with: keys.rogue)
        }
        let header = try Self.segment(["alg": "RS256", "typ": "JWT", "kid": keys.kid])
        return try signRS256(header: header, payload: payload, with: faults.contains(.badSignature) ? keys.rogue : keys.signing)
    }

    private func signRS256(header: String, payload: Data, with key: _RSA.Signing.PrivateKey) throws -> String {
        let input = header + "." + payload.base64URLEncoded()
        // RS256 is RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3); swift-crypto marks the padding "insecure" for new designs.
        let signature = try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5)
        return input + "." + signature.rawRepresentation.base64URLEncoded()
    }

    private static func segment(_ header: some Encodable) throws -> String {
        try Responses.encoder.encode(header).base64URLEncoded()
    }

    private struct EmbeddedKeyHeader: Encodable {
        var alg = "RS256"
        var typ = "JWT"
        let kid: String
        let jwk: RSAPublicJWK
    }
}
