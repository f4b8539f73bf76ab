import Hummingbird
import PortvaktHTTP

/// `GET /.well-known/openid-configuration` (OIDC Discovery §4).
struct DiscoveryRoutes {
    let broker: Broker

    func register(on router: Router<some RequestContext>) {
        router.get("/.well-known/openid-configuration") { _, _ in
            let issuer = broker.issuer
            return try Responses.json(Document(
                issuer: issuer,
                authorizationEndpoint: issuer + "/oauth/authorize",
                tokenEndpoint: issuer + "/oauth/token",
                userinfoEndpoint: issuer + "/oauth/userinfo",
                revocationEndpoint: issuer + "/oauth/revoke",
                pushedAuthorizationRequestEndpoint: issuer + "/oauth/par",
                endSessionEndpoint: issuer + "/oauth/end-session",
                jwksURI: issuer + "/.well-known/jwks.json"
            ))
        }
    }

    private struct Document: Encodable {
        let issuer: String
        let authorizationEndpoint: String
        let tokenEndpoint: String
        let userinfoEndpoint: String
        let revocationEndpoint: String
        let pushedAuthorizationRequestEndpoint: String
        let endSessionEndpoint: String
        let jwksURI: String
        let responseTypesSupported = ["code"]
        let grantTypesSupported = ["authorization_code", "refresh_token", DeviceUnlock.grantType]
        let codeChallengeMethodsSupported = ["S256"]
        let tokenEndpointAuthMethodsSupported = ["none"]
        let idTokenSigningAlgValuesSupported = ["ES256"]
        let subjectTypesSupported = ["public"]
        let scopesSupported = AppAuthorizationRequest.supportedScopes.sorted()
        let uiLocalesSupported = ["nb", "en"]
        let authorizationResponseIssParameterSupported = true
        let dpopSigningAlgValuesSupported = ["ES256"]
        /// The app and the CLI must push (the portal, a client inside the server, need not): per client, not for every client.
        let requirePushedAuthorizationRequests = false
        let claimsSupported = ["sub", "name", "email", "sid", "amr", "acr", "auth_time", "org"]

        enum CodingKeys: String, CodingKey {
            case issuer
            case authorizationEndpoint = "authorization_endpoint"
            case tokenEndpoint = "token_endpoint"
            case userinfoEndpoint = "userinfo_endpoint"
            case revocationEndpoint = "revocation_endpoint"
            case pushedAuthorizationRequestEndpoint = "pushed_authorization_request_endpoint"
            case dpopSigningAlgValuesSupported = "dpop_signing_alg_values_supported"
            case requirePushedAuthorizationRequests = "require_pushed_authorization_requests"
            case endSessionEndpoint = "end_session_endpoint"
            case jwksURI = "jwks_uri"
            case responseTypesSupported = "response_types_supported"
            case grantTypesSupported = "grant_types_supported"
            case codeChallengeMethodsSupported = "code_challenge_methods_supported"
            case tokenEndpointAuthMethodsSupported = "token_endpoint_auth_methods_supported"
            case idTokenSigningAlgValuesSupported = "id_token_signing_alg_values_supported"
            case subjectTypesSupported = "subject_types_supported"
            case scopesSupported = "scopes_supported"
            case uiLocalesSupported = "ui_locales_supported"
            case authorizationResponseIssParameterSupported = "authorization_response_iss_parameter_supported"
            case claimsSupported = "claims_supported"
        }
    }
}
