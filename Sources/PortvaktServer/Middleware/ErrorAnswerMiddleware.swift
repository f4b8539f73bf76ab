import Hummingbird
import PortvaktDomain

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
        }
    }

    static func answer(_ failure: OAuthFailure, to request: Request, context: Context) throws -> Response {
        Surface.of(request.uri.path) == .json ? try failure.response() : try failure.response(from: request, context: context)
    }
}

/// Who reads an address's answers: a program (JSON) or a person in a browser (a page).
enum Surface: Equatable {
    case json, page

    /// The browser pages; every other address is a JSON endpoint.
    static func of(_ path: String) -> Surface {
        let pages = ["/", "/language", "/oauth/authorize", "/oauth/password", "/oauth/end-session", "/oauth/bankid/other-device"]
        let pagePrefixes = ["/oauth/callback/", "/portal/", "/account", "/admin", "/sandbox/mailbox"]
        return pages.contains(path) || pagePrefixes.contains(where: path.hasPrefix) ? .page : .json
    }
}
