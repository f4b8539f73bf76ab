import Hummingbird
import PortvaktDomain
import PortvaktProtocol

/// One mapping of refusals to answers, per surface. A route throws ``OAuthFailure`` or the
/// domain's ``DomainError`` and never catches either: the JSON endpoints (the app's API, OAuth's
/// token, PAR, revoke and userinfo, the BankID orders) answer OAuth JSON whatever the client
/// accepts; the browser pages answer a page in the person's language to a browser. Innermost,
/// so the middlewares outside it (DPoP nonces, logs, metrics) see an ordinary response.
struct ErrorAnswerMiddleware: RouterMiddleware {
    typealias Context = PortvaktRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let failure as OAuthFailure {
            return try Self.answer(failure, to: request, context: context)
        } catch let refusal as DomainError {
            return try Self.answer(OAuthFailure(refusal), to: request, context: context)
        } catch let refusal as GrantRefusal {
            return try Self.answer(OAuthFailure(refusal), to: request, context: context)
        } catch let error as HTTPError where [.badRequest, .contentTooLarge, .unsupportedMediaType].contains(error.status) && Self.surface(request, context) == .json {
            // A malformed query or body the HTTP helpers refused: the API's one error shape.
            return try OAuthFailure(error: .invalidRequest, description: error.body ?? "The request is malformed.", status: error.status).response()
        }
    }

    /// `failure` as the surface of the route that answers `request` expects.
    static func answer(_ failure: OAuthFailure, to request: Request, context: some RequestContext) throws -> Response {
        surface(request, context) == .json ? try failure.response() : try failure.response(from: request, context: context)
    }

    /// The matched route's surface (its template, so `//oauth/password` is the page it reaches).
    static func surface(_ request: Request, _ context: some RequestContext) -> Surface {
        Surface.of(context.endpointPath ?? request.uri.path)
    }
}

/// Who reads an address's answers: a program (JSON) or a person in a browser (a page).
enum Surface: Equatable {
    case json, page

    /// The browser pages; every other address is a JSON endpoint.
    static func of(_ path: String) -> Surface {
        let pages = ["/", "/language", "/oauth/authorize", "/oauth/password", "/oauth/passkey", "/oauth/end-session", "/oauth/bankid/other-device"]
        let pagePrefixes = ["/oauth/callback/", "/oauth/claim/", "/portal/", "/account", "/admin", "/sandbox/mailbox"]
        return pages.contains(path) || pagePrefixes.contains(where: path.hasPrefix) ? .page : .json
    }
}
