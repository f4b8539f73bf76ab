import Foundation
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// Sign-in with a passkey (S18.2) in a login's flow, from the passkey page or the password
/// page's email field: `POST /oauth/passkey/options` gives the challenge (bound to the flow),
/// `POST /oauth/passkey` takes the assertion and ends the login as the password form does.
/// The portal's "Confirm with a passkey" is such a login too (`prompt=login`), so the step-up
/// and the sign-in are one ceremony.
struct PasskeySignInRoutes {
    let flows: LoginFlows
    let passkeys: Passkeys
    let completion: LoginCompletion

    func register(on routes: DeclaredRoutes) {
        // The options are JSON for the page's script; the assertion is the page's form.
        routes.post("/oauth/passkey/options", .loginForm, surface: .json) { request, _ in try await options(request) }
        routes.post("/oauth/passkey", .loginForm, surface: .page) { request, _ in try await submit(request) }
    }

    /// The flow a passkey may end: one started for a passkey or for the password form.
    private func login(_ handle: String?) async throws -> PendingLogin? {
        guard let handle, handle.utf8.count <= 128, let login = try await flows.pendingLogin(handle: handle, take: false),
              login.method == .passkey || login.method == .password
        else { return nil }
        return login
    }

    private func options(_ request: Request) async throws -> Response {
        let fields = try await request.formFields()
        guard passkeys.available, let handle = fields["flow"], try await login(handle) != nil else {
            throw OAuthFailure.invalidRequest("This login is unknown, finished or expired; start it again.")
        }
        return try Responses.json(PublicKeyOptions(publicKey: try await passkeys.signInOptions(binding: Self.binding(handle))))
    }

    private func submit(_ request: Request) async throws -> Response {
        let fields = try await request.formFields()
        guard let handle = fields["flow"], let login = try await login(handle) else {
            return BrokerPage.problem(.invalidLoginRequest, reason: "this login is unknown, finished or expired", language: .nb)
        }
        let response = PasskeyAssertionResponse(
            credentialID: fields["credential_id"] ?? "", clientDataJSON: fields["client_data"] ?? "", authenticatorData: fields["authenticator_data"] ?? "",
            signature: fields["signature"] ?? "", userHandle: fields["user_handle"] ?? ""
        )
        let signedIn: (user: User, passkey: Passkey)
        do {
            signedIn = try await passkeys.signIn(response, binding: Self.binding(handle), source: "passkey-login")
        } catch let refusal as PasskeyRefusal {
            let (message, status): (BrokerText, HTTPResponse.Status) = switch refusal {
            case .expired: (.passkeyExpired, .badRequest)
            case .unknownCredential: (.passkeyUnknown, .unauthorized)
            case .cloned: (.passkeyCopied, .unauthorized)
            default: (.passkeyNotAccepted, .unauthorized)
            }
            // Answered on the page it came from: the passkey page, or the password page's email field.
            if login.method == .password {
                return BrokerPage.response(PasswordPage.render(login.request, handle: handle, passkeyMessage: message, passkeys: true, brand: await flows.brand(for: login.request, completion)), status: status, script: true)
            }
            return BrokerPage.response(PasskeyPage.render(login.request, handle: handle, message: message, brand: await flows.brand(for: login.request, completion)), status: status, script: true)
        }
        // Taken only now, so a refused passkey can be tried again on the same page.
        guard let taken = try await flows.pendingLogin(handle: handle, take: true) else {
            return BrokerPage.problem(.invalidLoginRequest, reason: "this login is finished", language: login.request.language)
        }
        let method = passkeys.loginMethod(user: signedIn.user, passkey: signedIn.passkey)
        do {
            return try await flows.finish(taken, user: signedIn.user, method: method, completion: completion, request: request)
        } catch let error as StoreError where error.isNotFound && error.detail == "passkeys" {
            // Removed between the check of its answer and the session: it opens nothing.
            let failed = try await completion.fail(taken, error: .serverError, message: .loginFailed, reason: "passkey removed during sign-in")
            return Responses.redirect(to: failed, status: .seeOther)
        }
    }

    /// A sign-in's challenge is bound to its flow.
    static func binding(_ handle: String) -> String { "sign_in:\(handle)" }
}

/// What `navigator.credentials.create` or `.get` takes, as JSON: `{"publicKey": …}`.
struct PublicKeyOptions<Options: Encodable & Sendable>: Encodable, Sendable {
    let publicKey: Options
}
