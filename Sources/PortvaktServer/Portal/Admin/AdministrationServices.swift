import Foundation
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// What an organisation's administration pages work with: the domain's operations (review,
/// merge, member administration, invitations and suspension, mail) and what their lists read (no writes).
struct AdministrationServices: Sendable {
    let store: any AdministrationReadStore
    let review: ConflictReview
    let merge: AccountMerge
    let administration: MemberAdministration
    let invitations: MemberInvitations
    let suspension: MembershipSuspension
    let mailer: Mailer
    let address: PublicAddress
    /// `PORTVAKT_HIGH_ASSURANCE_ORGANISATIONS`: whose administrators need BankID's high level.
    var highAssuranceOrganisations: Set<String> = []
    let now: @Sendable () -> Date

    /// Whether passkeys work here: the public URL names a domain (S18.5).
    var passkeysAvailable: Bool { address.relyingParty != nil }

    /// Whether to offer `userID` a passkey to confirm the administrators' actions (S18.3), by the
    /// policy's own rules: passkeys work here, no organisation of theirs asks for BankID's high
    /// level, and they have a device-bound passkey (one that may be synced confirms nothing).
    func offersPasskeyStepUp(userID: String, roles: [OrganisationRoles]) async throws -> Bool {
        guard passkeysAvailable,
              !Actor.asksHighAssurance(.personnummerReveal, organisations: roles, highAssuranceOrganisations: highAssuranceOrganisations)
        else { return false }
        return try await store.passkeys(userID: userID).contains { !$0.isBackupEligible }
    }
}
