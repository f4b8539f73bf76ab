import AsyncHTTPClient
import Foundation
import Logging
import Personnummer
import PortvaktCore
import PortvaktStorage

/// What the broker's routes share: the store, keys, the app clients, the identity providers
/// and the settings. Built once per server.
struct Broker: Sendable {
    let store: PortvaktStore
    let keys: DataProtectionKeys
    let signingKeys: SigningKeyCache
    let address: PublicAddress
    let upstreams: UpstreamDirectory
    /// The organisations' own member systems, which get personnummer updates through the outbox.
    let memberSystems: MemberSystemDirectory
    let lifetimes: SessionLifetimes
    /// Synthetic (test) personnummer are accepted only when the sandbox is on.
    let personnummerContext: Personnummer.Context
    let passwords: PasswordChecker
    let throttle: LoginThrottle
    let logger: Logger
    let now: @Sendable () -> Date
    /// Built-in clients allowed to go without PAR and DPoP (`PORTVAKT_LEGACY_CLIENTS`).
    var legacyClients: Set<String> = []
    let dpopNonces: DPoPNonces
    let dpopHeaderKeys = DPoPHeaderKeys()

    var issuer: String { address.current }
    var refreshSecret: RefreshTokenSecret { RefreshTokenSecret(key: keys.refreshTokenKey) }

    /// The app, the CLI and the portal (whose callback is under the issuer).
    var clients: [AppClient] { AppClient.builtIn(legacy: legacyClients) + [PortalClient.client(issuer: issuer)] }

    func client(_ id: String) -> AppClient? {
        clients.first { $0.id == id }
    }

    /// The provider's callback: one path per provider, so a response cannot be replayed at the
    /// other provider's endpoint unnoticed (RFC 9700 §4.4, mix-up).
    func callbackURI(_ provider: IdentityProvider) -> String {
        "\(issuer)/oauth/callback/\(provider.rawValue)"
    }
}
