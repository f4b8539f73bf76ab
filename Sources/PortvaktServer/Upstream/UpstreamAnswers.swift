/// A token endpoint's answer (RFC 6749 §5.1, OIDC Core §3.1.3.3).
struct UpstreamTokens: Decodable, Sendable {
    let accessToken: String
    let idToken: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case idToken = "id_token"
    }
}

/// Vipps userinfo: `nin` (personnummer) and the phone number in Vipps's `47…` form.
struct UpstreamUserinfo: Decodable, Sendable {
    let sub: String
    let name: String?
    let phoneNumber: String?
    let nin: String?

    enum CodingKeys: String, CodingKey {
        case sub, name, nin
        case phoneNumber = "phone_number"
    }
}
