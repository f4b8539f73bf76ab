import Metrics
import Prometheus

/// What Portvakt counts and times, in Prometheus form (swift-metrics, exported by
/// swift-prometheus at `/metrics`). Labels are kinds and outcomes from the code, never a user id,
/// token, address or personnummer.
enum PortvaktMetrics {
    /// One registry per process; installed as the metrics backend the first time it is used.
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    static func request(route: String, method: String, status: Int, duration: Duration) {
        let statusClass = "\(status / 100)xx"
        // A client may send any method; only the ones Portvakt serves become labels.
        let method = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"].contains(method) ? method : "other"
        Counter(label: "portvakt_http_requests_total", dimensions: [("route", route), ("method", method), ("status", statusClass)]).increment()
        Timer(label: "portvakt_http_request_duration_seconds", dimensions: [("route", route), ("method", method)]).record(duration: duration)
    }

    static func login(provider: String, outcome: String) {
        Counter(label: "portvakt_logins_total", dimensions: [("provider", provider), ("outcome", outcome)]).increment()
    }

    static func bankIDOrderEnded(status: String) {
        Counter(label: "portvakt_bankid_orders_total", dimensions: [("status", status)]).increment()
    }

    static func refreshRotated() {
        Counter(label: "portvakt_refresh_rotations_total").increment()
    }

    static func refreshReuseDetected() {
        Counter(label: "portvakt_refresh_reuse_detected_total").increment()
    }

    static func deviceUnlocked() {
        Counter(label: "portvakt_device_unlocks_total").increment()
    }

    static func deviceAssertionFailed(reason: String) {
        Counter(label: "portvakt_device_assertion_failures_total", dimensions: [("reason", reason)]).increment()
    }

    static func throttleBlocked(kind: String) {
        Counter(label: "portvakt_throttle_blocks_total", dimensions: [("kind", kind)]).increment()
    }

    static func outboxDelivered(after seconds: Double) {
        Timer(label: "portvakt_outbox_delivery_latency_seconds").recordSeconds(max(0, seconds))
    }

    static func outboxMessages(pending: Int, dead: Int) {
        Gauge(label: "portvakt_outbox_messages", dimensions: [("status", "pending")]).record(pending)
        Gauge(label: "portvakt_outbox_messages", dimensions: [("status", "dead")]).record(dead)
    }
}
