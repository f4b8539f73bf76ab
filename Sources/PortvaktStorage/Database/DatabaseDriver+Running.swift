extension DatabaseDriver {
    /// Runs the driver (the PostgreSQL pool needs its run loop) for as long as `body` takes,
    /// for one-shot work outside a service group: migrations, key rotation, tests.
    public func whileRunning<R: Sendable>(_ body: @escaping @Sendable () async throws -> R) async throws -> R {
        try await withThrowingTaskGroup(of: R?.self) { group in
            group.addTask {
                try await self.run()
                return nil
            }
            defer { group.cancelAll() }
            return try await body()
        }
    }
}
