import Foundation
import PortvaktCore

/// How much of an account an erasure removes (or would remove), rows per kind.
public struct AccountErasureCounts: Sendable, Hashable {
    /// BankID, Vipps and password accounts (`identities`).
    public var identities = 0
    /// Roles; the member records they rested on stay, unlinked.
    public var memberships = 0
    /// Sessions, ended ones too, with their refresh tokens and codes.
    public var sessions = 0
    public var portalSessions = 0
    /// Devices, revoked ones too, with their challenges.
    public var devices = 0
    public var passkeys = 0
    public var activities = 0
    public var expenseClaims = 0
    /// Contacts (the people a peer mentor supports: the organisation's) that named the account as
    /// assigned to or created by; they stay, naming nobody.
    public var contactsUnlinked = 0
    /// Member-sync log entries that named the account; they stay for the organisation, without it
    /// and without the number the login brought.
    public var syncEntriesUnlinked = 0
    /// Emails to the account's or its records' addresses (`mail_outbox`).
    public var mails = 0
    /// Invitations to password sign-in bound to the account or its records.
    public var invitations = 0
    /// Client addresses of the account's audit events (the events stay, whole and chained).
    public var auditAddresses = 0

    public init() {}

    /// The counts as audit details (numbers only).
    public var details: [String: String] {
        [
            "identities": "\(identities)", "memberships": "\(memberships)", "sessions": "\(sessions)", "portal_sessions": "\(portalSessions)",
            "devices": "\(devices)", "passkeys": "\(passkeys)", "activities": "\(activities)", "expense_claims": "\(expenseClaims)",
            "contacts_unlinked": "\(contactsUnlinked)", "sync_entries_unlinked": "\(syncEntriesUnlinked)", "mails": "\(mails)",
            "invitations": "\(invitations)", "audit_addresses": "\(auditAddresses)",
        ]
    }
}

/// An account as an erasure finds it: the row, the member records it holds (which stay), and
/// what would go.
public struct AccountFootprint: Sendable {
    public let user: User
    /// The member records the account holds: the member system's, kept; only the link goes.
    public let records: [MemberRecord]
    public let counts: AccountErasureCounts

    public init(user: User, records: [MemberRecord], counts: AccountErasureCounts) {
        self.user = user
        self.records = records
        self.counts = counts
    }
}
