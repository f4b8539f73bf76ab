/// A relying party registered with a simulated provider, as the provider's merchant portal or
/// client registration would hold it.
public struct SandboxClient: Sendable, Hashable, Codable {
    /// RFC 7591 §2 `token_endpoint_auth_method`.
    public enum AuthMethod: String, Sendable, Hashable, Codable {
        case clientSecretBasic = "client_secret_basic"
        case clientSecretPost = "client_secret_post"
        case privateKeyJWT = "private_key_jwt"
    }

    public var provider: SandboxProvider
    public var clientID: String
    public var clientSecret: String?
    /// The client's public keys (a JWKS document) for `private_key_jwt`.
    public var jwks: String?
    public var authMethod: AuthMethod
    /// Compared exactly, character for character.
    public var redirectURIs: [String]
    /// Whether the provider approved this client for the personnummer scope (Vipps requires an
    /// application for `nin`).
    public var personnummerApproved: Bool

    public init(
        provider: SandboxProvider, clientID: String, clientSecret: String? = nil, jwks: String? = nil,
        authMethod: AuthMethod = .clientSecretBasic, redirectURIs: [String], personnummerApproved: Bool = true
    ) {
        self.provider = provider
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.jwks = jwks
        self.authMethod = authMethod
        self.redirectURIs = redirectURIs
        self.personnummerApproved = personnummerApproved
    }

    enum CodingKeys: String, CodingKey {
        case provider
        case clientID = "client_id"
        case clientSecret = "client_secret"
        case jwks
        case authMethod = "token_endpoint_auth_method"
        case redirectURIs = "redirect_uris"
        case personnummerApproved = "personnummer_approved"
    }

    /// Registration documents may leave out the method (basic) and the approval (granted).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            provider: try container.decode(SandboxProvider.self, forKey: .provider),
            clientID: try container.decode(String.self, forKey: .clientID),
            clientSecret: try container.decodeIfPresent(String.self, forKey: .clientSecret),
            jwks: try container.decodeIfPresent(String.self, forKey: .jwks),
            authMethod: try container.decodeIfPresent(AuthMethod.self, forKey: .authMethod) ?? .clientSecretBasic,
            redirectURIs: try container.decode([String].self, forKey: .redirectURIs),
            personnummerApproved: try container.decodeIfPresent(Bool.self, forKey: .personnummerApproved) ?? true
        )
    }

    /// What the admin API shows: everything but the secret.
    var summary: Summary {
        Summary(provider: provider, clientID: clientID, authMethod: authMethod, redirectURIs: redirectURIs, personnummerApproved: personnummerApproved)
    }

    struct Summary: Codable, Sendable {
        let provider: SandboxProvider
        let clientID: String
        let authMethod: AuthMethod
        let redirectURIs: [String]
        let personnummerApproved: Bool

        enum CodingKeys: String, CodingKey {
            case provider
            case clientID = "client_id"
            case authMethod = "token_endpoint_auth_method"
            case redirectURIs = "redirect_uris"
            case personnummerApproved = "personnummer_approved"
        }
    }
}
