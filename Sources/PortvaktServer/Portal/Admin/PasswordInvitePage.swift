import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktStorage

/// `/portal/password/{token}`: the member's side of an administrator's invitation to password
/// login, which came by email. The member chooses the password (twice); the link works once, for
/// 24 hours, and only for the account it was bound to (or, for a record without one, a new
/// account of that record alone). Setting it ends the account's sessions and tells the member.
struct PasswordInvitePage {
    let invitations: PasswordInvitations
    let address: PublicAddress
    let pages: PortalPage

    static func path(_ token: String) -> String { "/portal/password/\(token)" }

    func register(on routes: DeclaredRoutes) {
        // The invitation's one-time token is the caller's credential.
        routes.get("/portal/password/:token", .anonymous, surface: .page) { request, context in
            try await form(request, token: context.parameters.get("token") ?? "")
        }
        routes.post("/portal/password/:token", .anonymous, surface: .page) { request, context in
            try await submit(request, token: context.parameters.get("token") ?? "")
        }
    }

    private func frame(_ request: Request) -> PortalPage.Frame {
        PortalPage.Frame(language: PortalLanguage.of(request), path: request.uri.path, csrf: nil)
    }

    private func form(_ request: Request, token: String, errors: [(field: String, text: AdminText)] = []) async throws -> Response {
        let frame = frame(request)
        guard try await invitations.isOpen(token: token) else {
            return gone(frame)
        }
        // Only fields with an error get a message (an empty string would still open the section).
        let message = { (field: String) in errors.last { $0.field == field }?.text.text(frame.language) }
        let values = PasswordInviteView(
            action: Self.path(token),
            errors: errors.map { PasswordInviteView.FieldError(field: $0.field, text: $0.text.text(frame.language)) }, hasErrors: !errors.isEmpty,
            passwordError: message("password"), repeatError: message("repeat")
        )
        return pages.response("password_invite", frame: frame, values: values, status: errors.isEmpty ? .ok : .badRequest)
    }

    private func submit(_ request: Request, token: String) async throws -> Response {
        let frame = frame(request)
        // No session to bind a CSRF token to: the link's token is the secret, and the form must come from here.
        if let origin = request.headers[.origin], origin != PortalSessionCookie.origin(of: address.current) {
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
        switch try await invitations.accept(token: token, password: password, language: frame.language) {
        case .gone: return gone(frame)
        case .noLongerFits: return gone(frame, message: .inviteNoLongerFits)
        case .passwordSet: break
        }
        var done = frame
        done.status = AdminText.passwordSet.text(frame.language)
        return pages.response("notice", frame: done, values: NoticeView(
            heading: AdminText.passwordSetTitle.text(frame.language), message: AdminText.passwordSet.text(frame.language),
            action: NoticeView.Action(href: "/portal/login?method=password", label: PortalText.signInPassword.text(frame.language))
        ))
    }

    private func gone(_ frame: PortalPage.Frame, message: AdminText = .inviteGone) -> Response {
        pages.response("problem", frame: frame, values: NoticeView(
            heading: AdminText.inviteGoneTitle.text(frame.language), message: message.text(frame.language), action: nil
        ), status: .gone)
    }
}

/// What `password_invite` reads.
struct PasswordInviteView: PageValues {
    /// Where the form posts: the invitation's own address.
    let action: String
    let errors: [FieldError]
    let hasErrors: Bool
    /// Each field's message; nil: the field has none.
    let passwordError: String?
    let repeatError: String?

    /// A field's message in the error summary, linking to the field (`#password`, `#repeat`).
    struct FieldError: PageValues {
        let field: String
        let text: String
    }
}
