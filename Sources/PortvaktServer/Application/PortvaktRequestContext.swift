import Hummingbird
import HummingbirdAuth
import Logging
import NIOCore
import PortvaktSandbox

/// The request context of every Portvakt route: the connection it came on (a socket, or none for a
/// request answered in process by ``InProcessHTTP``), the client's address and the API caller.
public struct PortvaktRequestContext: SandboxRequestContext, AuthRequestContext {
    public var coreContext: CoreRequestContextStorage
    private let connection: Connection
    /// The address at the connection's other end; this machine for a request answered in process.
    let peer: String?

    private enum Connection {
        case socket(any Channel)
        case inProcess(InProcessConnection)
    }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        connection = .socket(source.channel)
        peer = source.channel.remoteAddress?.ipAddress
    }

    init(inProcess connection: InProcessConnection, logger: Logger) {
        coreContext = .init(source: InProcessSource(logger: logger))
        self.connection = .inProcess(connection)
        peer = "127.0.0.1"
    }

    /// The client's IP address: behind trusted proxies the one they forward for
    /// (``ClientAddressMiddleware``), otherwise the connection's peer.
    var resolvedClientAddress: String?

    /// The API caller, put here by ``RoutePolicyMiddleware`` on the routes that need one.
    public var identity: APICaller?

    var clientAddress: String {
        resolvedClientAddress ?? peer ?? "unknown"
    }

    public func dropConnection() async {
        switch connection {
        case .socket(let channel): try? await channel.close()
        case .inProcess(let connection): connection.drop()
        }
    }
}

private struct InProcessSource: RequestContextSource {
    let logger: Logger
}
