import Crypto
import Foundation
import Hummingbird
import PortvaktModels
import PortvaktStorage

/// `GET /metrics` in Prometheus text format: on the main port only with
/// `Authorization: Bearer PORTVAKT_METRICS_TOKEN`, or without a token on `PORTVAKT_METRICS_PORT`,
/// which the operator keeps off the public network.
/// What a scrape reads: the shared outboxes' counts.
protocol OutboxCountStore: Sendable {
    func outboxCounts() async throws -> (pending: Int, dead: Int)
    func mailOutboxCounts() async throws -> MailOutboxCounts
}

struct MetricsRoutes {
    let store: any OutboxCountStore
    /// Required bearer token; nil on the separate metrics port.
    let token: String?
    /// The outboxes are counted at most once in this long, however often anyone scrapes.
    private let gauges = OutboxGauges(every: .seconds(15))

    init(store: any OutboxCountStore, token: String?) {
        self.store = store
        self.token = token
    }

    func register(on routes: DeclaredRoutes) {
        routes.get("/metrics", .operatorToken, surface: .json) { request, _ in await scrape(request) }
    }

    /// The metrics, for a request with the token (when one is required).
    func scrape(_ request: Request) async -> Response {
        if let token, !Self.presents(token, in: request) {
            return Response(status: .unauthorized, headers: [.wwwAuthenticate: #"Bearer realm="metrics""#])
        }
        // Gauges of the shared outboxes are read from the database, so every instance reports the same.
        await gauges.refresh(from: store)
        var text: [UInt8] = []
        PortvaktMetrics.registry.emit(into: &text)
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: text))
        )
    }

    private static func presents(_ token: String, in request: Request) -> Bool {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        // Compared as digests, so the time taken says nothing about the token.
        return SHA256.hash(data: Data(header.dropFirst(7).utf8)) == SHA256.hash(data: Data(token.utf8))
    }
}

/// The outboxes' gauges, read from the database at a scrape, but not more often than `every`:
/// a scraper (or anyone who reaches the metrics port) cannot make each request a pair of counts.
actor OutboxGauges {
    private let every: Duration
    private var last: ContinuousClock.Instant?

    init(every: Duration) {
        self.every = every
    }

    func refresh(from store: any OutboxCountStore) async {
        let now = ContinuousClock.now
        if let last, now - last < every { return }
        last = now
        if let counts = try? await store.outboxCounts() {
            PortvaktMetrics.outboxMessages(pending: counts.pending, dead: counts.dead)
        }
        if let counts = try? await store.mailOutboxCounts() {
            PortvaktMetrics.mailOutboxMessages(counts)
        }
    }
}
