import Foundation
import Logging
import PortvaktCore
import PortvaktDomain
import PortvaktModels
import PortvaktStorage

/// An administrator's invitation to password login, from the member's side: the link works once,
/// for 24 hours, and only for the account it was bound to (or, for a record without one, a new
/// account of that record alone). Setting the password ends the account's sessions and tells the member.
struct PasswordInvitations: Sendable {
    let store: PortvaktStore
    let mailer: Mailer
    let passwordCost: Int
    let logger: Logger
    let now: @Sendable () -> Date

    enum Outcome {
        case passwordSet
        /// Unknown, used or expired.
        case gone
        /// The record or account changed since the invitation was sent.
        case noLongerFits
    }

    func isOpen(token: String) async throws -> Bool {
        guard token.utf8.count <= 128 else { return false }
        return try await store.passwordInvite(tokenHash: RefreshTokenSecret.hash(token), now: now()) != nil
    }

    /// Sets an acceptable password (the caller has checked it) for the invitation's account.
    func accept(token: String, password: String, language: Language) async throws -> Outcome {
        let hash = RefreshTokenSecret.hash(token)
        guard token.utf8.count <= 128, try await store.passwordInvite(tokenHash: hash, now: now()) != nil else { return .gone }
        let passwordHash = try await PasswordChecker.hash(password, cost: passwordCost)
        guard let invite = try await store.takePasswordInvite(tokenHash: hash, now: now()) else { return .gone }
        guard let account = try await account(for: invite) else { return .noLongerFits }
        let now = self.now()
        let user: User
        if let holder = account.user {
            user = holder
        } else {
            // A record without an account: an account of this record alone, its role only.
            do {
                user = try await store.createMemberUser(
                    displayName: account.record.fullName, email: invite.email, personnummer: nil, provider: .password, subject: invite.email,
                    memberRecords: [account.record], now: now
                )
            } catch {
                try? await store.releasePasswordInvite(tokenHash: hash)
                throw error
            }
        }
        let notice = try? mailer.message(.passwordChanged, to: user.email ?? invite.email, language: language)
        let ended = try await store.setPassword(
            userID: user.id, passwordHash: passwordHash, notice: notice,
            audit: AuditEvent(
                occurredAt: now, action: .userPasswordSet, outcome: "success", actorUserID: UUID(uuidString: user.id),
                organisationID: UUID(uuidString: account.record.organisationId), subjectType: "user", subjectID: user.id, source: "password-invite",
                details: ["member": account.record.id]
            ),
            now: now
        )
        logger.info("Password set from an invitation", metadata: ["user": "\(user.id)", "sessions_ended": "\(ended)"])
        return .passwordSet
    }

    /// The account the invitation is for, as it was bound: the same holder of the record, or for a
    /// record that had none, still none, and its email still no other account's. Nil when the
    /// invitation no longer fits (a taken invitation stays used: the administrator sends a new one).
    private func account(for invite: PasswordInvite) async throws -> (record: MemberRecord, user: User?)? {
        guard let record = try await store.memberRecord(id: invite.memberRecordId) else { return nil }
        let holder = try await store.user(holdingAnyOf: [record])
        let owner = try await store.user(email: invite.email)
        guard holder?.id == invite.userId, owner == nil || owner?.id == holder?.id else { return nil }
        if let holder {
            guard holder.disabledAt == nil, holder.email?.lowercased() == invite.email.lowercased(),
                  try await store.memberOrganisationIDs(userID: holder.id).allSatisfy({ $0 == record.organisationId })
            else { return nil }
        } else {
            // As when it was sent: no other organisation's member carries the address.
            guard try await store.memberRecords(email: invite.email).allSatisfy({ $0.organisationId == record.organisationId }) else { return nil }
        }
        return (record, holder)
    }
}
