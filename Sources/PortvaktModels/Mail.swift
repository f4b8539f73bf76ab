import Foundation
import PortvaktCore

/// One email in the outbox. The body is sealed for the message's id
/// (``bodyContext(messageID:)``) and is nil once the message was sent or gave up, except for
/// messages delivered into the development sandbox's mailbox.
public struct MailOutboxMessage: Sendable, Hashable, Codable {
    public let id: String
    public let recipient: String
    /// `nb`, `nn` or `en`.
    public let language: String
    /// What the message is, e.g. `password_invite`, `password_changed`.
    public let kind: String
    public let subject: String
    package let bodySealed: Data?
    package let bodyKeyId: String?
    public let status: MailStatus
    public let attempts: Int
    public let nextAttemptAt: Int64
    public let lastError: String?
    public let createdAt: Int64
    public let sentAt: Int64?
    /// The worker's claim while it is sending, and until when the claim keeps others away.
    public let claimId: String?
    public let claimedUntil: Int64?

    public init(id: String, recipient: String, language: String, kind: String, subject: String, body: SealedValue, now: Date) {
        self.id = id
        self.recipient = recipient
        self.language = language
        self.kind = kind
        self.subject = subject
        bodySealed = body.combined
        bodyKeyId = body.keyID
        status = .pending
        attempts = 0
        nextAttemptAt = now.millisecondsSince1970
        lastError = nil
        createdAt = now.millisecondsSince1970
        sentAt = nil
        claimId = nil
        claimedUntil = nil
    }

    /// The sealed body; nil once purged.
    public var body: SealedValue? {
        guard let bodySealed, let bodyKeyId else { return nil }
        return SealedValue(keyID: bodyKeyId, combined: bodySealed)
    }

    /// The encryption context of a message's body.
    public static func bodyContext(messageID: String) -> String { "mail-outbox:\(messageID)" }
}

/// The mail outbox at a glance, for `/metrics`: waiting for a first attempt (or being sent),
/// waiting to retry after a failure, and given up.
public struct MailOutboxCounts: Sendable, Equatable {
    public var waiting = 0
    public var retrying = 0
    public var gaveUp = 0

    public init(waiting: Int = 0, retrying: Int = 0, gaveUp: Int = 0) {
        self.waiting = waiting
        self.retrying = retrying
        self.gaveUp = gaveUp
    }
}
