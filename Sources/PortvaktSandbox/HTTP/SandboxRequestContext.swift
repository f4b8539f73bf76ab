import Hummingbird
import NIOCore

/// What the sandbox needs of the request context of the server it runs in.
public protocol SandboxRequestContext: RequestContext {
    /// Ends the request's connection without an answer: the `connection_drop` fault.
    func dropConnection() async
}

/// The context of a sandbox that runs on its own.
public struct StandaloneSandboxContext: SandboxRequestContext {
    public var coreContext: CoreRequestContextStorage
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }

    public func dropConnection() async {
        try? await channel.close()
    }
}
