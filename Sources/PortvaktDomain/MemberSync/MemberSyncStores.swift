import Foundation
import PortvaktCore
import PortvaktModels

/// What deciding a login's effect on member records reads.
public protocol MemberSyncStore: Sendable {
    func memberships(userID: String) async throws -> [Membership]
    func memberRecord(id: String) async throws -> MemberRecord?
    /// With `includingEnded`, records whose membership ended too: the unique index per
    /// organisation counts them, so a question of uniqueness asks with it.
    func memberRecords(personnummerIndex index: String, includingEnded: Bool) async throws -> [MemberRecord]
    func organisation(id: String) async throws -> Organisation?
}

/// What an administrator's review of the sync log reads and writes.
public protocol ConflictReviewStore: MemberSyncStore {
    func memberSyncEntry(id: String) async throws -> MemberSyncEntry?
    func memberSyncEntries(organisationID: String, outcome: MemberSyncOutcome?, status: String?, limit: Int) async throws -> [MemberSyncEntry]
    func user(holdingAnyOf records: [MemberRecord]) async throws -> User?
    func resolveConflict(entryID: String, resolution: String, by userID: String, writes: MemberSyncWrites, now: Date) async throws -> Bool
    func append(_ event: AuditEvent) async throws
}
