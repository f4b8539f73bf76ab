/// What a route is registered with (``DeclaredRoutes``): who may call it, and who reads its answers.
struct RouteDeclaration: Sendable, Equatable {
    let policy: RoutePolicy
    let surface: Surface

    /// The development sandbox's own routes: its simulated providers check what they simulate, and
    /// answer programs (the broker, the app under test).
    static let sandbox = RouteDeclaration(policy: .sandbox, surface: .json)
}
