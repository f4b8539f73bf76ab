/// A first-come, first-served lock for async code, so that a single SQLite connection runs one
/// transaction at a time. (Neither the standard library nor NIO offers an async mutex.)
actor AsyncLock {
    private var isLocked = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func withLock<R: Sendable>(_ body: @Sendable () async throws -> R) async throws -> R {
        await lock()
        defer { unlock() }
        return try await body()
    }

    private func lock() async {
        guard isLocked else {
            isLocked = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func unlock() {
        if waiters.isEmpty {
            isLocked = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
