import Foundation

/// One line of the audit trail: who did what to which record, and how it ended.
///
/// Details hold identifiers and outcome codes only; a personnummer, token or secret never goes
/// into an audit event (the store's tests check that details are redacted like logs).
public struct AuditEvent: Sendable, Hashable {
    public let id: UUID
    public let occurredAt: Date
    /// What happened, dotted by area: `member.personnummer.updated`, `session.revoked`.
    public let action: String
    /// `success`, `failure`, `conflict`, … as the action defines.
    public let outcome: String
    public let actorUserID: UUID?
    public let organisationID: UUID?
    /// The kind and id of the record acted on, for example `member` and its id.
    public let subjectType: String?
    public let subjectID: String?
    /// Where the event came from, for example `vipps-login` or `bankid-login`.
    public let source: String?
    public internal(set) var details: [String: String]

    /// The detail that holds the client's address: kept apart from the event and deleted after
    /// the retention period (PRIVACY.md).
    public static let clientAddressKey = "client_address"

    /// The event without its client address, and the address.
    public func withoutClientAddress() -> (event: AuditEvent, address: String?) {
        var event = self
        let address = event.details.removeValue(forKey: Self.clientAddressKey)
        return (event, address)
    }

    public init(
        id: UUID = UUID(),
        occurredAt: Date,
        action: AuditAction,
        outcome: String,
        actorUserID: UUID? = nil,
        organisationID: UUID? = nil,
        subjectType: String? = nil,
        subjectID: String? = nil,
        source: String? = nil,
        details: [String: String] = [:]
    ) {
        self.init(
            id: id, occurredAt: occurredAt, recordedAction: action.rawValue, outcome: outcome, actorUserID: actorUserID,
            organisationID: organisationID, subjectType: subjectType, subjectID: subjectID, source: source, details: details
        )
    }

    /// An event as the trail holds it: its action as recorded, whatever version wrote it.
    public init(
        id: UUID,
        occurredAt: Date,
        recordedAction action: String,
        outcome: String,
        actorUserID: UUID? = nil,
        organisationID: UUID? = nil,
        subjectType: String? = nil,
        subjectID: String? = nil,
        source: String? = nil,
        details: [String: String] = [:]
    ) {
        self.id = id
        self.occurredAt = occurredAt
        self.action = action
        self.outcome = outcome
        self.actorUserID = actorUserID
        self.organisationID = organisationID
        self.subjectType = subjectType
        self.subjectID = subjectID
        self.source = source
        self.details = details.mapValues(Redactor.redact)
    }
}
