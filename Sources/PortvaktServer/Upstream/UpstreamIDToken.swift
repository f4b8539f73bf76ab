import Foundation
import JWTKit
import PortvaktCore

/// An upstream ID token's claims. jwt-kit checks only the signature; ``UpstreamProvider``
/// checks these claims against the issuer, the client, the clock and the nonce.
struct UpstreamIDToken: JWTPayload {
    let iss: String
    let sub: String
    let aud: AudienceClaim
    let exp: Double
    let iat: Double
    let nonce: String?
    let azp: String?
    let acr: String?
    let amr: [String]?
    let name: String?
    /// When the person authenticated at the provider (OIDC Core §2); required when `max_age` was asked.
    let authTime: Double?
    /// BankID: the personnummer, with the `nnin_altsub` scope.
    let nninAltsub: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, azp, acr, amr, name
        case nninAltsub = "nnin_altsub"
        case authTime = "auth_time"
    }

    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The first segment of a compact JWS, read before any key is chosen.
struct JOSEHeader: Sendable {
    let alg: String?
    let kid: String?
    /// Header members that point at keys or demand extensions; never trusted (RFC 8725 §3.10).
    let keyReferences: Set<String>

    init?(compactJWS token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Data(base64URLEncoded: String(parts[0])),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        alg = object["alg"] as? String
        kid = object["kid"] as? String
        // A kid is looked up in the database and logged: no NUL, no line breaks.
        if let kid, TextInput.hasControlCharacters(kid) || kid.utf8.count > 256 { return nil }
        keyReferences = Set(object.keys).intersection(["jwk", "jku", "x5u", "x5c", "crit"])
    }
}

