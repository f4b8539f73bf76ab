import Foundation
import Personnummer
import PortvaktModels

/// What an import file would change in an organisation's member records, compared by external
/// id: ``MemberDirectory/plan(_:in:removeMissing:)`` makes it without writing anything,
/// ``MemberDirectory/apply(_:in:by:)`` writes it all in one transaction, or nothing.
public struct ImportPlan: Sendable {
    /// A line that cannot be imported, and why (never with a personnummer).
    public struct LineError: Sendable, Equatable {
        public let line: Int
        public let reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// New members, as they will be written (trimmed, email lowercased, phone in E.164).
    public let additions: [MemberEntry]
    /// Members whose record differs from their line: only real differences.
    public let changes: [(id: String, before: DirectoryMember, after: MemberEntry)]
    /// Active members absent from the file (only with `removeMissing`): their membership ends
    /// as for `active: false`; the records are kept.
    public let removals: [DirectoryMember]
    /// Invalid personnummer, email or phone, a duplicate external id in the file, a user name or
    /// number that is already another record's in the organisation, …
    public let errors: [LineError]

    /// Nothing to add, change or remove.
    public var isEmpty: Bool { additions.isEmpty && changes.isEmpty && removals.isEmpty }

    // What `apply` writes.
    let organisationID: String
    let plannedAdditions: [ValidEntry]
    let plannedChanges: [PlannedChange]
    let plannedRemovals: [MemberRecord]

    init(organisationID: String, additions: [ValidEntry], changes: [PlannedChange], removals: [MemberRecord], errors: [LineError]) {
        self.organisationID = organisationID
        plannedAdditions = additions
        plannedChanges = changes
        plannedRemovals = removals
        self.additions = additions.map(\.normalised)
        self.changes = changes.map { (id: $0.before.id, before: DirectoryMember($0.before), after: $0.entry.normalised) }
        self.removals = removals.map(DirectoryMember.init)
        self.errors = errors
    }
}

/// A change of one record from its entry, planned on the record as it was read.
struct PlannedChange: Sendable {
    let before: MemberRecord
    let entry: ValidEntry
    /// What the change does to the number: `keep` when the entry's is the record's already.
    let personnummer: ValidEntry.Number

    /// The change of `before` to `entry`; nil when nothing would differ.
    init?(before: MemberRecord, to entry: ValidEntry, blindIndex: (Personnummer) -> String) {
        var personnummer = entry.personnummer
        switch entry.personnummer {
        case .keep: break
        case .remove: if before.personnummer == nil { personnummer = .keep }
        case .set(let number): if before.personnummer?.index == blindIndex(number) { personnummer = .keep }
        }
        var values = entry.values
        if values.fullName == nil { values.fullName = before.fullName }
        if case .keep = personnummer, values == before.values { return nil }
        self.before = before
        self.entry = entry
        self.personnummer = personnummer
    }

    /// Which attributes change, in SCIM's words, for the audit trail.
    var fields: [String] {
        let (old, new) = (before.values, entry.values)
        var fields: [String] = []
        if old.externalRef != new.externalRef { fields.append("externalId") }
        if old.userName != new.userName { fields.append("userName") }
        if old.givenName != new.givenName || old.familyName != new.familyName || (new.fullName.map { $0 != old.fullName } ?? false) {
            fields.append("name")
        }
        if old.email != new.email { fields.append("emails") }
        if old.phone != new.phone { fields.append("phoneNumbers") }
        if old.role != new.role { fields.append("role") }
        if old.memberNumber != new.memberNumber { fields.append("memberNumber") }
        if old.active != new.active { fields.append("active") }
        if case .keep = personnummer {} else { fields.append("personnummer") }
        return fields
    }
}
