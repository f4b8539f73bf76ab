import Foundation
import Hummingbird
import PortvaktCore
import PortvaktHTTP
import PortvaktStorage

/// `POST /oauth/password`: the email and password form. One answer for a wrong password and an
/// unknown email; failures per account and per address are throttled with growing waits.
struct PasswordRoutes {
    let broker: Broker

    func register(on router: Router<PortvaktRequestContext>) {
        router.post("/oauth/password") { request, context in
            try await submit(request, address: context.clientAddress)
        }
    }

    private func submit(_ request: Request, address: String) async throws -> Response {
        let fields = try await request.formFields()
        guard let handle = fields["flow"], let login = try await broker.pendingLogin(handle: handle, take: false), login.method == .password else {
            return BrokerPage.problem(.invalidLoginRequest, reason: "this login is unknown, finished or expired", language: .nb)
        }
        let email = (fields["email"] ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        let password = fields["password"] ?? ""
        let now = broker.now()
        let keys: [LoginThrottle.Key] = [.account(email), .address(address)]
        func page(_ message: UserMessage, status: HTTPResponse.Status) -> Response {
            BrokerPage.response(PasswordPage.render(login.request, handle: handle, email: email, message: message), status: status)
        }

        // Counted before bcrypt runs, so parallel guesses cannot all be judged (review II, item 4).
        if try await broker.throttle.reserve(keys, now: now) != nil {
            try await auditFailure("throttled", address: address, now: now)
            return page(.tooManyAttempts, status: .tooManyRequests)
        }
        let user = email.isEmpty || email.count > 254 ? nil : try await broker.store.user(email: email)
        let matches = try await broker.passwords.verify(String(password.prefix(128)), hash: user?.passwordHash)
        guard matches, let user, user.disabledAt == nil else {
            try await auditFailure("wrong_credentials", address: address, now: now)
            PortvaktMetrics.login(provider: "password", outcome: "failure")
            return page(.wrongEmailOrPassword, status: .unauthorized)
        }
        try await broker.throttle.recordSuccess(.account(email))
        try await broker.throttle.release(.address(address))
        // Taken only now, so a mistyped password can be corrected on the same page.
        guard let taken = try await broker.pendingLogin(handle: handle, take: true) else {
            return BrokerPage.problem(.invalidLoginRequest, reason: "this login is finished", language: login.request.language)
        }
        let method = LoginCompletion.Method(provider: .password, amr: ["pwd"], acr: "urn:portvakt:password")
        return Responses.redirect(to: try await LoginCompletion(broker: broker).succeed(taken, user: user, method: method), status: .seeOther)
    }

    private func auditFailure(_ reason: String, address: String, now: Date) async throws {
        try await broker.store.append(AuditEvent(occurredAt: now, action: "login.failed", outcome: "failure", source: "password-login", details: ["reason": reason, "client_address": address]))
    }
}
