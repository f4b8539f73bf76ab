import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktDomain

/// `GET /.well-known/openid-configuration` (OIDC Discovery §4).
struct DiscoveryRoutes {
    let address: PublicAddress

    func register(on router: Router<some RequestContext>) {
        router.get("/.well-known/openid-configuration") { _, _ in
            try Responses.json(Self.document(issuer: address.current))
        }
    }

    static func document(issuer: String) -> OpenIDProviderMetadata {
        var document = OpenIDProviderMetadata(
            issuer: issuer, authorizationEndpoint: issuer + "/oauth/authorize", tokenEndpoint: issuer + "/oauth/token",
            jwksURI: issuer + "/.well-known/jwks.json"
        )
        document.userinfoEndpoint = issuer + "/oauth/userinfo"
        document.revocationEndpoint = issuer + "/oauth/revoke"
        document.pushedAuthorizationRequestEndpoint = issuer + "/oauth/par"
        document.endSessionEndpoint = issuer + "/oauth/end-session"
        document.responseTypesSupported = ["code"]
        document.grantTypesSupported = ["authorization_code", "refresh_token", DeviceUnlock.grantType]
        document.codeChallengeMethodsSupported = ["S256"]
        document.tokenEndpointAuthMethodsSupported = ["none"]
        document.idTokenSigningAlgValuesSupported = ["ES256"]
        document.subjectTypesSupported = ["public"]
        document.scopesSupported = AppAuthorizationRequest.supportedScopes.sorted()
        document.uiLocalesSupported = ["nb", "en"]
        document.authorizationResponseIssParameterSupported = true
        document.dpopSigningAlgValuesSupported = ["ES256"]
        // The app and the CLI must push (the portal, a client inside the server, need not): per client, not for every client.
        document.requirePushedAuthorizationRequests = false
        document.claimsSupported = ["sub", "name", "email", "sid", "amr", "acr", "auth_time", "org"]
        return document
    }
}
