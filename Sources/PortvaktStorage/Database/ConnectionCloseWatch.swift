import PortvaktModels
import PostgresNIO
import Synchronization

/// The operations running on each leased connection, told together when it closes. One close
/// callback per connection for its whole life, since NIO keeps every callback added to a future
/// until it completes: one per operation would grow with every query on a busy connection.
final class ConnectionCloseWatch: Sendable {
    private struct State {
        /// Per connection seen open: its running operations' close handlers, by watch id.
        var running: [PostgresConnection.ID: [UInt64: @Sendable () -> Void]] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    /// Calls `onClose` if `connection` closes before ``forget(_:on:)``; at once if it is closed already.
    func watch(_ connection: PostgresConnection, onClose: @escaping @Sendable () -> Void) -> UInt64 {
        let (id, firstSeen) = state.withLock { state in
            state.nextID += 1
            let firstSeen = state.running[connection.id] == nil
            state.running[connection.id, default: [:]][state.nextID] = onClose
            return (state.nextID, firstSeen)
        }
        if firstSeen {
            let connectionID = connection.id
            connection.closeFuture.whenComplete { _ in self.closed(connectionID) }
        }
        return id
    }

    func forget(_ id: UInt64, on connection: PostgresConnection) {
        // The connection's entry stays while it is open: its close callback is registered.
        _ = state.withLock { $0.running[connection.id]?.removeValue(forKey: id) }
    }

    private func closed(_ connectionID: PostgresConnection.ID) {
        let handlers = state.withLock { $0.running.removeValue(forKey: connectionID) }
        handlers?.values.forEach { $0() }
    }
}

extension ConnectionCloseWatch {
    /// `operation`'s result, or ``StoreError/unavailable(_:)`` once `connection` has closed (250 ms
    /// after), whichever comes first. The pool can hand out a connection the server has just dropped (a restart, a
    /// failover, `pg_terminate_backend`) before it hears of the close; a query written to it then is
    /// lost without an error, and its caller would wait for ever, deaf to cancellation. So the caller
    /// stops waiting when the connection closes, and the lost query's task is left to nobody. A slow
    /// operation on a live connection (a migration waiting for another's lock) is not limited.
    func untilClosed<R: Sendable>(_ connection: PostgresConnection, _ operation: @escaping @Sendable () async throws -> R) async throws -> R {
        let work = Task { try await operation() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let answer = FirstAnswer(continuation)
                let watchID = self.watch(connection) {
                    // A COMMIT the server acknowledged just before closing is still on its way to the
                    // caller; a short grace keeps it from being answered "unavailable".
                    _ = connection.eventLoop.scheduleTask(in: .milliseconds(250)) {
                        answer.give(.failure(StoreError.unavailable("the database closed the connection")))
                    }
                }
                Task {
                    answer.give(await work.result)
                    self.forget(watchID, on: connection)
                }
            }
        } onCancel: {
            work.cancel()
        }
    }
}
