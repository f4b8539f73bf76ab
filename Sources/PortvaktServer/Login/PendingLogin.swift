import Foundation
import PortvaktCore
import PortvaktStorage

/// A login between `/oauth/authorize` and the code, stored sealed in `login_flows` and found by
/// the hash of its handle: the upstream `state` for BankID and Vipps, a form field for password.
struct PendingLogin: Codable, Sendable {
    var request: AppAuthorizationRequest
    var method: IdentityProvider
    /// Upstream PKCE verifier and nonce; nil for password logins.
    var upstreamVerifier: String?
    var upstreamNonce: String?
}

extension Broker {
    /// Stores the login and returns its handle (256 random bits).
    func begin(_ login: PendingLogin) async throws -> String {
        let handle = randomToken()
        let now = self.now()
        let data = try JSONEncoder().encode(login)
        _ = try await store.insertLoginFlow(
            kind: login.method.rawValue, stateHash: RefreshTokenSecret.hash(handle),
            expiresAt: now.addingTimeInterval(lifetimes.loginFlow), now: now
        ) { id in try keys.cipher.seal(data, context: "login-flow:\(id)") }
        return handle
    }

    /// The open login for a handle; `take` removes it, so a replayed handle finds nothing.
    func pendingLogin(handle: String, take: Bool) async throws -> PendingLogin? {
        let hash = RefreshTokenSecret.hash(handle)
        let now = self.now()
        guard let flow = take ? try await store.takeLoginFlow(stateHash: hash, now: now) : try await store.loginFlow(stateHash: hash, now: now)
        else { return nil }
        let data = try keys.cipher.open(flow.payload, context: "login-flow:\(flow.id)")
        let login = try JSONDecoder().decode(PendingLogin.self, from: data)
        return login.method.rawValue == flow.kind ? login : nil
    }
}
