/// An OpenID Provider's discovery document (OpenID Connect Discovery §3, RFC 8414 names), one
/// type for the three places that speak it: the broker's own `/.well-known/openid-configuration`,
/// the sandbox's simulated BankID and Vipps, and the broker reading theirs. What the standard
/// requires of every provider is required here; the rest is optional, and left out when nil.
public struct OpenIDProviderMetadata: Codable, Sendable, Equatable {
    public var issuer: String
    public var authorizationEndpoint: String
    public var tokenEndpoint: String
    public var jwksURI: String
    public var userinfoEndpoint: String?
    public var revocationEndpoint: String?
    public var revocationEndpointAuthMethodsSupported: [String]?
    public var introspectionEndpoint: String?
    public var introspectionEndpointAuthMethodsSupported: [String]?
    public var tokenEndpointAuthSigningAlgValuesSupported: [String]?
    public var pushedAuthorizationRequestEndpoint: String?
    public var endSessionEndpoint: String?
    public var scopesSupported: [String]?
    public var responseTypesSupported: [String]?
    public var grantTypesSupported: [String]?
    public var subjectTypesSupported: [String]?
    public var idTokenSigningAlgValuesSupported: [String]?
    public var tokenEndpointAuthMethodsSupported: [String]?
    public var codeChallengeMethodsSupported: [String]?
    public var acrValuesSupported: [String]?
    public var uiLocalesSupported: [String]?
    public var claimsSupported: [String]?
    public var authorizationResponseIssParameterSupported: Bool?
    public var dpopSigningAlgValuesSupported: [String]?
    public var requirePushedAuthorizationRequests: Bool?
    public var backchannelLogoutSupported: Bool?
    public var backchannelLogoutSessionSupported: Bool?
    /// Portvakt's own: the ways in this deployment offers (`bankid`, `vipps`, `bankid_order`,
    /// `passkey`, `password`), so an app shows no button that cannot work.
    public var portvaktLoginMethods: [String]?

    public init(issuer: String, authorizationEndpoint: String, tokenEndpoint: String, jwksURI: String) {
        self.issuer = issuer
        self.authorizationEndpoint = authorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.jwksURI = jwksURI
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case authorizationEndpoint = "authorization_endpoint"
        case tokenEndpoint = "token_endpoint"
        case jwksURI = "jwks_uri"
        case userinfoEndpoint = "userinfo_endpoint"
        case revocationEndpoint = "revocation_endpoint"
        case revocationEndpointAuthMethodsSupported = "revocation_endpoint_auth_methods_supported"
        case introspectionEndpoint = "introspection_endpoint"
        case introspectionEndpointAuthMethodsSupported = "introspection_endpoint_auth_methods_supported"
        case tokenEndpointAuthSigningAlgValuesSupported = "token_endpoint_auth_signing_alg_values_supported"
        case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
        case endSessionEndpoint = "end_session_endpoint"
        case scopesSupported = "scopes_supported"
        case responseTypesSupported = "response_types_supported"
        case grantTypesSupported = "grant_types_supported"
        case subjectTypesSupported = "subject_types_supported"
        case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
        case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
        case codeChallengeMethodsSupported = "code_challenge_methods_supported"
        case acrValuesSupported = "acr_values_supported"
        case uiLocalesSupported = "ui_locales_supported"
        case claimsSupported = "claims_supported"
        case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
        case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
        case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
        case backchannelLogoutSupported = "backchannel_logout_supported"
        case backchannelLogoutSessionSupported = "backchannel_logout_session_supported"
        case portvaktLoginMethods = "portvakt_login_methods"
    }
}
