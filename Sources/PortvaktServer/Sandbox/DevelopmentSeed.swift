import Foundation
import Logging
import Personnummer
import PortvaktCore
import PortvaktModels
import PortvaktSandbox
import PortvaktStorage

/// Puts the sandbox's organisations and test people's member records into the development
/// database, so a new user can log in at once. Organisations that exist already are left alone,
/// so restarts and an organisation's own changes are safe.
enum DevelopmentSeed {
    /// - Returns: the slugs of the organisations it created.
    @discardableResult
    static func seed(_ store: PortvaktStore, vault: PersonnummerVault, logger: Logger) async throws -> [String] {
        var created: [String] = []
        for organisation in TestUsers.organisations {
            guard try await store.organisation(slug: organisation.slug) == nil else { continue }
            let stored: Organisation
            do {
                stored = try await store.createOrganisation(slug: organisation.slug, name: organisation.name)
            } catch let error as StoreError where error.isDuplicate {
                continue  // another instance seeded it first
            }
            for user in TestUsers.all {
                for membership in user.memberships where membership.organisation == organisation.slug {
                    let number: String? = switch membership.recorded {
                    case .same: user.personnummer
                    case .missing: nil
                    case .different(let other): other
                    }
                    let personnummer = try number.map { try Personnummer($0, context: .test) }
                    _ = try await store.createMemberRecord(
                        organisationID: stored.id,
                        NewMemberRecord(
                            externalRef: "sandbox-\(user.id)", fullName: user.name, email: user.email,
                            phone: membership.phoneOnRecord ? user.phone : nil, role: membership.role
                        ),
                        personnummer: personnummer.map { number in
                            { id in try vault.protect(number, record: MemberRecord.personnummerContext(recordID: id)) }
                        }
                    )
                }
            }
            let duplicate = TestUsers.duplicateRecord
            if duplicate.organisation == organisation.slug {
                _ = try await store.createMemberRecord(organisationID: stored.id, NewMemberRecord(
                    externalRef: duplicate.externalRef, fullName: duplicate.name, email: duplicate.email, role: .peerMentor
                ))
            }
            created.append(organisation.slug)
        }
        if !created.isEmpty {
            logger.notice("Seeded the sandbox organisations and test members", metadata: ["organisations": "\(created.joined(separator: ","))"])
        }
        return created
    }
}
