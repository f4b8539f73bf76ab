import HTTPTypes
import Hummingbird
import PortvaktCore

/// Where the server's routes are registered, each with its declaration: who may call it
/// (``RoutePolicy``) and who reads its answers (``Surface``). A route file registers here, never on
/// the router: the routes are collected first, their declarations frozen into the ``RouteTable``
/// the middlewares read, and only then added to the router, behind those middlewares (a router's
/// middleware wraps only the routes added after it).
struct DeclaredRoutes {
    typealias Context = PortvaktRequestContext

    private let collection: RouteCollection<Context>
    private let declarations: Declarations
    /// The group's path, in front of each of its routes' paths.
    private let prefix: RouterPath

    init() {
        self.init(collection: RouteCollection(context: Context.self), declarations: Declarations(), prefix: "")
    }

    private init(collection: RouteCollection<Context>, declarations: Declarations, prefix: RouterPath) {
        self.collection = collection
        self.declarations = declarations
        self.prefix = prefix
    }

    /// The routes registered on the group are under `path`, and declared under their full path.
    func group(_ path: RouterPath) -> DeclaredRoutes {
        DeclaredRoutes(collection: collection, declarations: declarations, prefix: prefix.appendingPath(path))
    }

    func get(
        _ path: RouterPath, _ policy: RoutePolicy, surface: Surface,
        use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) {
        on(path, method: .get, policy, surface: surface, use: handler)
    }

    func post(
        _ path: RouterPath, _ policy: RoutePolicy, surface: Surface,
        use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) {
        on(path, method: .post, policy, surface: surface, use: handler)
    }

    func put(
        _ path: RouterPath, _ policy: RoutePolicy, surface: Surface,
        use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) {
        on(path, method: .put, policy, surface: surface, use: handler)
    }

    func patch(
        _ path: RouterPath, _ policy: RoutePolicy, surface: Surface,
        use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) {
        on(path, method: .patch, policy, surface: surface, use: handler)
    }

    func delete(
        _ path: RouterPath, _ policy: RoutePolicy, surface: Surface,
        use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) {
        on(path, method: .delete, policy, surface: surface, use: handler)
    }

    func on(
        _ path: RouterPath, method: HTTPRequest.Method, _ policy: RoutePolicy, surface: Surface,
        use handler: @Sendable @escaping (Request, Context) async throws -> some ResponseGenerator
    ) {
        let path = prefix.appendingPath(path)
        declarations.add(RouteTable.route(method, path), RouteDeclaration(policy: policy, surface: surface))
        collection.on(path, method: method, use: handler)
    }

    /// The declarations, frozen for the middlewares. A route registered twice is refused: the
    /// router would keep one handler, and the table one declaration, perhaps not the same one's. So
    /// is the sandbox's policy (no check at all) on a route outside the sandbox's path, or on any
    /// route of a server that mounts no sandbox.
    func table(sandboxMounted: Bool) throws -> RouteTable {
        guard declarations.repeated.isEmpty else {
            throw ConfigurationError("Routes registered twice: \(declarations.repeated.joined(separator: ", "))")
        }
        let misplaced = declarations.byRoute.filter { route, declaration in
            declaration.policy.caller == .sandbox && !(sandboxMounted && RouteTable.isSandbox(route))
        }
        guard misplaced.isEmpty else {
            throw ConfigurationError("Routes with the sandbox's policy outside a mounted sandbox: \(misplaced.keys.sorted().joined(separator: ", "))")
        }
        return RouteTable(declarations: declarations.byRoute, sandboxMounted: sandboxMounted)
    }

    /// Adds the routes to `router`, behind the middlewares it has now.
    func add(to router: Router<Context>) {
        router.addRoutes(collection)
    }
}

/// The declarations registered so far, shared by a ``DeclaredRoutes`` and its groups while the
/// server is built.
private final class Declarations {
    private(set) var byRoute: [String: RouteDeclaration] = [:]
    private(set) var repeated: [String] = []

    func add(_ route: String, _ declaration: RouteDeclaration) {
        if byRoute.updateValue(declaration, forKey: route) != nil { repeated.append(route) }
    }
}
