import Foundation
import PortvaktCore
import PortvaktModels

/// What the app's own data (activities, expense claims, contacts) reads and writes.
public protocol AppDataStore: Sendable {
    func activities(_ scope: RowScope, limit: Int) async throws -> [Activity]
    func createActivity(_ activity: Activity) async throws -> IdempotentWrite<Activity>
    func expenseClaims(_ scope: RowScope, limit: Int) async throws -> [ExpenseClaim]
    func submitExpenseClaim(_ claim: ExpenseClaim) async throws -> IdempotentWrite<ExpenseClaim>
    func contact(id: String) async throws -> Contact?
    func contacts(_ scope: RowScope) async throws -> [Contact]
    func createContact(
        organisationID: String, assignedUserID: String?, displayName: String, createdBy: String?,
        details seal: (_ contactID: String) throws -> SealedValue, now: Date
    ) async throws -> Contact
    func organisationRoles(userID: String) async throws -> [OrganisationRoles]
    func append(_ event: AuditEvent) async throws
}

/// A row and the slug of the organisation it belongs to, as the API lists it.
public struct InOrganisation<Row: Sendable>: Sendable {
    public let row: Row
    public let organisation: String
}

/// What an idempotent write is keyed by: the `Idempotency-Key` and a fingerprint of the request.
public struct WriteKey: Sendable {
    public let value: String
    public let requestHash: Data

    public init(value: String, requestHash: Data) {
        self.value = value
        self.requestHash = requestHash
    }
}
