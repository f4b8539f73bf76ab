import PortvaktCore
import PortvaktHTTP
import Foundation
import Hummingbird

/// Simulated Vipps Login, BankID OIDC and the BankID order API, with test users and fault
/// injection. Mount it on a router (`portvakt-server dev` does, under `/sandbox`) or run it alone.
/// All state is in memory and safe to use from any task.
public struct Sandbox: Sendable {
    public let configuration: SandboxConfiguration
    let clients: ClientRegistry
    let faults: FaultBoard
    let orders: OrderBook
    let vipps: SimulatedProvider
    let bankID: SimulatedProvider
    let memberSystem = MemberSystem()

    /// Takes each provider's RSA keys (generated once per process: ``ProviderKeys/of(_:)``).
    public init(configuration: SandboxConfiguration) throws {
        self.configuration = configuration
        clients = ClientRegistry(configuration.clients)
        faults = FaultBoard(configuration.faults)
        orders = OrderBook()
        vipps = try SimulatedProvider(.vipps)
        bankID = try SimulatedProvider(.bankid)
    }

    /// Registers (or replaces) a client, as the providers' onboarding would.
    public func register(_ client: SandboxClient) async {
        await clients.register(client)
    }

    /// Registers an organisation's simulated member system with the secret its updates are signed with.
    public func registerMemberSystem(organisation slug: String, secret: String) async {
        await memberSystem.register(slug: slug, secret: secret)
    }

    /// Switches faults for a provider; an empty set switches them off.
    public func setFaults(_ settings: FaultSettings, for provider: SandboxProvider) async {
        await faults.set(settings, for: provider)
    }

    /// Adds every sandbox route under the configured path prefix.
    public func addRoutes<Context: SandboxRequestContext>(to router: Router<Context>) {
        // On the router, not a group, so that an outage also covers paths and methods with no route.
        router.add(middleware: FaultMiddleware(pathPrefix: configuration.pathPrefix, board: faults))
        let providers = router.group(RouterPath(configuration.pathPrefix))
        OIDCRoutes(sandbox: self, simulated: vipps).register(on: providers)
        OIDCRoutes(sandbox: self, simulated: bankID).register(on: providers)
        OrderRoutes(sandbox: self).register(on: providers)
        BankIDAppRoutes(sandbox: self).register(on: providers)
        MemberSystemRoutes(sandbox: self).register(on: providers)
        SandboxStylesheet.register(on: providers)
        SandboxAdminRoutes(sandbox: self).register(on: router.group(RouterPath(configuration.pathPrefix + "/admin")))
    }

    var now: Date { configuration.now() }

    /// The sandbox's stylesheet, under its path prefix.
    var stylesheetPath: String { configuration.pathPrefix + SandboxStylesheet.path }

    /// The base URL of the sandbox for this request: the configured public URL or the Host used.
    func baseURL(for request: Request) throws -> String {
        guard let base = configuration.publicURL ?? request.baseURLFromHost else {
            throw HTTPError(.badRequest, message: "The Host header is missing or malformed.")
        }
        return base + configuration.pathPrefix
    }
}

/// One simulated provider: its keys, its token forger and its codes and tokens.
struct SimulatedProvider: Sendable {
    let provider: SandboxProvider
    let keys: ProviderKeys
    let forger: TokenForger
    let state: ProviderState

    init(_ provider: SandboxProvider) throws {
        self.provider = provider
        keys = try ProviderKeys.of(provider)
        forger = TokenForger(keys: keys)
        state = ProviderState()
    }
}
