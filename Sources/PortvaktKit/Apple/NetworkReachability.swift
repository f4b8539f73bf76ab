#if canImport(Network)
import Foundation
import Network

/// ``Reachability`` on `NWPathMonitor`: online while the path is `.satisfied`. One monitor,
/// started once and cancelled with this object (a started monitor keeps itself alive).
public final class NetworkReachability: Reachability {
    private let monitor = NWPathMonitor()
    private let state = Locked<(online: Bool, listeners: [UInt64: AsyncStream<Bool>.Continuation], next: UInt64)>((true, [:], 0))

    public init() {
        monitor.pathUpdateHandler = { [state] path in
            let online = path.status == .satisfied
            let listeners = state.withLock { current -> [AsyncStream<Bool>.Continuation] in
                guard current.online != online else { return [] }
                current.online = online
                return Array(current.listeners.values)
            }
            for listener in listeners { listener.yield(online) }
        }
        monitor.start(queue: DispatchQueue(label: "no.portvakt.reachability"))
    }

    deinit {
        monitor.cancel()
    }

    public var isOnline: Bool {
        get async { state.withLock { $0.online } }
    }

    public func changes() -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
        let id = state.withLock { current in
            defer { current.next += 1 }
            current.listeners[current.next] = continuation
            return current.next
        }
        continuation.onTermination = { [state] _ in _ = state.withLock { $0.listeners.removeValue(forKey: id) } }
        return stream
    }
}
#endif
