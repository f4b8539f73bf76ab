import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktDomain

/// `GET /.well-known/openid-configuration` (OIDC Discovery §4).
struct DiscoveryRoutes {
    let clients: AppClients
    let flows: LoginFlows

    func register(on routes: DeclaredRoutes) {
        routes.get("/.well-known/openid-configuration", .anonymous, surface: .json) { _, _ in
            var document = Self.document(issuer: clients.address.current, clients: clients.registered)
            document.portvaktLoginMethods = flows.methods.names(passkeys: flows.passkeysAvailable)
            return try Responses.json(document)
        }
    }

    /// What this server offers, as configured: the client authentication methods its clients
    /// registered. RS256 is always offered for ID tokens (OIDC Discovery §3), ES256 beside it.
    static func document(issuer: String, clients: [AppClient]) -> OpenIDProviderMetadata {
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
        let methods = Set(clients.map(\.authentication.method)).sorted()
        document.tokenEndpointAuthMethodsSupported = methods.isEmpty ? nil : methods
        document.revocationEndpointAuthMethodsSupported = methods.isEmpty ? nil : methods
        if clients.contains(where: \.isConfidential) {
            document.introspectionEndpoint = issuer + "/oauth/introspect"
            document.introspectionEndpointAuthMethodsSupported = methods.filter { $0 != "none" }
        }
        if methods.contains("private_key_jwt") {
            document.tokenEndpointAuthSigningAlgValuesSupported = ["ES256", "PS256", "RS256"]
        }
        document.idTokenSigningAlgValuesSupported = ["RS256", "ES256"]
        document.subjectTypesSupported = ["public"]
        document.scopesSupported = AppAuthorizationRequest.supportedScopes.sorted()
        document.uiLocalesSupported = Language.allCases.map(\.rawValue)
        document.authorizationResponseIssParameterSupported = true
        document.dpopSigningAlgValuesSupported = ["ES256"]
        // The app and the CLI must push (the portal, a client inside the server, need not): per client, not for every client.
        document.requirePushedAuthorizationRequests = false
        document.claimsSupported = ["sub", "name", "email", "sid", "amr", "acr", "auth_time", "org"]
        // OIDC Back-Channel Logout 1.0 §2.1: every logout_token names its session (sid).
        document.backchannelLogoutSupported = true
        document.backchannelLogoutSessionSupported = true
        return document
    }
}
