import Crypto
import Foundation

/// The public half of a device's P-256 key, as the app registers it: a JWK (RFC 7517) with
/// `kty` `EC`, `crv` `P-256`, `x` and `y`, and nothing private.
public struct DevicePublicKey: Sendable, Hashable {
    public let x: String
    public let y: String
    /// The key for verifying the device's signatures, made once from the checked point.
    public let verifyingKey: P256.Signing.PublicKey
    /// The RFC 7638 thumbprint: one registration per key, and what DPoP-bound tokens name
    /// (`cnf.jkt`). Computed once: a server reads the same key in every proof of a client.
    public let thumbprint: String

    /// Why a JWK is not a usable device key; the text is safe to send back to the app.
    public struct Problem: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// - Throws: ``Problem`` for another key type or curve, a private key (`d`), or a point that
    ///   is not on P-256.
    public init(jwk: [String: String]) throws(Problem) {
        guard jwk["kty"] == "EC", jwk["crv"] == "P-256" else { throw Problem(description: "The key must be an EC P-256 JWK.") }
        guard jwk["d"] == nil else { throw Problem(description: "The JWK holds a private key; send only the public key.") }
        guard let x = jwk["x"], let y = jwk["y"], let xBytes = Data(base64URLEncoded: x), let yBytes = Data(base64URLEncoded: y),
              xBytes.count == 32, yBytes.count == 32
        else { throw Problem(description: "The JWK needs 32-byte base64url x and y coordinates.") }
        // Throws for a point that is not on the curve.
        guard let key = try? P256.Signing.PublicKey(rawRepresentation: xBytes + yBytes) else {
            throw Problem(description: "The JWK's point is not on P-256.")
        }
        self.x = xBytes.base64URLEncoded()
        self.y = yBytes.base64URLEncoded()
        verifyingKey = key
        thumbprint = JWKThumbprint.p256(x: self.x, y: self.y)
    }

    public init(_ key: P256.Signing.PublicKey) {
        let raw = key.rawRepresentation
        x = raw.prefix(32).base64URLEncoded()
        y = raw.suffix(32).base64URLEncoded()
        verifyingKey = key
        thumbprint = JWKThumbprint.p256(x: x, y: y)
    }

    /// Two keys are the same point.
    public static func == (lhs: DevicePublicKey, rhs: DevicePublicKey) -> Bool {
        lhs.x == rhs.x && lhs.y == rhs.y
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(x)
        hasher.combine(y)
    }

    public var jwk: [String: String] { ["kty": "EC", "crv": "P-256", "x": x, "y": y] }

    /// The JWK as canonical JSON (RFC 7638 member order), as it is stored.
    public var jwkJSON: String { JWKThumbprint.canonicalP256(x: x, y: y) }
}
