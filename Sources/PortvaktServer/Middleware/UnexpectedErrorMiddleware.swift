import Hummingbird
import Logging
import NIOHTTP1
import PortvaktCore
import PortvaktModels
import PortvaktProtocol
import PortvaktStorage

/// The last word on errors no route answered itself: a database that did not answer is a 503
/// `temporarily_unavailable` ("try again", never "logged out"), anything else a 500
/// `server_error`; each in its route's shape (``Surface``): an OAuth error body for programs, a
/// page for browsers, SCIM's error for member systems. Never a body-less 500, never a stack trace.
struct UnexpectedErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            let surface = routes.surface(of: request, context: context)
            let failure: OAuthFailure
            switch error {
            case let error as HTTPParserError:
                // A body the client framed wrongly (a chunk size that is not hex, or one too large):
                // the client's fault, read only when a route asks for the body (review II, item 9).
                context.logger.notice("A request's body was malformed", metadata: ["error": "\(error)"])
                failure = .invalidRequest("The request body is malformed (\(error)).")
            case let error as StoreError where error.isUnavailable:
                context.logger.error("The database did not answer", metadata: ["error": "\(error)"])
                failure = .temporarilyUnavailable
            default:
                // A member system's request is logged by the error's type only: nothing of its body.
                let described = surface == .scim ? String(reflecting: type(of: error)) : "\(error)"
                context.logger.error("A request failed unexpectedly", metadata: ["error": "\(described)"])
                failure = OAuthFailure(
                    error: .serverError, description: "Something went wrong in Portvakt; try again.", message: .loginFailed, status: .internalServerError
                )
            }
            return try ErrorAnswerMiddleware.answer(failure, to: request, context: context, as: surface)
        }
    }
}
