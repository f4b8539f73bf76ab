import Metrics

/// What the domain counts (swift-metrics; the server exports them at `/metrics`). Labels are
/// kinds and outcomes from the code, never a user id, token, address or personnummer.
public enum DomainMetrics {
    public static func login(provider: String, outcome: String) {
        Counter(label: "portvakt_logins_total", dimensions: [("provider", provider), ("outcome", outcome)]).increment()
    }

    public static func bankIDOrderEnded(status: String) {
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
}
