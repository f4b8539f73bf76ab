import Hummingbird
import HummingbirdAuth
import NIOCore
import PortvaktSandbox

/// The request context of every Portvakt route. It keeps the connection, which the sandbox's
/// `connection_drop` fault closes.
public struct PortvaktRequestContext: SandboxRequestContext, AuthRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The client's IP address: behind trusted proxies the one they forward for
    /// (``ClientAddressMiddleware``), otherwise the connection's peer.
    var resolvedClientAddress: String?

    /// The API caller, put here by ``RoutePolicyMiddleware`` on the routes that need one.
    public var identity: APICaller?

    var clientAddress: String {
        resolvedClientAddress ?? channel?.remoteAddress?.ipAddress ?? "unknown"
    }
}
