import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktSandbox
import PortvaktStorage

extension PortvaktApplication {
    /// The router: its middlewares, then the server's routes behind them, then the sandbox's, then
    /// the 405 answers. Refuses (``ConfigurationError``) a route on the router that was registered
    /// without a declaration, say on the router itself by mistake.
    /// - Returns: the router, every route it serves before the 405 answers (`METHOD /path`), and
    ///   the declarations the middlewares read.
    static func makeRouter(
        _ routes: DeclaredRoutes, services: ServerServices, configuration: ServerConfiguration, sandbox: Sandbox?,
        now: @escaping @Sendable () -> Date
    ) throws -> (router: Router<PortvaktRequestContext>, served: [String], declared: RouteTable) {
        let declared = try routes.table(sandboxMounted: sandbox != nil)
        let router = Router(context: PortvaktRequestContext.self)
        let clientAddresses = ClientAddressResolver(trustedProxies: configuration.trustedProxies, header: configuration.proxyHeader, traceHeader: configuration.proxyTraceHeader)
        if configuration.tracing { router.add(middleware: RequestTracingMiddleware(resolver: clientAddresses)) }
        router.add(middleware: ClientAddressMiddleware(resolver: clientAddresses))
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: SecurityHeadersMiddleware(publicURL: configuration.publicURL))
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: UnexpectedErrorMiddleware(routes: declared))
        router.add(middleware: DPoPNonceMiddleware(nonces: services.dpopNonces, now: now))
        router.add(middleware: BrowserErrorPages(pages: .shared, routes: declared))
        router.add(middleware: ErrorAnswerMiddleware(routes: declared))
        router.add(middleware: RoutePolicyMiddleware(callers: services.callers, routes: declared))
        router.add(middleware: SameOriginFormMiddleware(address: services.address, routes: declared))
        routes.add(to: router)
        sandbox?.addRoutes(to: router)
        let served = router.routes.map(\.description)
        let undeclared = declared.undeclared(served)
        guard undeclared.isEmpty else {
            throw ConfigurationError("Routes without a declared caller (register them through DeclaredRoutes): \(undeclared.joined(separator: ", "))")
        }
        MethodNotAllowed.register(on: router)
        return (router, served, declared)
    }

    /// Every route of the server, each registered with who may call it and who reads its answers.
    /// - Parameters:
    ///   - metrics: the operator's `/metrics` on the main port, when `PORTVAKT_METRICS_TOKEN` is set.
    ///   - sandboxMailbox: the mailbox page, when the sandbox is on and mail is delivered there.
    static func declaredRoutes(
        services: ServerServices, configuration: ServerConfiguration, driver: any DatabaseDriver, readiness: Readiness,
        metrics: MetricsRoutes?, sandboxMailbox: SandboxMailboxPage?, now clock: @escaping @Sendable () -> Date
    ) -> DeclaredRoutes {
        let routes = DeclaredRoutes()
        let portal = PortalRoutes(
            portalSessions: services.portalSessions, account: services.account, sandboxEnabled: configuration.sandboxEnabled, methods: services.flows.methods
        )
        portal.register(on: routes)
        let brands = Brands(store: services.flows.store)
        brands.register(on: routes)
        AdminRoutes(portal: portal, services: services.administration, brands: brands).register(on: routes)
        PasswordInvitePage(invitations: services.invitations, address: services.address, pages: portal.pages).register(on: routes)
        HealthRoutes(driver: driver, readiness: readiness, upstreams: services.upstreams).register(on: routes)
        OpenAPIRoutes().register(on: routes)
        KeyRoutes(keys: services.signingKeys).register(on: routes)
        DiscoveryRoutes(clients: services.clients, flows: services.flows).register(on: routes)
        AuthorizeRoutes(
            requests: services.authorizationRequests, flows: services.flows, upstreams: services.upstreams, completion: services.completion
        ).register(on: routes)
        CallbackRoutes(flows: services.flows, completion: services.completion, upstreams: services.upstreams, identities: services.identities)
            .register(on: routes)
        PasswordRoutes(flows: services.flows, passwords: services.passwordLogin, completion: services.completion).register(on: routes)
        PasskeySignInRoutes(flows: services.flows, passkeys: services.passkeys, completion: services.completion).register(on: routes)
        ClaimRoutes(claims: services.claims, completion: services.completion, flows: services.flows).register(on: routes)
        TokenRoutes(clients: services.clients, dpop: services.dpop, sessions: services.sessions, unlock: services.unlock).register(on: routes)
        PushedRequestRoutes(clients: services.clients, dpop: services.dpop, flows: services.flows).register(on: routes)
        SessionRoutes(profile: services.profile, clients: services.clients, dpop: services.dpop, sessions: services.sessions).register(on: routes)
        MembersOnlyRoutes(clients: services.clients, organisations: services.clients.store, brands: brands).register(on: routes)
        ConsentRoutes(flows: services.flows, completion: services.completion, clients: services.clients).register(on: routes)
        BankIDOrderRoutes(flow: services.bankIDOrders, clients: services.clients, now: clock).register(on: routes)
        OtherDeviceRoutes(requests: services.authorizationRequests, flow: services.bankIDOrders, brands: brands, now: clock).register(on: routes)
        DeviceRoutes(devices: services.devices, callers: services.callers).register(on: routes)
        StepUpRoutes(assertions: services.assertions, devices: services.devices, passwords: services.passwordLogin, tokens: services.tokens).register(on: routes)
        MeRoutes(profile: services.profile, clients: services.clients, brands: brands).register(on: routes)
        ActivityRoutes(activities: services.activities).register(on: routes)
        ContactRoutes(contacts: services.contacts).register(on: routes)
        ExpenseRoutes(expenses: services.expenses).register(on: routes)
        MemberRoutes(administration: services.administration.administration, merge: services.administration.merge, now: clock).register(on: routes)
        MemberSyncRoutes(review: services.administration.review, administration: services.administration.administration, now: clock).register(on: routes)
        SCIMRoutes(directory: services.memberDirectory, tokens: services.scimTokens, address: services.address).register(on: routes)
        metrics?.register(on: routes)
        sandboxMailbox?.register(on: routes)
        return routes
    }
}
