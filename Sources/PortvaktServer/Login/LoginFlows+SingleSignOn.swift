import Foundation
import HTTPTypes
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktModels

/// The browser's single sign-on, from the login pages' side: the sign-in a request's cookie
/// names, and the end of every login in the browser (a provider's callback, a password, a
/// passkey, a membership claim), which signs the browser in where the client takes part.
extension LoginFlows {
    /// The live sign-in the request's cookie names, its idle time renewed; nil without one.
    func browserSession(of request: Request) async throws -> BrowserSession? {
        guard let reference = singleSignOn.reference(in: request) else { return nil }
        return try await store.touchBrowserSession(idHash: SingleSignOnCookie.hash(reference), idle: lifetimes.browserIdle, now: now())
    }

    /// Finishes a login in the browser: the code (or the refusal), the browser's sign-in and its
    /// cookie, or, for a third party the person has not yet answered, the consent page next.
    func finish(
        _ login: PendingLogin, user: User, method: LoginCompletion.Method, personnummer: ProvidedPersonnummer? = nil,
        completion: LoginCompletion, request: Request
    ) async throws -> Response {
        let earlier = try await browserSession(of: request)
        let reference = randomToken()
        let finished = try await completion.succeed(
            login, user: user, method: method, personnummer: personnummer, browser: (SingleSignOnCookie.hash(reference), earlier)
        )
        switch finished {
        case .refused(let location):
            return Responses.redirect(to: location, status: .seeOther)
        case .code(let location, let signedIn):
            var response = Responses.redirect(to: location, status: .seeOther)
            if signedIn { response.headers.append(HTTPField(name: .setCookie, value: singleSignOn.setting(reference, lifetime: lifetimes.browserAbsolute))) }
            return response
        case .consentNeeded:
            var request = login.request
            request.method = nil
            let handle = try await continuation(for: request, expiresAt: now().addingTimeInterval(lifetimes.loginFlow))
            var response = Responses.redirect(to: ConsentRoutes.url(issuer: address.current, clientID: request.clientID, handle: handle, language: request.language), status: .seeOther)
            response.headers.append(HTTPField(name: .setCookie, value: singleSignOn.setting(reference, lifetime: lifetimes.browserAbsolute)))
            return response
        }
    }
}
