import Hummingbird
import PortvaktDomain
import PortvaktProtocol

/// The one mapping of refusals to answers, per surface. A route throws ``OAuthFailure``, the
/// domain's ``DomainError`` or, on SCIM, ``SCIMError`` and the directory's refusals, and never
/// catches them: the JSON endpoints (the app's API, OAuth's token, PAR, revoke and userinfo, the
/// BankID orders) answer OAuth JSON whatever the client accepts; the browser pages answer a page in
/// the person's language to a browser; SCIM answers in its own error shape only. Innermost, so
/// the middlewares outside it (DPoP nonces, logs, metrics) see an ordinary response. What no
/// refusal explains is ``UnexpectedErrorMiddleware``'s, in the same shapes.
struct ErrorAnswerMiddleware: RouterMiddleware {
    typealias Context = PortvaktRequestContext
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let surface = routes.surface(of: request, context: context)
            if surface == .scim {
                guard let refusal = SCIMError(answering: error) else { throw error }
                return refusal.response(for: request)
            }
            guard let failure = OAuthFailure(answering: error, on: surface) else { throw error }
            return try Self.answer(failure, to: request, context: context, as: surface)
        }
    }

    /// `failure` as `surface`, the surface of the route that answers `request`, expects it.
    static func answer(_ failure: OAuthFailure, to request: Request, context: some RequestContext, as surface: Surface) throws -> Response {
        switch surface {
        case .json: try failure.response()
        case .page: try failure.response(from: request, context: context)
        case .scim: SCIMError(failure).response(for: request)
        }
    }
}

extension OAuthFailure {
    /// The refusal `error` stands for on a JSON endpoint or a page; nil when it is none.
    init?(answering error: any Error, on surface: Surface) {
        switch error {
        case let failure as OAuthFailure: self = failure
        case let refusal as DomainError: self.init(refusal)
        case let refusal as GrantRefusal: self.init(refusal)
        case let error as HTTPError where [.badRequest, .contentTooLarge, .unsupportedMediaType].contains(error.status) && surface == .json:
            // A malformed query or body the HTTP helpers refused: the API's one error shape.
            self.init(error: .invalidRequest, description: error.body ?? "The request is malformed.", status: error.status)
        default: return nil
        }
    }
}
