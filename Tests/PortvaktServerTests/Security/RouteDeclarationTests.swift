import Hummingbird
import PortvaktCore
import Testing
@testable import PortvaktServer

/// How routes are declared (issue 48 item 5): the mistakes the server refuses to start with.
@Suite("Route declarations")
struct RouteDeclarationTests {
    @Test("A route registered twice, or given the sandbox's policy outside a mounted sandbox, stops the server at start")
    func refusedDeclarations() throws {
        let twice = DeclaredRoutes()
        twice.get("/v1/me", .member, surface: .json) { _, _ in HTTPResponse.Status.ok }
        twice.group("/v1").get("/me", .anonymous, surface: .json) { _, _ in HTTPResponse.Status.ok }
        #expect(throws: ConfigurationError.self) { try twice.table(sandboxMounted: false) }

        let outside = DeclaredRoutes()
        outside.post("/account/reset", .sandbox, surface: .page) { _, _ in HTTPResponse.Status.ok }
        #expect(throws: ConfigurationError.self) { try outside.table(sandboxMounted: true) }

        let unmounted = DeclaredRoutes()
        unmounted.get("/sandbox/mailbox", .sandbox, surface: .page) { _, _ in HTTPResponse.Status.ok }
        #expect(throws: ConfigurationError.self) { try unmounted.table(sandboxMounted: false) }
        let mounted = try unmounted.table(sandboxMounted: true)
        #expect(mounted.declaration(of: "GET /sandbox/mailbox")?.surface == .page)
        #expect(mounted.declaration(of: "GET /sandbox/vipps/anything")?.policy.caller == .sandbox, "the sandbox package's own routes")
    }

    @Test("Without a mounted sandbox, nothing under /sandbox is declared")
    func noSandboxPrefixWithoutASandbox() throws {
        let table = try DeclaredRoutes().table(sandboxMounted: false)
        #expect(table.undeclared(["GET /sandbox/vipps/anything"]) == ["GET /sandbox/vipps/anything"])
    }
}
