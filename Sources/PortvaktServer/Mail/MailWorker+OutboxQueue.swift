import Foundation
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// The mail outbox: the store's `mail_outbox`, and SMTP or the sandbox's mailbox.
extension MailWorker: OutboxQueue {
    func claimDue(claimID: String, lease: TimeInterval, limit: Int, now: Date) async throws -> [MailOutboxMessage] {
        try await store.claimDueMail(claimID: claimID, lease: lease, limit: limit, now: now)
    }

    func deliver(_ message: MailOutboxMessage) async -> DeliveryOutcome {
        switch delivery {
        case .sandboxMailbox:
            return .delivered
        case .held:
            // Never reached: a held worker claims nothing (`run()` waits for shutdown instead). Were it
            // reached, a failure would use up the message's attempts; a lease that runs out does not.
            preconditionFailure("a held mail outbox delivers nothing")
        case .smtp(let client):
            do {
                try await client.send(try mail(message, from: client.settings.from))
                return .delivered
            } catch let error as SMTPError {
                return outcome(of: error)
            } catch {
                return outcome(of: SMTPError(.protocolViolation, "\(error)"))
            }
        }
    }

    func markDelivered(_ message: MailOutboxMessage, claimID: String, now: Date) async throws -> Bool {
        try await store.markMailSent(id: message.id, claimID: claimID, keepBody: keepsBodies, now: now)
    }

    func markFailed(_ message: MailOutboxMessage, claimID: String, error: String, nextAttempt: Date?, now: Date) async throws -> Bool {
        try await store.markMailFailed(id: message.id, claimID: claimID, error: error, nextAttempt: nextAttempt, now: now)
    }

    /// A refusal for good (5xx) gives up at once. The log says the reason, not the server's text,
    /// which may repeat the recipient's address.
    private func outcome(of error: SMTPError) -> DeliveryOutcome {
        .failed(problem: error.description, logged: [
            "problem": "\(error.reason)", "reply": "\(error.reply.map { String($0.code) } ?? "none")",
        ], permanent: error.isPermanent)
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

extension MailOutboxMessage: OutboxItem {
    var queuedAt: Date { Date(millisecondsSince1970: createdAt) }
    var logMetadata: Logger.Metadata { ["mail": "\(id)", "kind": "\(kind)"] }
    var spanAttributes: [String: String] { ["portvakt.mail.kind": "\(kind)"] }
}
