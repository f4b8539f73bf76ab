import Hummingbird
import NIOCore
import PortvaktSandbox

/// The request context of every Portvakt route. It keeps the connection, which the sandbox's
/// `connection_drop` fault closes.
public struct PortvaktRequestContext: SandboxRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    /// The client's IP address: behind trusted proxies the one they forward for
    /// (``ClientAddressMiddleware``), otherwise the connection's peer.
    var resolvedClientAddress: String?

    var clientAddress: String {
        resolvedClientAddress ?? channel?.remoteAddress?.ipAddress ?? "unknown"
    }
}
