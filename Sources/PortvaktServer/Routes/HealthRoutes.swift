import Hummingbird
import PortvaktStorage

/// Liveness and readiness for load balancers and orchestrators.
struct HealthRoutes {
    let driver: any DatabaseDriver
    let readiness: Readiness
    let upstreams: UpstreamDirectory

    func register(on routes: DeclaredRoutes) {
        // Live: the process answers HTTP. Never touches the database.
        routes.get("/health/live", .anonymous, surface: .json) { _, _ in
            HealthStatus(status: "live")
        }
        // Ready: migrated, not shutting down, and the database answers within two seconds. The
        // providers' last known states are in the body only: an instance serves passwords and
        // sessions while BankID is away, so they never make it unready.
        routes.get("/health/ready", .anonymous, surface: .json) { _, context in
            let providers = await upstreams.states()
            guard readiness.state == .ready else {
                return EditedResponse(status: .serviceUnavailable, response: HealthStatus(status: readiness.state.rawValue, database: nil, providers: providers))
            }
            do {
                try await withTimeout(.seconds(2)) { try await driver.ping() }
                return EditedResponse(status: .ok, response: HealthStatus(status: "ready", database: "reachable", providers: providers))
            } catch {
                context.logger.warning("readiness check failed", metadata: ["error": "\(String(describing: type(of: error)))"])
                return EditedResponse(status: .serviceUnavailable, response: HealthStatus(status: "unavailable", database: "unreachable", providers: providers))
            }
        }
    }
}

struct HealthStatus: ResponseCodable {
    let status: String
    /// `reachable` or `unreachable`; nil before migration and while draining.
    var database: String? = nil
    /// Each configured provider's last known state (`bankid`, `vipps`).
    var providers: [String: ProviderState.Published]? = nil
}
