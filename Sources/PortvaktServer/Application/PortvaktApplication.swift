import Foundation
import Hummingbird
import Logging
import NIOCore
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktSandbox
import PortvaktStorage
import ServiceLifecycle

/// Builds the Portvakt server: database, keys, routes. Running it serves until SIGTERM or SIGINT,
/// then lets in-flight requests finish before closing the database.
public enum PortvaktApplication {
    /// - Parameters:
    ///   - configuration: parsed settings.
    ///   - logger: the logger every part logs to; wrap its handler in ``RedactingLogHandler``.
    ///   - clock: the broker's time (token lifetimes, order expiry); the system clock unless a test moves it.
    ///   - onRoutes: told every route as `METHOD /path` (a test walks them all with hostile input), and what
    ///     each was declared with (who may call it, who reads its answers).
    ///   - inProcess: answers requests with this server's router, without a socket: the broker's calls to the
    ///     embedded sandbox, and a test's (with `PORTVAKT_PUBLIC_URL` set, the server needs no listener).
    /// - Returns: an application whose `runService()` migrates, loads keys and serves.
    public static func build(
        configuration: ServerConfiguration,
        logger: Logger,
        clock: @escaping @Sendable () -> Date = { Date() },
        readiness: Readiness = Readiness(),
        onMetricsRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in },
        onRoutes: (_ served: [String], _ declared: RouteTable) -> Void = { _, _ in },
        inProcess: InProcessHTTP = InProcessHTTP(),
        onRunning: @escaping @Sendable (_ publicURL: String) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        let keys = try DataProtectionKeys.load(for: configuration, logger: logger)
        let driver = try await DatabaseConnection.open(configuration.database, logger: logger)
        let store = PortvaktStore(driver: driver, auditKeys: keys.auditKeys)
        let http = HTTPClientService(timeout: configuration.upstreamTimeout)
        let network = NetworkHTTP(client: http.client)
        // Its client certificate and BankID's CA are the order API's alone.
        let ordersHTTP = configuration.bankIDOrderAPI?.transportSecurity.map { HTTPClientService(timeout: configuration.upstreamTimeout, tls: $0) }
        // The embedded sandbox keeps the server's time: its auth_time is what step-up freshness counts from.
        let sandbox = try configuration.sandboxEnabled ? Sandbox(configuration: configuration.sandboxConfiguration(logger: logger, now: clock)) : nil
        let outbound: any OutboundHTTP = sandbox == nil ? network : inProcess
        let services = ServerServices(
            configuration: configuration, store: store, keys: keys, sandboxEnabled: sandbox != nil, logger: logger, http: outbound, now: clock
        )
        let mailWorker = try MailWorker(configuration: configuration, store: store, cipher: keys.cipher, readiness: readiness, logger: logger, now: clock)

        _ = PortvaktMetrics.registry
        var sandboxMailbox: SandboxMailboxPage?
        // Only while mail is delivered there: with SMTP on, its bodies (invitation links) stay unseen.
        if sandbox != nil, case .sandboxMailbox = mailWorker.delivery { sandboxMailbox = SandboxMailboxPage(store: store, cipher: keys.cipher) }
        let routes = declaredRoutes(
            services: services, configuration: configuration, driver: driver, readiness: readiness,
            metrics: configuration.metricsToken.map { MetricsRoutes(store: store, token: $0) }, sandboxMailbox: sandboxMailbox, now: clock
        )
        let (router, served, declared) = try makeRouter(routes, services: services, configuration: configuration, sandbox: sandbox, now: clock)
        onRoutes(served, declared)

        /// Points the broker at the embedded sandbox's providers and member systems, answered in process.
        @Sendable func connectSandbox(_ publicURL: String) async {
            guard let sandbox else { return }
            inProcess.answerLocally(publicURL: publicURL, pathPrefix: sandbox.configuration.pathPrefix)
            let unconfigured = [IdentityProvider.vipps, .bankid].filter { configuration.upstreams[$0] == nil }
            do {
                try await SandboxUpstreams.connect(
                    sandbox, providers: unconfigured, publicURL: publicURL, into: services.upstreams,
                    http: inProcess, timeout: configuration.upstreamTimeout, levels: configuration.withAssuranceLevels
                )
                await SandboxUpstreams.connectMemberSystems(
                    sandbox, publicURL: publicURL, into: services.memberSystems,
                    except: Set(configuration.memberSystems.map(\.organisation))
                )
                if configuration.bankIDOrderAPI == nil {
                    await SandboxUpstreams.connectOrders(
                        sandbox, publicURL: publicURL, into: services.upstreams, http: inProcess,
                        timeout: configuration.upstreamTimeout, startTimeout: configuration.bankIDOrderStartTimeout
                    )
                }
            } catch {
                logger.error("Could not connect the broker to the sandbox providers", metadata: ["error": "\(error)"])
            }
        }

        var app = Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [CloseAfterResponseHandler()], idleTimeout: Self.idleTimeout)),
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Portvakt"),
            services: [
                InProcessBinding(http: inProcess), driver, AuditLinkService(store: store, readiness: readiness, logger: logger),
                http, ExpiryPurgeService(store: store, readiness: readiness, logger: logger),
                ProviderWatch(upstreams: services.upstreams, logger: logger),
                OutboxWorker(
                    store: store, cipher: keys.cipher, memberSystems: services.memberSystems, http: outbound, readiness: readiness,
                    maxAttempts: configuration.outboxMaxAttempts, logger: logger, now: clock
                ),
                mailWorker,
                // Back-channel logouts go to the relying parties themselves, never to the sandbox.
                LogoutWorker(
                    store: store, clients: configuration.clients, tokens: services.tokens, http: network, readiness: readiness,
                    timeout: configuration.upstreamTimeout, logger: logger, now: clock
                ),
                IndexKeyGuard(
                    store: store, fingerprint: keys.indexKeyFingerprint, sealingAuditKeyID: keys.auditKeys.currentID, readiness: readiness, logger: logger
                ),
            ] + (ordersHTTP.map { [$0] } ?? []) + (configuration.metricsPort.map { [MetricsServer.application(port: $0, host: configuration.metricsHost, store: store, logger: logger, onRunning: onMetricsRunning)] } ?? []),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                let publicURL = configuration.publicURL(listeningOn: port)
                // A configured address was known, and the sandbox connected, before the server started.
                if !configuration.publicURLIsConfigured {
                    services.address.set(publicURL)
                    await connectSandbox(publicURL)
                }
                logger.notice("Portvakt is running: open \(publicURL)/", metadata: [
                    "mode": "\(configuration.environment.rawValue)", "database": "\(configuration.database)",
                    "sandbox": "\(configuration.sandboxEnabled ? "on" : "off")",
                ])
                if !configuration.clients.contains(where: \.portvaktAPI) {
                    logger.warning("No client in PORTVAKT_CLIENTS_FILE has portvakt_api: no app can use Portvakt's API (/v1) or unlock with a device key. Set \"portvakt_api\": true on the organisations' own app")
                }
                if configuration.environment == .development {
                    logger.warning("Development mode: development keys, and the sandbox's test people can sign in. For real users run `portvakt-server serve`")
                }
                await onRunning(publicURL)
            },
            logger: logger
        )
        app.beforeServerStarts {
            try await DatabaseConnection.waitUntilReachable(
                driver, database: configuration.database, wait: configuration.databaseWait, logger: logger
            )
            try await Migrator(driver: driver, logger: logger).migrate()
            try await IndexKeyGuard.checkBeforeStart(store, keys: keys)
            _ = try await services.signingKeys.current()
            var configured: [UpstreamProvider] = []
            for settings in configuration.upstreams.values {
                let provider = UpstreamProvider(settings: configuration.withAssuranceLevels(settings), http: outbound, timeout: configuration.upstreamTimeout)
                configured.append(provider)
                await services.upstreams.set(provider)
            }
            let orders = configuration.bankIDOrderAPI.map { settings in
                BankIDOrderAPI(settings: settings, http: ordersHTTP.map { NetworkHTTP(client: $0.client) } ?? outbound, timeout: configuration.upstreamTimeout)
            }
            if let orders { await services.upstreams.setBankIDOrders(orders, watched: true) }
            try await ProviderCheck.atStart(
                configured, orders: orders, record: { [upstreams = services.upstreams] in await upstreams.recordBankIDOrders($0) },
                refusing: configuration.environment == .production && !configuration.startsWithoutProviders, logger: logger
            )
            if sandbox != nil, configuration.developmentSeed {
                try await DevelopmentSeed.seed(store, vault: keys.vault, logger: logger)
            }
            if configuration.publicURLIsConfigured {
                services.address.set(configuration.publicURL)
                await connectSandbox(configuration.publicURL)
            }
            readiness.migrated()
        }
        let responder = app.responder
        inProcess.bind({ try await responder.respond(to: $0, context: $1) }, network: network, logger: logger)
        return app
    }

    /// Serves until SIGTERM or SIGINT, then drains: `/health/ready` answers 503 at once, requests
    /// in flight and the outbox's sends finish, and the process gives up waiting after
    /// `PORTVAKT_SHUTDOWN_SECONDS`.
    ///
    /// - Parameter observability: services that export what the server records (the span
    ///   exporter); they stop after the server, so that the last requests' spans are sent.
    public static func serve(configuration: ServerConfiguration, logger: Logger, observability: [any Service] = []) async throws {
        let readiness = Readiness()
        let app = try await build(configuration: configuration, logger: logger, readiness: readiness)
        var group = ServiceGroupConfiguration(
            // Telemetry that fails or ends does not take the login server with it.
            services: observability.map { .init(service: $0, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore) } + [.init(service: app), .init(service: DrainNotice(readiness: readiness))],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger
        )
        group.maximumGracefulShutdownDuration = configuration.shutdownTimeout
        try await ServiceGroup(configuration: group).run()
    }

    /// A connection that sends nothing for this long is closed: a keep-alive nobody uses, or a
    /// client that stopped sending in the middle of a request.
    static let idleTimeout = TimeAmount.seconds(60)

    /// Applies pending migrations and returns the versions applied, then closes the database.
    public static func migrate(configuration: ServerConfiguration, logger: Logger) async throws -> [Int] {
        let driver = try await DatabaseConnection.open(configuration.database, logger: logger)
        return try await driver.whileRunning {
            try await DatabaseConnection.waitUntilReachable(
                driver, database: configuration.database, wait: configuration.databaseWait, logger: logger
            )
            return try await Migrator(driver: driver, logger: logger).migrate()
        }
    }

    /// Sets a member's password (the email/password fallback). A member without an account gets
    /// one, with the roles of every member record carrying this email: that is the invitation.
    /// - Returns: the user's id.
    public static func setPassword(configuration: ServerConfiguration, logger: Logger, email: String, password: String) async throws -> String {
        guard PasswordChecker.isAcceptable(password) else {
            throw OperatorError.usage("the password must be 10 to 128 characters")
        }
        // bcrypt reads 72 bytes: a longer password would be cut without a word.
        guard password.utf8.count <= PasswordChecker.maximumBytes else {
            throw OperatorError.usage("the password has \(password.utf8.count) bytes, and bcrypt reads only \(PasswordChecker.maximumBytes) (fewer characters when it has æ, ø, å or others outside a–z)")
        }
        let hash = try await PasswordChecker.hash(password, cost: configuration.bcryptCost)
        return try await withStore(configuration: configuration, logger: logger) { store, _ in
            var records = try await store.memberRecords(email: email)
            if let existing = try await store.user(email: email) {
                // The address opens only what the organisations that recorded it hold (issue 58):
                // an account that belongs elsewhere too gets no password by this command.
                let recorded = Set(records.map(\.organisationId))
                guard try await store.memberOrganisationIDs(userID: existing.id).isSubset(of: recorded) else {
                    throw OperatorError.badData(
                        "the account with the email \(email) belongs to organisations whose member records do not carry that email; the person adds a password themselves or signs in with BankID or Vipps"
                    )
                }
            } else {
                guard !records.isEmpty else {
                    throw OperatorError.badData("no member record has the email \(email); the organisation must register the member first")
                }
                // A record with a personnummer becomes an account only through BankID or Vipps
                // (LinkingRule): that login comes first, and then this command adds the password.
                records = records.filter { $0.personnummer == nil }
                // A record another account holds (one linked by phone, say) stays that account's.
                var free: [MemberRecord] = []
                for record in records where try await store.user(holdingAnyOf: [record]) == nil { free.append(record) }
                records = free
                guard !records.isEmpty else {
                    throw OperatorError.badData(
                        "the member records with the email \(email) carry a national identity number or belong to another account: the person signs in with BankID or Vipps first, then a password can be set for that account"
                    )
                }
            }
            let user = try await store.setPassword(email: email, passwordHash: hash, memberRecords: records)
            try await store.append(AuditEvent(occurredAt: Date(), action: .userPasswordSet, outcome: "success", subjectType: "user", subjectID: user.id))
            return user.id
        }
    }

    /// Merges two accounts of one person (`portvakt-server merge-users`).
    /// - Throws: ``OperatorError`` (exit 64 or 65) for the same id twice, an unknown id, or
    ///   accounts that cannot be merged.
    public static func mergeUsers(configuration: ServerConfiguration, logger: Logger, keep: String, remove: String) async throws {
        guard keep != remove else { throw OperatorError.usage("--keep and --remove name the same account") }
        try await withStore(configuration: configuration, logger: logger) { store, keys in
            do {
                try await AccountMerge(store: store, vault: keys.vault, now: { Date() }).merge(keep: keep, remove: remove, by: nil, source: "cli")
            } catch let error as StoreError where error.isNotFound {
                throw OperatorError.badData("no account has the id \(keep) or \(remove) (`portvakt-server user find` shows an account's id)")
            } catch let error as DomainError {
                throw OperatorError.badData("the accounts cannot be merged: \(error.description)")
            }
        }
    }

    /// Walks the audit chain (`portvakt-server audit verify`).
    public static func verifyAuditChain(configuration: ServerConfiguration, logger: Logger) async throws -> AuditChainReport {
        try await withStore(configuration: configuration, logger: logger, checkingIndexKey: false) { store, _ in try await store.verifyAuditChain() }
    }

    /// Adds a signing key of each algorithm (published now, signing after the publication delay);
    /// returns them.
    public static func rotateSigningKey(configuration: ServerConfiguration, logger: Logger) async throws -> [SigningKey] {
        try await withStore(configuration: configuration, logger: logger) { store, keys in
            try await SigningKeySet.rotate(store, cipher: keys.cipher)
        }
    }

    /// Runs `body` with the store on the configured database, which must be migrated (else
    /// ``SchemaNotCurrent``), with the configured keys;
    /// for the operator's commands and for tests that look at what a server wrote.
    ///
    /// Refuses (``ConfigurationError``) what a server would refuse to start with: another index
    /// key than the database's, one during a reindex (see ``IndexKeyGuard``); only `reindex` and
    /// reading the audit trail go on (`checkingIndexKey` false).
    public static func withStore<R: Sendable>(
        configuration: ServerConfiguration, logger: Logger, checkingIndexKey: Bool = true,
        _ body: @escaping @Sendable (PortvaktStore, DataProtectionKeys) async throws -> R
    ) async throws -> R {
        let keys = try DataProtectionKeys.load(for: configuration, logger: logger)
        let driver = try await DatabaseConnection.open(configuration.database, logger: logger)
        return try await driver.whileRunning {
            let store = try await readyStore(driver, keys: keys, configuration: configuration, logger: logger, checkingIndexKey: checkingIndexKey)
            return try await body(store, keys)
        }
    }

    /// The database reachable and current (never migrated here: ``migrate(configuration:logger:)``
    /// and `serve` do that), and its index key checked. Apart from `withStore`'s
    /// generic closure: inlined there, Swift 6.3.1's optimiser crashes (signal 11 splitting the
    /// coroutine) in a release build.
    @inline(never)
    private static func readyStore(
        _ driver: any DatabaseDriver, keys: DataProtectionKeys, configuration: ServerConfiguration, logger: Logger, checkingIndexKey: Bool
    ) async throws -> PortvaktStore {
        try await DatabaseConnection.waitUntilReachable(driver, database: configuration.database, wait: configuration.databaseWait, logger: logger)
        let pending = try await Migrator(driver: driver, logger: logger).pendingVersions()
        guard pending.isEmpty else { throw SchemaNotCurrent(pending: pending) }
        let store = PortvaktStore(driver: driver, auditKeys: keys.auditKeys)
        if checkingIndexKey { try await IndexKeyGuard.checkBeforeStart(store, keys: keys) }
        return store
    }
}

extension ServerConfiguration {
    /// The public URL, with the real port when the configured one was 0 (any free port).
    func publicURL(listeningOn port: Int) -> String {
        self.port == 0 && !publicURLIsConfigured ? "http://\(host):\(port)" : publicURL
    }
}
