import Foundation
import PortvaktDomain
import PortvaktStorage

/// What an organisation's administration pages work with: the domain's operations (review,
/// merge, member administration and invitations, mail) and what their lists read (no writes).
struct AdministrationServices: Sendable {
    let store: any AdministrationReadStore
    let review: ConflictReview
    let merge: AccountMerge
    let administration: MemberAdministration
    let invitations: MemberInvitations
    let mailer: Mailer
    let address: PublicAddress
    /// `PORTVAKT_HIGH_ASSURANCE_ORGANISATIONS`: whose administrators need BankID's high level.
    var highAssuranceOrganisations: Set<String> = []
    let now: @Sendable () -> Date

    /// Whether passkeys work here: the public URL names a domain (S18.5).
    var passkeysAvailable: Bool { address.relyingParty != nil }
}
