import AsyncHTTPClient
import Foundation
import Logging
import Personnummer
import PortvaktCore
import PortvaktDomain
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
    var refreshSecret: RefreshTokenSecret { RefreshTokenSecret(key: keys.key(for: .refreshTokenSuccessor)) }

    /// The app, the CLI and the portal (whose callback is under the issuer).
    var clients: [AppClient] { AppClient.builtIn(legacy: legacyClients) + [PortalClient.client(issuer: issuer)] }

    func client(_ id: String) -> AppClient? {
        clients.first { $0.id == id }
    }

    /// Decides what a login's personnummer does to the user's member records.
    var memberSyncPlanner: MemberSyncPlanner {
        let memberSystems = memberSystems
        return MemberSyncPlanner(store: store, vault: keys.vault, cipher: keys.cipher) { slug in await memberSystems.system(for: slug) != nil }
    }

    /// The administrators' review of the member-sync log.
    var conflictReview: ConflictReview {
        ConflictReview(store: store, vault: keys.vault, planner: memberSyncPlanner, now: now)
    }

    /// Queues emails; see ``Mailer``.
    var mailer: Mailer {
        let address = address
        return Mailer(store: store, cipher: keys.cipher, accountURL: { address.current + "/account" }, now: now)
    }

    /// An administrator's actions on members and deliveries.
    var memberAdministration: MemberAdministration { MemberAdministration(store: store, mailer: mailer, logger: logger, now: now) }

    /// Merging two accounts of one person.
    var accountMerge: AccountMerge { AccountMerge(store: store, vault: keys.vault, now: now) }

    /// The provider's callback: one path per provider, so a response cannot be replayed at the
    /// other provider's endpoint unnoticed (RFC 9700 §4.4, mix-up).
    func callbackURI(_ provider: IdentityProvider) -> String {
        "\(issuer)/oauth/callback/\(provider.rawValue)"
    }
}
