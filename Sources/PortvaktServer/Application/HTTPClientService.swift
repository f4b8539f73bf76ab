import AsyncHTTPClient
import NIOCore
import NIOSSL
import ServiceLifecycle

/// The HTTP client the broker calls BankID and Vipps with: no redirects followed, and shut down
/// with the server. The BankID order API has one of its own when it takes a client certificate.
struct HTTPClientService: Service {
    let client: HTTPClient

    init(timeout: Duration, tls: TLSConfiguration? = nil) {
        let seconds = TimeAmount(timeout)
        var configuration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: .init(connect: seconds, read: seconds)
        )
        configuration.httpVersion = .http1Only
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}

extension TimeAmount {
    /// A Swift `Duration` as NIO's time amount, to the nanosecond.
    init(_ duration: Duration) {
        self = .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}

/// Service Lifecycle logs a service by its description: the name, never the settings it holds.
extension HTTPClientService: CustomStringConvertible {
    var description: String { "HTTPClientService" }
}
