import Foundation
import PortvaktCore
import PortvaktStorage
import PortvaktDomain
import PortvaktModels

/// The logins in progress and the pushed requests (`LoginFlows+Pushed.swift`), sealed in
/// `login_flows`, so any instance can continue them.
struct LoginFlows: Sendable {
    let store: PortvaktStore
    let cipher: FieldCipher
    let lifetimes: SessionLifetimes
    let address: PublicAddress
    /// Binds each login sent to a provider to the browser that started it.
    let binding: BrowserBinding
    /// The ways in that are configured; the others are never shown.
    let methods: OfferedMethods
    /// The browser's single sign-on cookie.
    var singleSignOn: SingleSignOnCookie { SingleSignOnCookie(address: address) }
    let now: @Sendable () -> Date

    /// The provider's callback: one path per provider, so a response cannot be replayed at the
    /// other provider's endpoint unnoticed (RFC 9700 §4.4, mix-up).
    func callbackURI(_ provider: IdentityProvider) -> String {
        "\(address.current)/oauth/callback/\(provider.rawValue)"
    }

    /// Whether passkeys work here: the public URL names a domain, never an IP address (S18.5).
    var passkeysAvailable: Bool { address.relyingParty != nil }

    /// Stores the login and returns its handle (256 random bits).
    func begin(_ login: PendingLogin) async throws -> String {
        let handle = randomToken()
        let now = self.now()
        let data = try JSONEncoder().encode(login)
        _ = try await store.insertLoginFlow(
            kind: login.method.rawValue, stateHash: RefreshTokenSecret.hash(handle),
            expiresAt: now.addingTimeInterval(lifetimes.loginFlow), now: now
        ) { id in try cipher.seal(data, context: SealingContext.loginFlow(kind: login.method.rawValue, id: id)) }
        return handle
    }

    /// The open login for a handle; `take` removes it, so a replayed handle finds nothing.
    func pendingLogin(handle: String, take: Bool) async throws -> PendingLogin? {
        let hash = RefreshTokenSecret.hash(handle)
        let now = self.now()
        guard let flow = take ? try await store.takeLoginFlow(stateHash: hash, now: now) : try await store.loginFlow(stateHash: hash, now: now)
        else { return nil }
        // Another kind of row under this handle (a pushed request's) is not a login.
        guard IdentityProvider(rawValue: flow.kind) != nil else { return nil }
        let data = try cipher.open(flow.payload, context: SealingContext.loginFlow(kind: flow.kind, id: flow.id))
        let login = try JSONDecoder().decode(PendingLogin.self, from: data)
        return login.method.rawValue == flow.kind ? login : nil
    }
}
