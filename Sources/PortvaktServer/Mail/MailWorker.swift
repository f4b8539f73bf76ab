import Foundation
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktStorage
import ServiceLifecycle
import Tracing

/// Sends the mail outbox, until shutdown.
///
/// Every second the worker claims the messages that are due (``PortvaktStore/claimDueMail(claimID:lease:limit:now:)``)
/// and sends them at once, each on its own connection. A claim lasts longer than a send may take,
/// so no worker on any instance sends the same message meanwhile; an outcome is recorded only
/// under the claim it was sent under. SMTP has no idempotency key: when an instance dies between
/// the server's 250 and recording it, the message is sent again after the lease, with the same
/// `Message-ID`.
///
/// A failure is retried after 2 s, 4 s, 8 s … (at most 10 minutes, less up to half at random);
/// after `maxAttempts`, or at once when the server refuses the message for good (5xx), it is
/// `dead`. A sent or dead message's body is purged, except in the sandbox's mailbox.
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
    /// Messages claimed, and sent at once, per round.
    var batch = 5
    /// How long a claim keeps other workers away: the send's timeout and time to record the outcome.
    var lease: TimeInterval = 90

    func run() async throws {
        guard await readiness.waitUntilMigrated() else { return }
        if case .held = delivery {
            // A service that returns would end the server: wait for the shutdown instead.
            try? await gracefulShutdown()
            return
        }
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            let due = await claimDue()
            await withTaskGroup(of: Void.self) { group in
                for message in due { group.addTask { await deliver(message) } }
            }
            if due.count < batch { await pauseUnlessShuttingDown(for: interval) }
        }
    }

    private func claimDue() async -> [MailOutboxMessage] {
        do {
            return try await store.claimDueMail(claimID: UUID().uuidString, lease: lease, limit: batch, now: now())
        } catch {
            logger.warning("The mail outbox could not be read", metadata: ["error": "\(error)"])
            return []
        }
    }

    private func deliver(_ message: MailOutboxMessage) async {
        await withSpan("mail delivery", ofKind: .client) { span in
            span.updateAttributes { attributes in
                attributes["portvakt.mail.kind"] = "\(message.kind)"
                attributes["portvakt.attempt"] = message.attempts + 1
            }
            await attemptDelivery(message)
        }
    }

    private func attemptDelivery(_ message: MailOutboxMessage) async {
        guard let claim = message.claimId else { return }
        var problem: SMTPError?
        var keepBody = false
        switch delivery {
        case .sandboxMailbox:
            keepBody = true
        case .held:
            return
        case .smtp(let client):
            do {
                try await client.send(try mail(message, from: client.settings.from))
            } catch let error as SMTPError {
                problem = error
            } catch {
                problem = SMTPError(.protocolViolation, "\(error)")
            }
        }
        let metadata: Logger.Metadata = ["mail": "\(message.id)", "kind": "\(message.kind)", "attempts": "\(message.attempts + 1)"]
        do {
            let now = self.now()
            guard let problem else {
                let recorded = try await store.markMailSent(id: message.id, claimID: claim, keepBody: keepBody, now: now)
                if recorded { PortvaktMetrics.mailDelivered(after: now.timeIntervalSince(Date(millisecondsSince1970: message.createdAt))) }
                logger.info(recorded ? (keepBody ? "Mail put in the sandbox mailbox (/sandbox/mailbox)" : "Mail sent") : "Mail sent after its claim ended", metadata: metadata)
                return
            }
            let attempts = message.attempts + 1
            let next = problem.isPermanent || attempts >= maxAttempts ? nil : now.addingTimeInterval(OutboxWorker.backoff(afterAttempt: attempts))
            guard try await store.markMailFailed(id: message.id, claimID: claim, error: problem.description, nextAttempt: next, now: now) else { return }
            // The reason, not the server's text, which may repeat the recipient's address.
            logger.notice(next == nil ? "Mail is dead after its last attempt" : "Mail could not be sent; retrying", metadata: metadata.merging([
                "problem": "\(problem.reason)", "reply": "\(problem.reply.map { String($0.code) } ?? "none")",
            ]) { $1 })
        } catch {
            logger.warning("The outcome of a mail could not be recorded", metadata: metadata.merging(["error": "\(error)"]) { $1 })
        }
    }

    /// The message to send: the body opened, the addresses checked again.
    private func mail(_ message: MailOutboxMessage, from: MailAddress) throws(SMTPError) -> MailMessage {
        guard let sealed = message.body,
              let body = try? cipher.open(sealed, context: MailOutboxMessage.bodyContext(messageID: message.id))
        else { throw SMTPError(.invalidMessage, "the message's body is gone or cannot be opened (an encryption key no longer configured?)") }
        guard let to = try? MailAddress(message.recipient) else { throw SMTPError(.invalidMessage, "the recipient is not a usable email address") }
        return MailMessage(
            from: from, to: to, subject: message.subject, body: String(decoding: body, as: UTF8.self), id: message.id,
            date: Date(millisecondsSince1970: message.createdAt)
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
