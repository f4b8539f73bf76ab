/// The claims of a sandbox ID token (OpenID Connect Core §2), Vipps or BankID flavour.
struct ProviderIDTokenClaims: Codable, Sendable {
    var iss: String
    var sub: String
    var aud: String
    var exp: Int
    var iat: Int
    var authTime: Int
    var nonce: String?
    var azp: String?
    var acr: String?
    var amr: [String]?
    var sid: String?
    /// BankID: the personnummer, only with the `nnin_altsub` scope.
    var nninAltsub: String?
    var name: String?
    var givenName: String?
    var familyName: String?
    var birthdate: String?

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nonce, azp, acr, amr, sid, name, birthdate
        case authTime = "auth_time"
        case nninAltsub = "nnin_altsub"
        case givenName = "given_name"
        case familyName = "family_name"
    }
}
