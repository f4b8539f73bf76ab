import Foundation
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// The app's data in memory: rows with their owners, idempotent writes keyed by (user, key).
/// A class behind a lock rather than an actor: `createContact` takes a non-Sendable sealing closure.
final class InMemoryAppData: AppDataStore, @unchecked Sendable {
    private let lock = NSLock()
    private var _activityRows: [Activity] = []
    private var _claims: [ExpenseClaim] = []
    private var _contactRows: [String: Contact] = [:]
    private var _audit: [AuditEvent] = []
    private var roles: [String: [OrganisationRoles]] = [:]

    var activityRows: [Activity] { lock.withLock { _activityRows } }
    var claims: [ExpenseClaim] { lock.withLock { _claims } }
    var audit: [AuditEvent] { lock.withLock { _audit } }

    func setRoles(_ userID: String, _ organisationRoles: [OrganisationRoles]) { lock.withLock { roles[userID] = organisationRoles } }
    func put(_ contact: Contact) { lock.withLock { _contactRows[contact.id] = contact } }

    func activities(_ scope: RowScope, limit: Int) async throws -> [Activity] {
        lock.withLock { Array(_activityRows.filter { Self.matches(scope, organisation: $0.organisationId, user: $0.userId) }.prefix(limit)) }
    }
    func createActivity(_ activity: Activity) async throws -> IdempotentWrite<Activity> {
        lock.withLock { Self.idempotent(activity, in: &_activityRows) }
    }
    func expenseClaims(_ scope: RowScope, limit: Int) async throws -> [ExpenseClaim] {
        lock.withLock { Array(_claims.filter { Self.matches(scope, organisation: $0.organisationId, user: $0.userId) }.prefix(limit)) }
    }
    func submitExpenseClaim(_ claim: ExpenseClaim) async throws -> IdempotentWrite<ExpenseClaim> {
        lock.withLock { Self.idempotent(claim, in: &_claims) }
    }
    func contact(id: String) async throws -> Contact? { lock.withLock { _contactRows[id] } }
    func contacts(_ scope: RowScope) async throws -> [Contact] {
        lock.withLock { _contactRows.values.filter { Self.matches(scope, organisation: $0.organisationId, user: $0.assignedUserId) } }
    }
    func createContact(
        organisationID: String, assignedUserID: String?, displayName: String, createdBy: String?,
        details seal: (_ contactID: String) throws -> SealedValue, now: Date
    ) async throws -> Contact {
        let id = UUID().uuidString.lowercased()
        let contact = Contact(
            id: id, organisationID: organisationID, assignedUserID: assignedUserID, displayName: displayName, details: try seal(id),
            createdBy: createdBy, createdAt: now
        )
        lock.withLock { _contactRows[id] = contact }
        return contact
    }
    func organisationRoles(userID: String) async throws -> [OrganisationRoles] { lock.withLock { roles[userID] ?? [] } }
    func append(_ event: AuditEvent) async throws { lock.withLock { _audit.append(event) } }

    private static func matches(_ scope: RowScope, organisation: String, user: String?) -> Bool {
        switch scope {
        case .organisation(let id): organisation == id
        case .own(let userID, let organisationID): organisation == organisationID && user == userID
        }
    }

    private static func idempotent<Row: IdempotentRow>(_ row: Row, in rows: inout [Row]) -> IdempotentWrite<Row> {
        if let first = rows.first(where: { $0.userId == row.userId && $0.idempotencyKey == row.idempotencyKey }) {
            return first.requestHash == row.requestHash ? .replayed(first) : .keyReused
        }
        rows.append(row)
        return .created(row)
    }
}
