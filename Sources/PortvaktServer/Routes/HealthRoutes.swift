import Hummingbird
import PortvaktStorage

/// Liveness and readiness for load balancers and orchestrators.
struct HealthRoutes {
    let driver: any DatabaseDriver
    let readiness: Readiness

    func register(on routes: DeclaredRoutes) {
        // Live: the process answers HTTP. Never touches the database.
        routes.get("/health/live", .anonymous, surface: .json) { _, _ in
            HealthStatus(status: "live")
        }
        // Ready: migrated, not shutting down, and the database answers within two seconds.
        routes.get("/health/ready", .anonymous, surface: .json) { _, context in
            guard readiness.state == .ready else {
                return EditedResponse(status: .serviceUnavailable, response: HealthStatus(status: readiness.state.rawValue))
            }
            do {
                try await withTimeout(.seconds(2)) { try await driver.ping() }
                return EditedResponse(status: .ok, response: HealthStatus(status: "ready"))
            } catch {
                context.logger.warning("readiness check failed", metadata: ["error": "\(String(describing: type(of: error)))"])
                return EditedResponse(status: .serviceUnavailable, response: HealthStatus(status: "unavailable"))
            }
        }
    }
}

struct HealthStatus: ResponseCodable {
    let status: String
}
