import Foundation
import PortvaktDomain
import PortvaktStorage

/// What an organisation's administration pages work with: the domain's operations (review,
/// merge, member administration and invitations, mail) and the store their read-only lists come from.
struct AdministrationServices: Sendable {
    let store: PortvaktStore
    let review: ConflictReview
    let merge: AccountMerge
    let administration: MemberAdministration
    let invitations: MemberInvitations
    let mailer: Mailer
    let address: PublicAddress
    let now: @Sendable () -> Date
}
