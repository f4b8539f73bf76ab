/// The parts of an OpenID Provider's discovery document the broker uses (OIDC Discovery §3).
struct ProviderMetadata: Decodable, Sendable {
    let issuer: String
    let authorizationEndpoint: String
    let tokenEndpoint: String
    let userinfoEndpoint: String?
    let jwksURI: String

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case userinfoEndpoint = "userinfo_endpoint"
        case jwksURI = "jwks_uri"
    }
}

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
