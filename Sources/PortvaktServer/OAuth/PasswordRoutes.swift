import PortvaktDomain
import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktModels
import PortvaktStorage

/// `POST /oauth/password`: the email and password form. One answer for a wrong password and an
/// unknown email; failures per account and per address are throttled with growing waits.
struct PasswordRoutes {
    let flows: LoginFlows
    let passwords: PasswordLogin
    let completion: LoginCompletion

    func register(on routes: DeclaredRoutes) {
        routes.post("/oauth/password", .loginForm, surface: .page) { request, context in
            try await submit(request, address: context.clientAddress)
        }
    }

    private func submit(_ request: Request, address: String) async throws -> Response {
        let fields = try await request.formFields()
        guard let handle = fields["flow"], let login = try await flows.pendingLogin(handle: handle, take: false), login.method == .password else {
            return BrokerPage.problem(.invalidLoginRequest, reason: "this login is unknown, finished or expired", language: .nb)
        }
        let email = (fields["email"] ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        // The brand is read only when the form is shown again, not for a login that goes through.
        func page(_ message: UserMessage, status: HTTPResponse.Status) async -> Response {
            BrokerPage.response(
                PasswordPage.render(
                    login.request, handle: handle, email: email, message: message, passkeys: flows.passkeysAvailable,
                    brand: await flows.brand(for: login.request, completion)
                ), status: status,
                script: flows.passkeysAvailable
            )
        }
        let user: User
        switch try await passwords.check(email: email, password: fields["password"] ?? "", address: address) {
        case .throttled: return await page(.tooManyAttempts, status: .tooManyRequests)
        case .refused: return await page(.wrongEmailOrPassword, status: .unauthorized)
        case .accepted(let accepted): user = accepted
        }
        // Taken only now, so a mistyped password can be corrected on the same page.
        guard let taken = try await flows.pendingLogin(handle: handle, take: true) else {
            return BrokerPage.problem(.invalidLoginRequest, reason: "this login is finished", language: login.request.language)
        }
        let method = LoginCompletion.Method(provider: .password, amr: ["pwd"], acr: Authentication.passwordACR)
        return try await flows.finish(taken, user: user, method: method, completion: completion, request: request)
    }
}
