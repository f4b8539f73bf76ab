import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// The few store methods the review and the merge use, in memory, recording what they write.
actor InMemoryStore: ConflictReviewStore, AccountMergeStore {
    var users: [String: User] = [:]
    var records: [String: MemberRecord] = [:]
    var organisations: [String: Organisation] = [:]
    var roles: [String: [OrganisationRoles]] = [:]
    var memberships: [String: [Membership]] = [:]
    var entries: [String: MemberSyncEntry] = [:]
    var holders: [String: String] = [:]
    var providers: [String: [String]] = [:]
    private(set) var audit: [AuditEvent] = []
    private(set) var resolutions: [String: (resolution: String, writes: MemberSyncWrites)] = [:]
    private(set) var merges: [(keep: String, remove: String)] = []
    var mergeFailure: StoreError?

    func put(_ user: User) { users[user.id] = user }
    func put(_ record: MemberRecord, heldBy userID: String? = nil) {
        records[record.id] = record
        holders[record.id] = userID
    }
    func put(_ organisation: Organisation) { organisations[organisation.id] = organisation }
    func put(_ entry: MemberSyncEntry) { entries[entry.id] = entry }
    func setRoles(_ userID: String, _ organisationRoles: [OrganisationRoles]) { roles[userID] = organisationRoles }
    func failMerges(with error: StoreError) { mergeFailure = error }

    func memberships(userID: String) async throws -> [Membership] { memberships[userID] ?? [] }
    func memberRecord(id: String) async throws -> MemberRecord? { records[id] }
    func memberRecords(personnummerIndex index: String, includingEnded: Bool) async throws -> [MemberRecord] {
        records.values.filter { $0.personnummer?.index == index && (includingEnded || $0.isActive) }
    }
    func organisation(id: String) async throws -> Organisation? { organisations[id] }
    func memberSyncEntry(id: String) async throws -> MemberSyncEntry? { entries[id] }
    func memberSyncEntries(organisationID: String, outcome: MemberSyncOutcome?, status: String?, limit: Int) async throws -> [MemberSyncEntry] {
        entries.values.filter { $0.organisationId == organisationID && (outcome == nil || $0.outcome == outcome) && (status == nil || $0.status == status) }
    }
    func user(holdingAnyOf records: [MemberRecord]) async throws -> User? {
        records.lazy.compactMap { self.holders[$0.id] }.compactMap { self.users[$0] }.first
    }
    func resolveConflict(entryID: String, resolution: String, by userID: String, writes: MemberSyncWrites, now: Date) async throws -> Bool {
        guard entries[entryID]?.status == "open", resolutions[entryID] == nil else { return false }
        resolutions[entryID] = (resolution, writes)
        audit += writes.audit
        return true
    }
    func append(_ event: AuditEvent) async throws { audit.append(event) }

    func user(id: String) async throws -> User? { users[id] }
    func organisationRoles(userID: String) async throws -> [OrganisationRoles] { roles[userID] ?? [] }
    func memberOrganisationIDs(userID: String) async throws -> Set<String> { Set((roles[userID] ?? []).map(\.organisationID)) }
    func identityProviders(userID: String) async throws -> [String] { providers[userID] ?? [] }
    func mergeUsers(keep keepID: String, remove removeID: String, personnummer: ProtectedPersonnummer?, confinedTo organisationID: String?, audit event: AuditEvent) async throws {
        if let mergeFailure { throw mergeFailure }
        merges.append((keepID, removeID))
        audit.append(event)
    }
}
