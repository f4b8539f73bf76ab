import Foundation
import HTTPTypes
import Hummingbird
import PortvaktCore
import PortvaktDomain
import PortvaktHTTP
import PortvaktProtocol

/// S15: claiming a membership by an emailed code, after a BankID or Vipps login that found no
/// member record (`CallbackRoutes` shows the first page). The caller's credential is the claim's
/// handle, a hidden field of 256 random bits, together with the cookie that binds it to the
/// browser the claim was offered to (``BrowserBinding``); a form from another site is refused
/// before it gets here (``RoutePolicy/loginForm``).
/// `POST /oauth/claim/email`: send a code; `POST /oauth/claim/code`: enter it, and the login goes
/// on to the app as the member's; `POST /oauth/claim/cancel`: the app hears `not_registered`.
struct ClaimRoutes {
    let claims: MembershipClaims
    let completion: LoginCompletion
    let flows: LoginFlows
    /// The claim's binding to its browser (also `flows.binding`).
    var binding: BrowserBinding { flows.binding }

    func register(on routes: DeclaredRoutes) {
        routes.post("/oauth/claim/email", .loginForm, surface: .page) { request, _ in try await sendCode(request) }
        routes.post("/oauth/claim/code", .loginForm, surface: .page) { request, _ in try await confirm(request) }
        routes.post("/oauth/claim/cancel", .loginForm, surface: .page) { request, _ in try await cancel(request) }
    }

    private func sendCode(_ request: Request) async throws -> Response {
        let fields = try await request.formFields()
        guard let handle = fields["claim"], binding.isClaimBound(request, to: handle) else { return BrowserBinding.otherBrowser(request) }
        guard let claim = try await claims.claim(handle: handle) else { return ended() }
        let language = claim.request.language
        let brand = await flows.brand(for: claim.request, completion)
        let email = String((fields["email"] ?? "").trimmingCharacters(in: .whitespaces).prefix(254))
        // "Send a new code" from a page that named no address: ask for it again.
        guard !email.isEmpty else { return ClaimPage.email(handle: handle, language: language, brand: brand) }
        switch try await claims.sendCode(handle: handle, email: email) {
        case .sent:
            let address = email.lowercased()
            return ClaimPage.code(handle: handle, language: language, brand: brand, email: (address: address, signature: binding.signature(ofEmail: address, handle: handle)))
        case .invalidEmail:
            return ClaimPage.email(handle: handle, language: language, brand: brand, email: email, error: ClaimText.invalidEmail.text(language), status: .badRequest)
        case .tooManyEmails:
            return ClaimPage.email(handle: handle, language: language, brand: brand, email: email, error: ClaimText.tooManyEmails.text(language), status: .tooManyRequests)
        case .ended:
            return ended()
        }
    }

    private func confirm(_ request: Request) async throws -> Response {
        let fields = try await request.formFields()
        guard let handle = fields["claim"], binding.isClaimBound(request, to: handle) else { return BrowserBinding.otherBrowser(request) }
        guard let claim = try await claims.claim(handle: handle) else { return ended() }
        let language = claim.request.language
        let brand = await flows.brand(for: claim.request, completion)
        // Only an address this server signed for this claim is shown again.
        let email = binding.signedEmail(fields["email"], signature: fields["email_signature"], handle: handle).map { (address: $0, signature: fields["email_signature"] ?? "") }
        switch try await claims.confirm(handle: handle, code: String((fields["code"] ?? "").prefix(32))) {
        case .linked(let login, let user, let method, let personnummer):
            var response = try await flows.finish(login, user: user, method: method, personnummer: personnummer, completion: completion, request: request)
            response.headers.append(HTTPField(name: .setCookie, value: binding.claimClearing))
            return response
        case .wrongCode(let left):
            return ClaimPage.code(handle: handle, language: language, brand: brand, email: email, error: ClaimText.wrongCode(triesLeft: left, language), status: .badRequest)
        case .codeExpired:
            return ClaimPage.code(handle: handle, language: language, brand: brand, email: email, error: ClaimText.codeExpired.text(language), status: .badRequest)
        case .throttled:
            return ClaimPage.code(handle: handle, language: language, brand: brand, email: email, error: UserMessage.tooManyAttempts.text(language), status: .tooManyRequests)
        case .ended(let login):
            guard let login else { return ended(language) }
            let location = try await completion.fail(login, error: .accessDenied, message: .membershipClaimEnded, reason: "membership claim ended")
            var response = Responses.redirect(to: location, status: .seeOther)
            response.headers[.setCookie] = binding.claimClearing
            return response
        }
    }

    private func cancel(_ request: Request) async throws -> Response {
        let fields = try await request.formFields()
        guard let handle = fields["claim"], binding.isClaimBound(request, to: handle) else { return BrowserBinding.otherBrowser(request) }
        guard let login = try await claims.cancel(handle: handle) else { return ended() }
        let location = try await completion.fail(login, error: .accessDenied, message: .notRegistered, reason: "no member record")
        var response = Responses.redirect(to: location, status: .seeOther)
        response.headers[.setCookie] = binding.claimClearing
        return response
    }

    private func ended(_ language: Language = .nb) -> Response {
        BrokerPage.problem(.membershipClaimEnded, reason: "this claim is unknown, finished or expired", language: language)
    }
}
