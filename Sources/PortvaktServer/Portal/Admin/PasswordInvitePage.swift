import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktStorage

/// `/portal/password/{token}`: the member's side of an administrator's invitation to password
/// login, which came by email. The member chooses the password (twice); the link works once, for
/// 24 hours, and only for the account it was bound to (or, for a record without one, a new
/// account of that record alone). Setting it ends the account's sessions and tells the member.
struct PasswordInvitePage {
    let broker: Broker
    let pages: PortalPage

    static func path(_ token: String) -> String { "/portal/password/\(token)" }

    func register(on router: Router<PortvaktRequestContext>) {
        router.get("/portal/password/:token") { request, context in
            try await form(request, token: context.parameters.get("token") ?? "")
        }
        router.post("/portal/password/:token") { request, context in
            try await submit(request, token: context.parameters.get("token") ?? "")
        }
    }

    private func frame(_ request: Request) -> PortalPage.Frame {
        PortalPage.Frame(language: PortalLanguage.of(request), path: request.uri.path, csrf: nil)
    }

    private func form(_ request: Request, token: String, errors: [(field: String, text: AdminText)] = []) async throws -> Response {
        let frame = frame(request)
        guard token.utf8.count <= 128, try await broker.store.passwordInvite(tokenHash: PortalSessionCookie.hash(token), now: broker.now()) != nil else {
            return gone(frame)
        }
        var values: [String: Any] = [
            "action": Self.path(token),
            "errors": errors.map { ["field": $0.field, "text": $0.text.text(frame.language)] }, "hasErrors": !errors.isEmpty,
        ]
        // Only fields with an error get a message (an empty string would still open the section).
        for (field, text) in errors { values[field + "Error"] = text.text(frame.language) }
        return pages.response("password_invite", frame: frame, values: values, status: errors.isEmpty ? .ok : .badRequest)
    }

    private func submit(_ request: Request, token: String) async throws -> Response {
        let frame = frame(request)
        // No session to bind a CSRF token to: the link's token is the secret, and the form must come from here.
        if let origin = request.headers[.origin], origin != PortalSessionCookie.origin(of: broker.issuer) {
            return PortalRoutes.problem(.formExpired, heading: .errorTitle, frame: frame, status: .forbidden, retry: false, pages: pages)
        }
        let fields = (try? await request.formFields()) ?? FormFields("")!
        let password = fields["password"] ?? "", repeated = fields["repeat"] ?? ""
        var errors: [(String, AdminText)] = []
        if !PasswordChecker.isAcceptable(password) { errors.append(("password", .passwordLength)) }
        // bcrypt reads 72 bytes: a longer password would be cut without a word (review II, item 1).
        else if password.utf8.count > PasswordChecker.maximumBytes { errors.append(("password", .passwordTooLong)) }
        if password != repeated { errors.append(("repeat", .passwordMismatch)) }
        guard errors.isEmpty else { return try await form(request, token: token, errors: errors) }
        let hash = PortalSessionCookie.hash(token)
        guard token.utf8.count <= 128, try await broker.store.passwordInvite(tokenHash: hash, now: broker.now()) != nil else { return gone(frame) }
        let passwordHash = try await PasswordChecker.hash(password, cost: broker.passwords.cost)
        guard let invite = try await broker.store.takePasswordInvite(tokenHash: hash, now: broker.now()) else { return gone(frame) }
        guard let account = try await account(for: invite) else { return gone(frame, message: .inviteNoLongerFits) }
        let now = broker.now()
        let user: User
        if let holder = account.user {
            user = holder
        } else {
            // A record without an account: an account of this record alone, its role only.
            do {
                user = try await broker.store.createMemberUser(
                    displayName: account.record.fullName, email: invite.email, personnummer: nil, provider: .password, subject: invite.email,
                    memberRecords: [account.record], now: now
                )
            } catch {
                try? await broker.store.releasePasswordInvite(tokenHash: hash)
                throw error
            }
        }
        let notice = try? broker.mailer.message(.passwordChanged, to: user.email ?? invite.email, language: frame.language)
        let ended = try await broker.store.setPassword(
            userID: user.id, passwordHash: passwordHash, notice: notice,
            audit: AuditEvent(
                occurredAt: now, action: "user.password_set", outcome: "success", actorUserID: UUID(uuidString: user.id),
                organisationID: UUID(uuidString: account.record.organisationId), subjectType: "user", subjectID: user.id, source: "password-invite",
                details: ["member": account.record.id]
            ),
            now: now
        )
        broker.logger.info("Password set from an invitation", metadata: ["user": "\(user.id)", "sessions_ended": "\(ended)"])
        var done = frame
        done.status = AdminText.passwordSet.text(frame.language)
        return pages.response("notice", frame: done, values: [
            "heading": AdminText.passwordSetTitle.text(frame.language), "message": AdminText.passwordSet.text(frame.language),
            "action": ["href": "/portal/login?method=password", "label": PortalText.signInPassword.text(frame.language)],
        ])
    }

    private func gone(_ frame: PortalPage.Frame, message: AdminText = .inviteGone) -> Response {
        pages.response("problem", frame: frame, values: [
            "heading": AdminText.inviteGoneTitle.text(frame.language), "message": message.text(frame.language),
        ], status: .gone)
    }

    /// The account the invitation is for, as it was bound: the same holder of the record, or for a
    /// record that had none, still none, and its email still no other account's. Nil when the
    /// invitation no longer fits (a taken invitation stays used: the administrator sends a new one).
    private func account(for invite: PasswordInvite) async throws -> (record: MemberRecord, user: User?)? {
        guard let record = try await broker.store.memberRecord(id: invite.memberRecordId) else { return nil }
        let holder = try await broker.store.user(holdingAnyOf: [record])
        let owner = try await broker.store.user(email: invite.email)
        guard holder?.id == invite.userId, owner == nil || owner?.id == holder?.id else { return nil }
        if let holder {
            guard holder.disabledAt == nil, holder.email?.lowercased() == invite.email.lowercased(),
                  try await broker.store.organisationRoles(userID: holder.id).allSatisfy({ $0.organisationID == record.organisationId })
            else { return nil }
        } else {
            // As when it was sent: no other organisation's member carries the address.
            guard try await broker.store.memberRecords(email: invite.email).allSatisfy({ $0.organisationId == record.organisationId }) else { return nil }
        }
        return (record, holder)
    }
}
