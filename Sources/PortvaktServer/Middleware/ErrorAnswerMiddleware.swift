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
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let failure as OAuthFailure {
            return try answer(failure, to: request, context: context)
        } catch let refusal as DomainError {
            return try answer(OAuthFailure(refusal), to: request, context: context)
        } catch let refusal as GrantRefusal {
            return try answer(OAuthFailure(refusal), to: request, context: context)
        } catch let error as HTTPError where [.badRequest, .contentTooLarge, .unsupportedMediaType].contains(error.status) && routes.surface(of: request, context: context) == .json {
            // A malformed query or body the HTTP helpers refused: the API's one error shape.
            return try OAuthFailure(error: .invalidRequest, description: error.body ?? "The request is malformed.", status: error.status).response()
        }
    }

    private func answer(_ failure: OAuthFailure, to request: Request, context: Context) throws -> Response {
        try Self.answer(failure, to: request, context: context, as: routes.surface(of: request, context: context))
    }

    /// `failure` as `surface`, the surface of the route that answers `request`, expects it.
    static func answer(_ failure: OAuthFailure, to request: Request, context: some RequestContext, as surface: Surface) throws -> Response {
        surface == .json ? try failure.response() : try failure.response(from: request, context: context)
    }
}
