import Foundation
import Hummingbird
import PortvaktCore
import PortvaktStorage

/// `/portal/password/{token}`: the member's side of an administrator's invitation to password
/// login. The member chooses the password (twice); the link works once, for 24 hours. The
/// account is found or made as `portvakt-server set-password` does it: by the record's email.
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
        if password != repeated { errors.append(("repeat", .passwordMismatch)) }
        guard errors.isEmpty else { return try await form(request, token: token, errors: errors) }
        let hash = PortalSessionCookie.hash(token)
        guard token.utf8.count <= 128, try await broker.store.passwordInvite(tokenHash: hash, now: broker.now()) != nil else { return gone(frame) }
        let passwordHash = try await PasswordChecker.hash(password, cost: broker.passwords.cost)
        guard let invite = try await broker.store.takePasswordInvite(tokenHash: hash, now: broker.now()) else { return gone(frame) }
        do {
            let records = try await broker.store.memberRecords(email: invite.email)
            let user = try await broker.store.setPassword(email: invite.email, passwordHash: passwordHash, memberRecords: records, now: broker.now())
            let record = try await broker.store.memberRecord(id: invite.memberRecordId)
            try await broker.store.append(AuditEvent(
                occurredAt: broker.now(), action: "user.password_set", outcome: "success", actorUserID: UUID(uuidString: user.id),
                organisationID: record.flatMap { UUID(uuidString: $0.organisationId) }, subjectType: "user", subjectID: user.id, source: "password-invite"
            ))
        } catch {
            try? await broker.store.releasePasswordInvite(tokenHash: hash)
            throw error
        }
        var done = frame
        done.status = AdminText.passwordSet.text(frame.language)
        return pages.response("notice", frame: done, values: [
            "heading": AdminText.passwordSetTitle.text(frame.language), "message": AdminText.passwordSet.text(frame.language),
            "action": ["href": "/portal/login?method=password", "label": PortalText.signInPassword.text(frame.language)],
        ])
    }

    private func gone(_ frame: PortalPage.Frame) -> Response {
        pages.response("problem", frame: frame, values: [
            "heading": AdminText.inviteGoneTitle.text(frame.language), "message": AdminText.inviteGone.text(frame.language),
        ], status: .gone)
    }
}
