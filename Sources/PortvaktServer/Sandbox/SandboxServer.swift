import Foundation
import Hummingbird
import Logging
import PortvaktSandbox

/// The sandbox on its own (`portvakt-server sandbox`): simulated BankID and Vipps with no
/// database, for a broker running elsewhere.
public enum SandboxServer {
    public static func build(configuration: ServerConfiguration, logger: Logger) throws -> some ApplicationProtocol {
        let sandbox = try Sandbox(configuration: configuration.sandboxConfiguration(logger: logger))
        let routes = DeclaredRoutes()
        routes.get("/health/live", .anonymous, surface: .json) { _, _ in HTTPResponse.Status.ok }
        let declared = try routes.table(sandboxMounted: true)
        let router = Router(context: PortvaktRequestContext.self)
        // The broker's error handling: every thrown error is an OAuth JSON body or a page, never a body-less 500.
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: SecurityHeadersMiddleware(publicURL: configuration.publicURL))
        router.add(middleware: UnexpectedErrorMiddleware(routes: declared))
        router.add(middleware: BrowserErrorPages(pages: .shared, routes: declared))
        routes.add(to: router)
        sandbox.addRoutes(to: router)
        return Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Portvakt sandbox"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? configuration.port
                logger.notice("Portvakt sandbox is running: \(configuration.publicURL(listeningOn: port))\(sandbox.configuration.pathPrefix)/")
            },
            logger: logger
        )
    }
}
