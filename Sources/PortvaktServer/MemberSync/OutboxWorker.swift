import Foundation
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktStorage
import ServiceLifecycle

/// Delivers the member outbox to the organisations' member systems, until shutdown.
///
/// An ``OutboxRunner`` over this outbox (`OutboxWorker+OutboxQueue.swift`): every half second
/// it claims the messages that are due (``PortvaktStore/claimDueOutboxMessages(claimID:lease:limit:now:)``:
/// only a member's first undelivered message is due, so each member's updates arrive in order)
/// and sends each in its own task, at most `capacity` at once: a slow member system holds up
/// only its own messages.
///
/// It starts once the database is migrated, and on shutdown finishes the sends in flight.
///
/// A message is posted as JSON with `Idempotency-Key` (the message id) and a signature over a
/// timestamp, that key and the body (``MemberUpdateSignature``). A 2xx delivers it. Anything else
/// is retried by ``RetryPolicy``; after `maxAttempts` the message is `dead`, which administrators
/// see. Messages live in the database, so a restart loses none, and the receiver applies a
/// message delivered twice (its answer lost) once.
struct OutboxWorker: Service {
    /// How long a member system may take to answer.
    static let sendTimeout: TimeInterval = 10

    let store: PortvaktStore
    let cipher: FieldCipher
    let memberSystems: MemberSystemDirectory
    let http: any OutboundHTTP
    let readiness: Readiness
    let maxAttempts: Int
    let logger: Logger
    let now: @Sendable () -> Date
    var interval: Duration = .milliseconds(500)
    /// Messages in flight at once.
    var capacity = 20
    /// How long a claim keeps other workers away: the send's timeout and time to record the outcome.
    var lease: TimeInterval = sendTimeout + 20

    func run() async throws {
        guard await readiness.waitUntilMigrated() else { return }
        await OutboxRunner(
            queue: self, policy: RetryPolicy(maxAttempts: maxAttempts), telemetry: Self.telemetry, logger: logger, now: now,
            interval: interval, capacity: capacity, lease: lease
        ).run()
    }

    static let telemetry = OutboxTelemetry(
        span: "member update delivery",
        unreadable: "The member outbox could not be read",
        delivered: "Member update delivered",
        deliveredAfterClaimEnded: "Member update delivered after its claim ended",
        retrying: "Member update failed; retrying",
        dead: "Member update is dead after its last attempt",
        unrecorded: "The outcome of a member update could not be recorded",
        deliveryLatency: { PortvaktMetrics.outboxDelivered(after: $0) }
    )
}

/// Service Lifecycle logs a service by its description: the name, never the settings it holds.
extension OutboxWorker: CustomStringConvertible {
    var description: String { "OutboxWorker" }
}
