import Metrics
import PortvaktModels
import PortvaktStorage
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

    static func outboxDelivered(after seconds: Double) {
        Timer(label: "portvakt_outbox_delivery_latency_seconds").recordSeconds(max(0, seconds))
    }

    static func mailDelivered(after seconds: Double) {
        Timer(label: "portvakt_mail_delivery_latency_seconds").recordSeconds(max(0, seconds))
    }

    static func mailOutboxMessages(_ counts: MailOutboxCounts) {
        Gauge(label: "portvakt_mail_outbox_messages", dimensions: [("status", "waiting")]).record(counts.waiting)
        Gauge(label: "portvakt_mail_outbox_messages", dimensions: [("status", "retrying")]).record(counts.retrying)
        Gauge(label: "portvakt_mail_outbox_messages", dimensions: [("status", "gave_up")]).record(counts.gaveUp)
    }

    /// A step of the expiry purge failed: its table keeps data past its retention period.
    static func purgeFailed(step: String) {
        purgeFailures(step).increment()
    }

    /// Each step's series at 0 before any fails: Prometheus's `increase()` sees the first failure.
    static func purgeSteps(_ steps: [String]) {
        for step in steps { _ = purgeFailures(step) }
    }

    private static func purgeFailures(_ step: String) -> Metrics.Counter {
        Counter(label: "portvakt_purge_failures_total", dimensions: [("table", step)])
    }

    static func outboxMessages(pending: Int, dead: Int) {
        Gauge(label: "portvakt_outbox_messages", dimensions: [("status", "pending")]).record(pending)
        Gauge(label: "portvakt_outbox_messages", dimensions: [("status", "dead")]).record(dead)
    }
}
