/// The identity providers the sandbox simulates, with the paths the real ones use.
public enum SandboxProvider: String, Sendable, Hashable, Codable, CaseIterable {
    case vipps
    case bankid

    /// The issuer, relative to the sandbox's base URL. Vipps: `api.vipps.no/access-management-1.0/access/`;
    /// BankID: a Keycloak realm, `auth.bankid.no/auth/realms/prod`.
    var issuerPath: String {
        switch self {
        case .vipps: "/vipps/access-management-1.0/access/"
        case .bankid: "/bankid/auth/realms/current"
        }
    }

    public var discoveryPath: String {
        switch self {
        case .vipps: "/vipps/access-management-1.0/access/.well-known/openid-configuration"
        case .bankid: "/bankid/auth/realms/current/.well-known/openid-configuration"
        }
    }

    var authorizationPath: String {
        switch self {
        case .vipps: "/vipps/access-management-1.0/access/oauth2/auth"
        case .bankid: "/bankid/auth/realms/current/protocol/openid-connect/auth"
        }
    }

    var tokenPath: String {
        switch self {
        case .vipps: "/vipps/access-management-1.0/access/oauth2/token"
        case .bankid: "/bankid/auth/realms/current/protocol/openid-connect/token"
        }
    }

    var userinfoPath: String {
        switch self {
        case .vipps: "/vipps/vipps-userinfo-api/userinfo"
        case .bankid: "/bankid/auth/realms/current/protocol/openid-connect/userinfo"
        }
    }

    var jwksPath: String {
        switch self {
        case .vipps: "/vipps/access-management-1.0/access/.well-known/jwks.json"
        case .bankid: "/bankid/auth/realms/current/protocol/openid-connect/certs"
        }
    }

    /// The first path segment under the sandbox prefix; faults apply to everything below it.
    var segment: String { rawValue }

    /// Scopes the provider knows. `openid` is required.
    var supportedScopes: Set<String> {
        switch self {
        case .vipps: ["openid", "name", "phoneNumber", "address", "birthDate", "email", "nin"]
        case .bankid: ["openid", "profile", "nnin_altsub", "nnin"]
        }
    }

    /// The scope that releases the personnummer: Vipps `nin` (userinfo), BankID `nnin_altsub` (ID token).
    var personnummerScope: String { self == .vipps ? "nin" : "nnin_altsub" }

    var displayName: String { self == .vipps ? "Vipps" : "BankID" }
}
