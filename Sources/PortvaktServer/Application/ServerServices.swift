import AsyncHTTPClient
import Foundation
import Logging
import Personnummer
import PortvaktCore
import PortvaktDomain
import PortvaktStorage

/// The composition root: every service the routes use, each built once with only what it needs.
/// Only ``PortvaktApplication`` holds it; a route receives the few services it calls.
struct ServerServices: Sendable {
    let address: PublicAddress
    let signingKeys: SigningKeyCache
    let upstreams: UpstreamDirectory
    let memberSystems: MemberSystemDirectory
    let dpopNonces: DPoPNonces
    let clients: AppClients
    let dpop: DPoPCheck
    let tokens: TokenIssuer
    let verifier: AccessTokenVerifier
    let callers: CallerAuthenticator
    let sessions: SessionService
    let flows: LoginFlows
    let completion: LoginCompletion
    let identities: ProviderIdentities
    let authorizationRequests: AuthorizationRequests
    let passwordLogin: PasswordLogin
    let assertions: DeviceAssertionVerifier
    let devices: DeviceRegistry
    let unlock: DeviceUnlock
    let bankIDOrders: BankIDOrderFlow
    let profile: Profile
    let account: AccountService
    let portalSessions: PortalSessions
    let administration: AdministrationServices
    let invitations: PasswordInvitations
    let claims: MembershipClaims
    let browserBinding: BrowserBinding
    let passkeys: Passkeys
    let memberDirectory: MemberDirectory
    let scimTokens: SCIMTokens
    /// The app's own data: what a peer mentor logs, her contacts and expenses.
    let activities: ActivityLog
    let contacts: ContactBook
    let expenses: ExpenseClaims

    /// - Parameter http: the broker's HTTP client (no redirects), for clients' published keys;
    ///   nil in operator commands, which authenticate no client.
    init(
        configuration: ServerConfiguration, store: PortvaktStore, keys: DataProtectionKeys, sandboxEnabled: Bool, logger: Logger,
        http: (any OutboundHTTP)? = nil, now: @escaping @Sendable () -> Date
    ) {
        let lifetimes = configuration.lifetimes
        address = PublicAddress(configuration.publicURL)
        signingKeys = SigningKeyCache(store: store, cipher: keys.cipher)
        upstreams = UpstreamDirectory()
        memberSystems = MemberSystemDirectory(configuration.memberSystems)
        dpopNonces = DPoPNonces(key: keys.key(for: .dpopNonce))
        let throttle = LoginThrottle(
            store: store, hmacKey: keys.key(for: .throttleKeys), orderStartsPerAddress: configuration.bankIDOrdersPerAddress
        )
        let refreshSecret = RefreshTokenSecret(key: keys.key(for: .refreshTokenSuccessor))
        // Synthetic (test) personnummer are accepted only when the sandbox is on.
        let personnummerContext: Personnummer.Context = sandboxEnabled ? .test : .production

        clients = AppClients(
            registered: configuration.clients, address: address, store: store, logger: logger, now: now,
            publishedKeys: PublishedClientKeys(http: http, timeout: configuration.upstreamTimeout, now: now)
        )
        dpop = DPoPCheck(store: store, nonces: dpopNonces, headerKeys: DPoPHeaderKeys(), address: address, logger: logger, now: now)
        tokens = TokenIssuer(
            store: store, signingKeys: signingKeys, address: address, lifetimes: lifetimes,
            idTokenAlgorithms: Dictionary(uniqueKeysWithValues: configuration.clients.map { ($0.id, $0.idTokenAlgorithm) }), now: now
        )
        let tokenVerifier = TokenVerifier(signingKeys: signingKeys, address: address, clientIDs: Set(clients.all.map(\.id)), now: now)
        verifier = AccessTokenVerifier(store: store, tokens: tokenVerifier, dpop: dpop, logger: logger, now: now)
        callers = CallerAuthenticator(
            verifier: verifier, store: store, highAssuranceOrganisations: configuration.highAssuranceOrganisations,
            portvaktAPIClients: Set(configuration.clients.filter(\.portvaktAPI).map(\.id)), now: now
        )
        let clientOrganisations = Dictionary(uniqueKeysWithValues: configuration.clients.map { ($0.id, $0.organisations) })
        sessions = SessionService(
            store: store, tokens: tokens, verifier: tokenVerifier, refreshSecret: refreshSecret, idleLifetime: lifetimes.idle,
            clientOrganisations: clientOrganisations, logger: logger, now: now
        )

        let memberSystems = memberSystems
        let planner = MemberSyncPlanner(store: store, vault: keys.vault, cipher: keys.cipher) { slug in await memberSystems.system(for: slug) != nil }
        browserBinding = BrowserBinding(address: address, key: keys.key(for: .browserBinding))
        flows = LoginFlows(store: store, cipher: keys.cipher, lifetimes: lifetimes, address: address, binding: browserBinding, methods: OfferedMethods(configuration), now: now)
        completion = LoginCompletion(
            store: store, planner: planner, lifetimes: lifetimes,
            portal: .init(clientID: PortalClient.id, idle: PortalRoutes.idleLifetime, absolute: PortalRoutes.absoluteLifetime),
            address: address, policies: Dictionary(uniqueKeysWithValues: configuration.clients.map { ($0.id, $0.policy) }), logger: logger, now: now
        )
        let linker = IdentityLinker(store: store, vault: keys.vault)
        authorizationRequests = AuthorizationRequests(flows: flows, clients: clients, sessions: sessions)
        passwordLogin = PasswordLogin(store: store, checker: PasswordChecker(cost: configuration.bcryptCost), throttle: throttle, now: now)

        let address = address
        let brands = Brands(store: store)
        let mailer = Mailer(store: store, cipher: keys.cipher, accountURL: { address.current + "/account" }, now: now, brands: { await brands.mailBrand(organisationID: $0) })
        assertions = DeviceAssertionVerifier(
            store: store, throttle: throttle, publicAddress: address, challengeLifetime: lifetimes.deviceChallenge, logger: logger, now: now
        )
        devices = DeviceRegistry(store: store, throttle: throttle, mailer: mailer, lifetimes: lifetimes, publicAddress: address, logger: logger, now: now)
        unlock = DeviceUnlock(store: store, assertions: assertions, tokens: tokens, lifetimes: lifetimes, logger: logger)
        bankIDOrders = BankIDOrderFlow(
            store: store, throttle: throttle, cipher: keys.cipher, linker: linker, completion: completion, orderAPI: { [upstreams] in await upstreams.bankIDOrders },
            refreshSecret: refreshSecret, orderLifetime: lifetimes.bankIDOrder, personnummerContext: personnummerContext, logger: logger, now: now
        )

        profile = Profile(store: store, now: now)
        passkeys = Passkeys(
            store: store, mailer: mailer, trust: DeviceTrust(lifetimes: lifetimes), address: address,
            logger: logger, now: now
        )
        account = AccountService(
            store: store, sessions: sessions, export: PersonalDataExport(store: store, vault: keys.vault, now: now), passkeys: passkeys,
            clientNames: Dictionary(uniqueKeysWithValues: configuration.clients.compactMap { client in client.name.map { (client.id, $0) } }), now: now
        )
        portalSessions = PortalSessions(
            store: store, cipher: keys.cipher, sessions: sessions, address: address, csrfKey: PortalSessionCookie.csrfKey(keys), logger: logger
        )
        let review = ConflictReview(store: store, vault: keys.vault, planner: planner, now: now)
        administration = AdministrationServices(
            store: store, review: review, merge: AccountMerge(store: store, vault: keys.vault, now: now),
            administration: MemberAdministration(store: store, mailer: mailer, logger: logger, now: now),
            invitations: MemberInvitations(store: store, mailer: mailer, link: { address.current + PasswordInvitePage.path($0) }, now: now),
            suspension: MembershipSuspension(store: store, logger: logger, now: now),
            mailer: mailer, address: address, highAssuranceOrganisations: configuration.highAssuranceOrganisations, now: now
        )
        invitations = PasswordInvitations(store: store, mailer: mailer, passwordCost: configuration.bcryptCost, logger: logger, now: now)
        claims = MembershipClaims(
            store: store, cipher: keys.cipher, linker: linker, throttle: throttle, mailer: mailer, personnummerContext: personnummerContext,
            logger: logger, now: now
        )
        identities = ProviderIdentities(linker: linker, claims: claims, personnummerContext: personnummerContext, browserBinding: browserBinding)
        memberDirectory = MemberDirectory(
            store: store, vault: keys.vault, personnummerContext: personnummerContext,
            leaving: MembershipEnding(store: store, logger: logger, now: now), mailer: mailer, logger: logger, now: now
        )
        scimTokens = SCIMTokens(store: store, now: now)
        activities = ActivityLog(store: store, now: now)
        contacts = ContactBook(store: store, cipher: keys.cipher, now: now)
        expenses = ExpenseClaims(store: store, now: now)
    }
}
