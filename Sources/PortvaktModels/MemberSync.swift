import Foundation
import PortvaktCore

/// What a BankID or Vipps login did to one member record's personnummer.
public enum MemberSyncOutcome: String, Sendable, Hashable, Codable, CaseIterable {
    /// The record had none; it has the login's now.
    case updated
    /// The record has the same number; nothing written ("confirmed, no change").
    case confirmed
    /// The record has another number; nothing overwritten, an administrator decides.
    case conflict
    /// The provider gave none (Vipps `nin` not approved); the user is told once.
    case absent
    /// The provider's number failed validation (or is synthetic in production); refused.
    case invalid
}

/// One entry of the sync log: time, source, member and outcome, never the number. A conflict
/// keeps the login's number sealed for this entry until an administrator resolves it.
public struct MemberSyncEntry: Sendable, Hashable, Codable {
    public let id: String
    public let occurredAt: Int64
    public let organisationId: String
    public let memberRecordId: String?
    public let userId: String?
    /// `vipps-login` or `bankid-login`.
    public let source: String
    public let outcome: MemberSyncOutcome
    /// `open` or `resolved` for conflicts, nil otherwise.
    public let status: String?
    package let loginPersonnummerSealed: Data?
    package let loginPersonnummerKeyId: String?
    public let notifiedAt: Int64?
    public let resolvedAt: Int64?
    public let resolvedBy: String?
    /// `kept_member` or `took_login`.
    public let resolution: String?

    public init(
        id: String = UUID().uuidString.lowercased(), occurredAt: Date, organisationID: String, memberRecordID: String?, userID: String?,
        source: String, outcome: MemberSyncOutcome, loginPersonnummer: SealedValue? = nil
    ) {
        self.id = id
        self.occurredAt = occurredAt.millisecondsSince1970
        organisationId = organisationID
        memberRecordId = memberRecordID
        userId = userID
        self.source = source
        self.outcome = outcome
        status = outcome == .conflict ? "open" : nil
        loginPersonnummerSealed = loginPersonnummer?.combined
        loginPersonnummerKeyId = loginPersonnummer?.keyID
        notifiedAt = nil
        resolvedAt = nil
        resolvedBy = nil
        resolution = nil
    }

    /// The login's number of a conflict, sealed for this entry (`PersonnummerVault` record name).
    public var loginPersonnummer: SealedValue? {
        guard let loginPersonnummerSealed, let loginPersonnummerKeyId else { return nil }
        return SealedValue(keyID: loginPersonnummerKeyId, combined: loginPersonnummerSealed)
    }

    public static func vaultRecord(entryID: String) -> String { "member-sync:\(entryID)" }

    /// The source of a review entry the member directory left when a record's new number was
    /// not its holder's; a login's is `bankid-login-detached` or `vipps-login-detached`.
    public static let directoryDetachedSource = "member-directory-detached"
}

/// A message for an organisation's own member system, delivered by the outbox worker. The
/// payload (which holds the number) is sealed for the message's id.
public struct OutboxMessage: Sendable, Hashable, Codable {
    public let id: String
    public let organisationId: String
    public let memberRecordId: String?
    public let event: String
    package let payloadSealed: Data
    package let payloadKeyId: String
    public let status: OutboxStatus
    public let attempts: Int
    public let nextAttemptAt: Int64
    public let lastError: String?
    public let createdAt: Int64
    public let deliveredAt: Int64?
    /// The worker's claim while it is delivering the message.
    public let claimId: String?

    public init(id: String, organisationID: String, memberRecordID: String?, event: String, payload: SealedValue, now: Date) {
        self.id = id
        organisationId = organisationID
        memberRecordId = memberRecordID
        self.event = event
        payloadSealed = payload.combined
        payloadKeyId = payload.keyID
        status = .pending
        attempts = 0
        nextAttemptAt = now.millisecondsSince1970
        lastError = nil
        createdAt = now.millisecondsSince1970
        deliveredAt = nil
        claimId = nil
    }

    public var payload: SealedValue { SealedValue(keyID: payloadKeyId, combined: payloadSealed) }

    /// Whether an administrator may send it again now: it gave up, or waits and no worker holds
    /// it (the store's `retryOutboxMessage(id:organisationID:now:)` applies the same rule).
    public var isRetryable: Bool { status == .dead || (status == .pending && claimId == nil) }

    /// The encryption context of a message's payload.
    public static func payloadContext(messageID: String) -> String { "member-outbox:\(messageID)" }
}

/// The writes of a member sync that commit with the login (or with an administrator's decision).
public struct MemberSyncWrites: Sendable {
    /// Records that get the login's number: (record id, the number sealed for that record).
    public var personnummerUpdates: [(recordID: String, personnummer: ProtectedPersonnummer)] = []
    public var entries: [MemberSyncEntry] = []
    public var outbox: [OutboxMessage] = []
    public var audit: [AuditEvent] = []

    public init() {}
}
