import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage
import ServiceLifecycle

/// Tells relying parties, over the back channel, that a session which signed them in has ended
/// (OIDC Back-Channel Logout 1.0), until shutdown: an ``OutboxRunner`` over `logout_outbox`, which
/// the database fills as each such session is revoked. Each logout is a `logout_token` POSTed to
/// the client's `backchannel_logout_uri` (§2.5); a 200 or 204 delivers it, a 400 (the client did
/// not accept the token) gives up at once, and anything else is retried by ``RetryPolicy``. A
/// sign-out never waits for it.
struct LogoutWorker: Service {
    let store: any LogoutOutboxStore
    let clients: [AppClient]
    let tokens: TokenIssuer
    let http: any OutboundHTTP
    let readiness: Readiness
    let timeout: Duration
    let logger: Logger
    let now: @Sendable () -> Date
    var maxAttempts = 12
    var interval: Duration = .seconds(1)
    var capacity = 5
    var lease: TimeInterval = 60

    func run() async throws {
        guard await readiness.waitUntilMigrated() else { return }
        await OutboxRunner(
            queue: self, policy: RetryPolicy(maxAttempts: maxAttempts), telemetry: telemetry, logger: logger, now: now,
            interval: interval, capacity: capacity, lease: lease
        ).run()
    }

    private var telemetry: OutboxTelemetry {
        OutboxTelemetry(
            span: "back-channel logout",
            unreadable: "The logout outbox could not be read",
            delivered: "Back-channel logout delivered",
            deliveredAfterClaimEnded: "Back-channel logout delivered after its claim ended",
            retrying: "Back-channel logout not delivered; retrying",
            dead: "Back-channel logout is dead after its last attempt",
            unrecorded: "The outcome of a back-channel logout could not be recorded",
            deliveryLatency: { _ in }
        )
    }
}

/// What the worker reads and writes of `logout_outbox`.
protocol LogoutOutboxStore: Sendable {
    func claimDueLogouts(claimID: String, lease: TimeInterval, limit: Int, now: Date) async throws -> [LogoutNotice]
    @discardableResult func markLogoutSent(id: String, claimID: String, now: Date) async throws -> Bool
    @discardableResult func markLogoutFailed(id: String, claimID: String, error: String, nextAttempt: Date?, now: Date) async throws -> Bool
}

extension PortvaktStore: LogoutOutboxStore {}

extension LogoutWorker: OutboxQueue {
    func claimDue(claimID: String, lease: TimeInterval, limit: Int, now: Date) async throws -> [LogoutNotice] {
        try await store.claimDueLogouts(claimID: claimID, lease: lease, limit: limit, now: now)
    }

    func deliver(_ notice: LogoutNotice) async -> DeliveryOutcome {
        guard let uri = clients.first(where: { $0.id == notice.clientId })?.backchannelLogoutURI else {
            return .failed(problem: "the client no longer registers a backchannel_logout_uri", logged: [:], permanent: true)
        }
        do {
            let token = try await tokens.logoutToken(clientID: notice.clientId, sessionID: notice.sessionId, userID: notice.userId)
            var request = HTTPClientRequest(url: uri)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: "logout_token=" + FormFields.encode(token)))
            let response = try await http.execute(request, timeout: TimeAmount(timeout))
            let status = Int(response.status.code)
            _ = try? await response.body.collect(upTo: 16 * 1024)
            switch status {
            case 200, 204: return .delivered
            case 400: return .failed(problem: "the client answered 400: it did not accept the logout token", logged: ["status": "400"], permanent: true)
            default: return .failed(problem: "the client answered \(status)", logged: ["status": "\(status)"])
            }
        } catch {
            return .failed(problem: "the client could not be reached", logged: ["error": "\(type(of: error))"])
        }
    }

    func markDelivered(_ notice: LogoutNotice, claimID: String, now: Date) async throws -> Bool {
        try await store.markLogoutSent(id: notice.id, claimID: claimID, now: now)
    }

    func markFailed(_ notice: LogoutNotice, claimID: String, error: String, nextAttempt: Date?, now: Date) async throws -> Bool {
        try await store.markLogoutFailed(id: notice.id, claimID: claimID, error: error, nextAttempt: nextAttempt, now: now)
    }
}

extension LogoutNotice: OutboxItem {
    var queuedAt: Date { Date(millisecondsSince1970: createdAt) }
    var logMetadata: Logger.Metadata { ["logout": "\(id)", "client": "\(clientId)"] }
    var spanAttributes: [String: String] { ["portvakt.client": clientId] }
}

/// Service Lifecycle logs a service by its description: the name, never the settings it holds.
extension LogoutWorker: CustomStringConvertible {
    var description: String { "LogoutWorker" }
}
