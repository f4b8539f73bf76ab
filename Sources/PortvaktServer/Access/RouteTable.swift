import HTTPTypes
import Hummingbird

/// Every route's declaration, keyed `METHOD /path` as the router lists its routes
/// (`GET /admin/{slug}/members`): collected as the routes are registered (``DeclaredRoutes``),
/// frozen before the server starts, and read by the middlewares for the route a request matched.
public struct RouteTable: Sendable {
    let declarations: [String: RouteDeclaration]
    /// Whether the sandbox's own routes are on the router: only then does its prefix declare a route.
    let sandboxMounted: Bool

    /// The development sandbox's routes: `/sandbox` and everything under it. `PortvaktSandbox`
    /// registers them itself and knows nothing of the server's declarations.
    static let sandboxPrefix = "/sandbox"

    static func route(_ method: HTTPRequest.Method, _ path: RouterPath) -> String {
        "\(method.rawValue) \(path.description)"
    }

    /// `route`'s declaration: as registered, or the sandbox's for a route under its prefix.
    func declaration(of route: String) -> RouteDeclaration? {
        if let declared = declarations[route] { return declared }
        return sandboxMounted && Self.isSandbox(route) ? RouteDeclaration.sandbox : nil
    }

    /// Whether `route` (`METHOD /path`) is `/sandbox` or under it.
    static func isSandbox(_ route: String) -> Bool {
        let path = route.split(separator: " ", maxSplits: 1).last.map(String.init) ?? ""
        return path == sandboxPrefix || path.hasPrefix(sandboxPrefix + "/")
    }

    /// Whether `path` is `/scim` or under it, where the member systems' routes are. Read by its
    /// first segment, as the router reads it (`//scim/v2/Users` is `/scim/v2/Users` to it).
    static func isSCIM(_ path: String) -> Bool {
        path.split(separator: "/").first == "scim"
    }

    /// The declaration of the route `request` matched; nil when it matched none (404), and for
    /// the 405 answers to the methods a path does not serve (``MethodNotAllowed``).
    func declaration(of request: Request, context: some RequestContext) -> RouteDeclaration? {
        guard let path = context.endpointPath else { return nil }
        return declaration(of: "\(request.method.rawValue) \(path)")
    }

    /// Who reads the answer to `request`: its route's declared surface. A request no declared
    /// route answers (an unknown address, a method the address does not take) is answered in
    /// SCIM's shape under `/scim` (only member systems call there), else as its client asks: a page
    /// to a browser (`text/html` in `Accept`, ``BrowserErrorPages``), JSON to a program.
    func surface(of request: Request, context: some RequestContext) -> Surface {
        if let declared = declaration(of: request, context: context) { return declared.surface }
        if Self.isSCIM(request.uri.path) { return .scim }
        return request.headers[.accept]?.contains("text/html") == true ? .page : .json
    }

    /// The routes of `routes` (`METHOD /path`) without a declaration; the server refuses to start with any.
    func undeclared(_ routes: [String]) -> [String] {
        routes.filter { declaration(of: $0) == nil }
    }
}
