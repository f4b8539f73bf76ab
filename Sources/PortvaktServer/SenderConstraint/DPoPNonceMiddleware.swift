import Foundation
import Hummingbird

/// Every answer to a request with a DPoP proof carries the current server nonce (RFC 9449 §8.2),
/// errors included, so a client keeps a fresh one without an extra round trip.
struct DPoPNonceMiddleware<Context: RequestContext>: RouterMiddleware {
    let nonces: DPoPNonces
    let now: @Sendable () -> Date

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.dpop] != nil else { return try await next(request, context) }
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.dpopNonce] = nonces.current(at: now())
        return response
    }
}
