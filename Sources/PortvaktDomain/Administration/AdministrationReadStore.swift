import Foundation
import PortvaktCore
import PortvaktModels

/// What the administration pages read to show an organisation: its members, accounts, sync log,
/// deliveries and audit trail. Every change they make goes through a domain operation
/// (``ConflictReview``, ``AccountMerge``, ``MemberAdministration``, ``MemberInvitations``); the
/// one write here is the audit event of an export, which records what an administrator read.
public protocol AdministrationReadStore: Sendable {
    func organisations() async throws -> [Organisation]
    func organisation(slug: String) async throws -> Organisation?
    func organisationRoles(userID: String) async throws -> [OrganisationRoles]
    func session(id: String) async throws -> Session?
    func user(id: String) async throws -> User?
    func attention(organisationID: String) async throws -> OrganisationAttention
    func memberRecord(id: String) async throws -> MemberRecord?
    func memberRecords(organisationID: String) async throws -> [MemberRecord]
    func recordHolders(organisationID: String) async throws -> [String: String]
    func memberships(organisationID: String) async throws -> [Membership]
    func usersWithDevices(organisationID: String) async throws -> Set<String>
    func activeDevices(userID: String) async throws -> [Device]
    func passkeys(userID: String) async throws -> [Passkey]
    func identityProviders(userIDs: [String]) async throws -> [String: [String]]
    func holdings(userID: String) async throws -> AccountHoldings
    func memberSyncEntries(
        organisationID: String, outcome: MemberSyncOutcome?, status: String?, from: Date?, to: Date?, offset: Int, limit: Int
    ) async throws -> (entries: [MemberSyncEntry], total: Int)
    func outboxMessages(organisationID: String, status: String?) async throws -> [OutboxMessage]
    func auditActions(organisationID: String) async throws -> [String]
    func auditEvents(
        organisationID: String, action: String?, member: (recordID: String, userID: String?)?, offset: Int, limit: Int
    ) async throws -> (events: [ChainedAuditEvent], total: Int)
    func auditEvents(organisationID: String, from: Date, to: Date, limit: Int) async throws -> [ChainedAuditEvent]
    func verifyAuditChain(pageSize: Int, sinceVerified: Bool) async throws -> AuditChainReport
    func append(_ event: AuditEvent) async throws
}
