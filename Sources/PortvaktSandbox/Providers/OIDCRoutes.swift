import PortvaktCore
import PortvaktHTTP
import Foundation
import Hummingbird

/// One simulated OpenID Connect provider's endpoints: discovery, JWKS, authorize, token, userinfo.
struct OIDCRoutes<Context: SandboxRequestContext>: Sendable {
    let sandbox: Sandbox
    let simulated: SimulatedProvider
    var provider: SandboxProvider { simulated.provider }

    func register(on group: RouterGroup<Context>) {
        group.get(RouterPath(provider.discoveryPath)) { request, _ in
            try Responses.json(discovery(base: try sandbox.baseURL(for: request)))
        }
        group.get(RouterPath(provider.jwksPath)) { _, _ in
            try Responses.json(simulated.keys.jwks())
        }
        group.get(RouterPath(provider.authorizationPath)) { request, _ in
            try await authorize(request, choice: nil)
        }
        group.post(RouterPath(provider.authorizationPath)) { request, _ in
            let form = try await request.formFields()
            return try await authorize(request, choice: (user: form["user"], action: form["action"] ?? "approve"))
        }
        group.post(RouterPath(provider.tokenPath)) { request, _ in
            try await token(request)
        }
        group.get(RouterPath(provider.userinfoPath)) { request, _ in
            try await userinfo(request)
        }
        group.post(RouterPath(provider.userinfoPath)) { request, _ in
            try await userinfo(request)
        }
    }

    /// OpenID Connect Discovery 1.0 §3, with what the real provider advertises.
    func discovery(base: String) -> OpenIDProviderMetadata {
        let bankID = provider == .bankid
        var document = OpenIDProviderMetadata(
            issuer: issuer(base: base), authorizationEndpoint: base + provider.authorizationPath, tokenEndpoint: base + provider.tokenPath,
            jwksURI: base + provider.jwksPath
        )
        document.userinfoEndpoint = base + provider.userinfoPath
        document.scopesSupported = provider.supportedScopes.sorted()
        document.responseTypesSupported = ["code"]
        document.grantTypesSupported = ["authorization_code"]
        document.subjectTypesSupported = ["pairwise"]
        document.idTokenSigningAlgValuesSupported = ["RS256"]
        document.tokenEndpointAuthMethodsSupported = bankID
            ? ["client_secret_basic", "client_secret_post", "private_key_jwt"] : ["client_secret_basic", "client_secret_post"]
        document.codeChallengeMethodsSupported = ["S256"]
        document.acrValuesSupported = bankID ? ["urn:bankid:bid", "urn:bankid:bis"] : nil
        document.uiLocalesSupported = ["nb", "en"]
        document.authorizationResponseIssParameterSupported = bankID
        return document
    }

    func issuer(base: String) -> String {
        base + provider.issuerPath
    }

    /// OpenID Connect Core §5.3: the claims the access token's scopes release.
    private func userinfo(_ request: Request) async throws -> Response {
        guard let token = request.bearerToken, let access = await simulated.state.accessGrant(for: token, now: sandbox.now) else {
            return try Responses.json(
                ["error": "invalid_token", "error_description": "The access token is missing, unknown or expired."],
                status: .unauthorized, headers: [.wwwAuthenticate: #"Bearer error="invalid_token""#]
            )
        }
        let grant = access.grant
        let user = grant.user
        let faults = await sandbox.faults.settings(for: provider)
        let client = await sandbox.clients.client(grant.clientID, at: provider)
        let releasesPersonnummer = client?.personnummerApproved == true && !faults.contains(.personnummerMissing)
        var info = UserInfo(sub: provider == .vipps ? user.vippsSubject : user.bankIDSubject, sid: grant.sessionID)
        switch provider {
        case .vipps:
            if grant.scopes.contains("name") {
                info.name = user.name
                info.givenName = user.givenName
                info.familyName = user.familyName
            }
            if grant.scopes.contains("phoneNumber") { info.phoneNumber = user.vippsPhoneNumber }
            if grant.scopes.contains("birthDate") { info.birthdate = user.birthdate }
            if grant.scopes.contains("email") {
                info.email = user.email
                info.emailVerified = true
            }
            if grant.scopes.contains("address") {
                info.address = .init(streetAddress: "Sandkassegata 1", postalCode: "0150", region: "Oslo", country: "NO")
            }
            if grant.scopes.contains("nin"), releasesPersonnummer { info.nin = faults.released(user.personnummer) }
        case .bankid:
            if grant.scopes.contains("profile") {
                info.name = user.name
                info.givenName = user.givenName
                info.familyName = user.familyName
                info.birthdate = user.birthdate
            }
            if grant.scopes.contains("nnin"), releasesPersonnummer { info.nnin = faults.released(user.personnummer) }
        }
        return try Responses.json(info)
    }
}

/// Userinfo claims (OpenID Connect Core §5.1), plus Vipps `nin` and BankID `nnin`.
struct UserInfo: Codable, Sendable {
    struct Address: Codable, Sendable {
        let streetAddress: String
        let postalCode: String
        let region: String
        let country: String

        enum CodingKeys: String, CodingKey {
            case streetAddress = "street_address"
            case postalCode = "postal_code"
            case region, country
        }
    }

    var sub: String
    var sid: String
    var name: String?
    var givenName: String?
    var familyName: String?
    var birthdate: String?
    var phoneNumber: String?
    var email: String?
    var emailVerified: Bool?
    var address: Address?
    var nin: String?
    var nnin: String?

    init(sub: String, sid: String) {
        self.sub = sub
        self.sid = sid
    }

    enum CodingKeys: String, CodingKey {
        case sub, sid, name, birthdate, email, address, nin, nnin
        case givenName = "given_name"
        case familyName = "family_name"
        case phoneNumber = "phone_number"
        case emailVerified = "email_verified"
    }
}
