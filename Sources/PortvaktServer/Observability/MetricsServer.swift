import Hummingbird
import Logging
import ServiceLifecycle

/// `/metrics` alone on `PORTVAKT_METRICS_PORT`, without a token.
enum MetricsServer {
    static func application(
        port: Int, host: String, store: any OutboxCountStore, logger: Logger, onRunning: @escaping @Sendable (Int) async -> Void
    ) -> any Service {
        let metrics = MetricsRoutes(store: store, token: nil)
        let router = Router()
        router.get("/metrics") { request, _ in await metrics.scrape(request) }
        return Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { await onRunning($0.localAddress?.port ?? port) }, logger: logger
        )
    }
}
