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

