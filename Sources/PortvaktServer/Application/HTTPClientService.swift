import AsyncHTTPClient
import NIOCore
import ServiceLifecycle

/// The HTTP client the broker calls BankID and Vipps with: no redirects followed, and shut down
/// with the server.
struct HTTPClientService: Service {
    let client: HTTPClient

    init(timeout: Duration) {
        let seconds = TimeAmount.seconds(timeout.components.seconds)
        var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, timeout: .init(connect: seconds, read: seconds))
        configuration.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}
