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
