import Foundation
import PortvaktCore

// Rows as values, for the domain's in-memory stores in tests and for callers that build them
// outside the database: in dates and sealed values, where the memberwise initializers (`package`,
// for storage) take the columns.

extension User {
    public init(
        id: String, displayName: String, email: String? = nil, passwordHash: String? = nil, personnummer: ProtectedPersonnummer? = nil,
        createdAt: Date, disabledAt: Date? = nil, lastEidLoginAt: Date? = nil
    ) {
        self.init(
            id: id, displayName: displayName, email: email, passwordHash: passwordHash, personnummerSealed: personnummer?.sealed.combined,
            personnummerKeyId: personnummer?.sealed.keyID, personnummerIndex: personnummer?.index, createdAt: createdAt.millisecondsSince1970,
            disabledAt: disabledAt?.millisecondsSince1970, lastEidLoginAt: lastEidLoginAt?.millisecondsSince1970
        )
    }
}

extension MemberRecord {
    public init(
        id: String, organisationID: String, externalRef: String? = nil, fullName: String, email: String? = nil, phone: String? = nil,
        role: Role = .peerMentor, personnummer: ProtectedPersonnummer? = nil, createdAt: Date
    ) {
        self.init(
            id: id, organisationId: organisationID, externalRef: externalRef, fullName: fullName, email: email, phone: phone, role: role,
            personnummerSealed: personnummer?.sealed.combined, personnummerKeyId: personnummer?.sealed.keyID, personnummerIndex: personnummer?.index,
            createdAt: createdAt.millisecondsSince1970, updatedAt: createdAt.millisecondsSince1970
        )
    }
}

extension Organisation {
    public init(id: String, slug: String, name: String, createdAt: Date) {
        self.init(id: id, slug: slug, name: name, createdAt: createdAt.millisecondsSince1970)
    }
}

extension Membership {
    public init(userID: String, organisationID: String, role: Role, memberRecordID: String?, createdAt: Date) {
        self.init(userId: userID, organisationId: organisationID, role: role, memberRecordId: memberRecordID, createdAt: createdAt.millisecondsSince1970)
    }
}

extension Contact {
    public init(id: String, organisationID: String, assignedUserID: String?, displayName: String, details: SealedValue, createdBy: String?, createdAt: Date) {
        self.init(
            id: id, organisationId: organisationID, assignedUserId: assignedUserID, displayName: displayName, detailsSealed: details.combined,
            detailsKeyId: details.keyID, createdBy: createdBy, createdAt: createdAt.millisecondsSince1970
        )
    }
}
