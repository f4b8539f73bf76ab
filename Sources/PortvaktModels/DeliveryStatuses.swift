import Foundation

/// Where a member-system update in the outbox stands. ``mayBecome(_:)`` is the whole table; the
/// store's updates guard in SQL on the status they leave, by the same rules.
public enum OutboxStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Waiting for its next attempt, or being delivered under a worker's claim.
    case pending
    case delivered
    /// Gave up after the last attempt; an administrator may send it again.
    case dead

    /// A pending message is delivered, waits for another attempt, or gives up; an administrator
    /// sends a dead one (or a waiting one no worker holds) again; a delivered one stays delivered.
    public func mayBecome(_ next: OutboxStatus) -> Bool {
        switch (self, next) {
        case (.pending, _): true
        case (.dead, .pending): true
        case (.dead, _), (.delivered, _): false
        }
    }
}

/// Where an email in the mail outbox stands.
public enum MailStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Waiting for its (next) attempt.
    case pending
    /// Claimed by a worker; a claim that runs out makes it claimable again.
    case sending
    case sent
    /// Gave up; its body is purged.
    case dead

    /// pending → sending (claimed); sending → sent, pending (another attempt later), dead, or
    /// sending again (another worker takes an expired claim); sent and dead are final.
    public func mayBecome(_ next: MailStatus) -> Bool {
        switch (self, next) {
        case (.pending, .sending): true
        case (.sending, .sent), (.sending, .pending), (.sending, .dead), (.sending, .sending): true
        default: false
        }
    }
}

extension BankIDOrderRecord.Status {
    /// A pending order completes or fails once; an ended order stays as it ended.
    public func mayBecome(_ next: BankIDOrderRecord.Status) -> Bool {
        self == .pending && next != .pending
    }
}
