import Foundation
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktStorage
import ServiceLifecycle

/// Sends the mail outbox, until shutdown.
///
/// An ``OutboxRunner`` over this outbox (`MailWorker+OutboxQueue.swift`): every second it
/// claims the messages that are due (``PortvaktStore/claimDueMail(claimID:lease:limit:now:)``)
/// and sends each on its own connection, at most `capacity` at once, claiming again as a send ends. A claim lasts longer than a send
/// may take, so no worker on any instance sends the same message meanwhile; an outcome is recorded
/// only under the claim it was sent under. SMTP has no idempotency key: when an instance dies
/// between the server's 250 and recording it, the message is sent again after the lease, with the
/// same `Message-ID`.
///
/// A failure is retried by ``RetryPolicy``; after `maxAttempts`, or at once when the server
/// refuses the message for good (5xx), it is `dead`. A sent or dead message's body is purged,
/// except in the sandbox's mailbox.
struct MailWorker: Service {
    enum Delivery: Sendable {
        case smtp(SMTPClient)
        /// Development without `PORTVAKT_SMTP_URL`: nothing leaves the machine; the message is
        /// marked sent with its body kept, and `/sandbox/mailbox` shows it.
        case sandboxMailbox
        /// Production without `PORTVAKT_SMTP_URL`: messages wait in the outbox until it is set.
        case held
    }

    let store: PortvaktStore
    let cipher: FieldCipher
    let delivery: Delivery
    let readiness: Readiness
    let logger: Logger
    let now: @Sendable () -> Date
    /// About 35 minutes of retries in all.
    var maxAttempts = 12
    var interval: Duration = .seconds(1)
    /// Messages sent at once.
    var capacity = 5
    /// How long a claim keeps other workers away: the send's timeout and time to record the outcome.
    var lease: TimeInterval = 90

    func run() async throws {
        guard await readiness.waitUntilMigrated() else { return }
        if case .held = delivery {
            // A service that returns would end the server: wait for the shutdown instead.
            try? await gracefulShutdown()
            return
        }
        await OutboxRunner(
            queue: self, policy: RetryPolicy(maxAttempts: maxAttempts), telemetry: telemetry, logger: logger, now: now,
            interval: interval, capacity: capacity, lease: lease
        ).run()
    }

    /// Whether a sent message keeps its body: only in the sandbox's mailbox, which shows it.
    var keepsBodies: Bool {
        switch delivery {
        case .sandboxMailbox: true
        case .smtp, .held: false
        }
    }

    private var telemetry: OutboxTelemetry {
        OutboxTelemetry(
            span: "mail delivery",
            unreadable: "The mail outbox could not be read",
            delivered: keepsBodies ? "Mail put in the sandbox mailbox (/sandbox/mailbox)" : "Mail sent",
            deliveredAfterClaimEnded: "Mail sent after its claim ended",
            retrying: "Mail could not be sent; retrying",
            dead: "Mail is dead after its last attempt",
            unrecorded: "The outcome of a mail could not be recorded",
            deliveryLatency: { PortvaktMetrics.mailDelivered(after: $0) }
        )
    }
}

extension MailWorker {
    /// The worker for this configuration: SMTP when `PORTVAKT_SMTP_URL` is set, else the
    /// sandbox's mailbox when the sandbox is on, else none (messages wait, and a warning says so).
    /// - Throws: when the TLS context cannot be made.
    init(configuration: ServerConfiguration, store: PortvaktStore, cipher: FieldCipher, readiness: Readiness, logger: Logger, now: @escaping @Sendable () -> Date) throws {
        let delivery: Delivery
        if let smtp = configuration.smtp {
            delivery = .smtp(try SMTPClient(settings: smtp))
        } else if configuration.sandboxEnabled {
            delivery = .sandboxMailbox
        } else {
            delivery = .held
            logger.warning("PORTVAKT_SMTP_URL is not set: emails (password invitations, security notices) wait in the outbox until it is")
        }
        self.init(store: store, cipher: cipher, delivery: delivery, readiness: readiness, logger: logger, now: now)
    }
}

/// Service Lifecycle logs a service by its description: the name, never the settings it holds.
extension MailWorker: CustomStringConvertible {
    var description: String { "MailWorker" }
}
