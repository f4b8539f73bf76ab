import ServiceLifecycle

/// Runs `work` every `interval` until graceful shutdown; a run under way when it begins finishes first.
func repeatUntilShutdown(every interval: Duration, _ work: @escaping @Sendable () async -> Void) async {
    try? await cancelWhenGracefulShutdown {
        while !Task.isCancelled {
            try await Task.sleep(for: interval)
            await work()
        }
    }
}

/// Waits `interval`, or less when graceful shutdown begins: a worker between rounds holds up no shutdown.
func pauseUnlessShuttingDown(for interval: Duration) async {
    try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
}
