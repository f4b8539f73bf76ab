import Hummingbird
import NIOCore

/// A request context that can reach its connection, so the `connection_drop` fault can close it.
public protocol SandboxRequestContext: RequestContext {
    var channel: (any Channel)? { get }
}

/// The context of a sandbox that runs on its own.
public struct StandaloneSandboxContext: SandboxRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let channel: (any Channel)?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
