/// Which claims a session's tokens and userinfo carry, by the scopes it was granted (OIDC Core
/// §5.4): `name` with `profile`, `email` with `email`, and the organisations and roles, which say
/// a person belongs to a disability organisation (special-category data), only with Portvakt's
/// own `organisations`.
public struct ClaimScopes: Sendable, Hashable {
    public static let organisations = "organisations"
    /// What a session from before version 34 was granted (the sessions of Portvakt's own app):
    /// every claim, as its tokens carried then.
    public static let everything = "openid profile email organisations"

    public let scopes: Set<String>

    /// - Parameter scope: space-separated; nil for a session from before version 34.
    public init(_ scope: String?) {
        scopes = Set((scope ?? Self.everything).split(separator: " ").map(String.init))
    }

    /// The scopes that give claims beyond `sub` (what a consent page names).
    public var claimScopes: Set<String> { scopes.intersection(["profile", "email", Self.organisations]) }

    public var name: Bool { scopes.contains("profile") }
    public var email: Bool { scopes.contains("email") }
    public var organisations: Bool { scopes.contains(Self.organisations) }
}
