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
        case .consentNeeded(let signIn):
            // The login just now met max_age; the consent page's answer is not held to it again.
            var request = login.request
            request.maxAge = nil
            let handle = try await awaitConsent(request, signIn: signIn)
            var response = Responses.redirect(to: ConsentRoutes.url(issuer: address.current, clientID: request.clientID, handle: handle, language: request.language), status: .seeOther)
            response.headers.append(HTTPField(name: .setCookie, value: singleSignOn.setting(reference, lifetime: lifetimes.browserAbsolute)))
            return response
        }
    }

    /// A request waiting for the person's consent, answered only from the browser sign-in it was
    /// checked against (a login just now, or the one `/oauth/authorize` found meeting it).
    struct ConsentRequest: Codable {
        let request: AppAuthorizationRequest
        let signIn: String
    }

    private static let consentKind = SealingContext.LoginFlowKind.consent

    /// Stores the request until the login flow's lifetime ends; returns the consent page's handle.
    func awaitConsent(_ request: AppAuthorizationRequest, signIn: String) async throws -> String {
        var request = request
        request.continuation = nil
        let handle = randomToken()
        let data = try JSONEncoder().encode(ConsentRequest(request: request, signIn: signIn))
        _ = try await store.insertLoginFlow(
            kind: Self.consentKind, stateHash: RefreshTokenSecret.hash(handle), expiresAt: now().addingTimeInterval(lifetimes.loginFlow), now: now()
        ) { id in try cipher.seal(data, context: SealingContext.loginFlow(kind: Self.consentKind, id: id)) }
        return handle
    }

    /// The request waiting behind a consent page's handle, for `clientID`; `take` removes it.
    func consentRequest(_ handle: String, clientID: String?, take: Bool) async throws -> ConsentRequest? {
        guard handle.utf8.count <= 128 else { return nil }
        let hash = RefreshTokenSecret.hash(handle)
        guard let flow = try await store.loginFlow(stateHash: hash, now: now()), flow.kind == Self.consentKind else { return nil }
        let data = try cipher.open(flow.payload, context: SealingContext.loginFlow(kind: flow.kind, id: flow.id))
        let waiting = try JSONDecoder().decode(ConsentRequest.self, from: data)
        guard waiting.request.clientID == clientID else { return nil }
        if take, try await store.takeLoginFlow(stateHash: hash, now: now()) == nil { return nil }
        return waiting
    }
}
