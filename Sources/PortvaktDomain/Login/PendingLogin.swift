import PortvaktModels

/// A login between `/oauth/authorize` and the code, stored sealed in `login_flows` and found by
/// the hash of its handle: the upstream `state` for BankID and Vipps, a form field for password.
public struct PendingLogin: Codable, Sendable {
    public var request: AppAuthorizationRequest
    public var method: IdentityProvider
    /// Upstream PKCE verifier and nonce; nil for password logins.
    public var upstreamVerifier: String?
    public var upstreamNonce: String?

    public init(request: AppAuthorizationRequest, method: IdentityProvider, upstreamVerifier: String? = nil, upstreamNonce: String? = nil) {
        self.request = request
        self.method = method
        self.upstreamVerifier = upstreamVerifier
        self.upstreamNonce = upstreamNonce
    }
}
