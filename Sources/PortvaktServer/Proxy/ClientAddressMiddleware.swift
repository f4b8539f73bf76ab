import HTTPTypes
import Hummingbird

/// Puts the client's address (``ClientAddressResolver``) into the request context, for the
/// throttles, the BankID order's `endUserIp` and the audit trail.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = PortvaktRequestContext

    let resolver: ClientAddressResolver

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.resolvedClientAddress = resolver.clientAddress(
            peer: context.peer,
            forwarded: request.headers[values: .forwarded],
            forwardedFor: request.headers[values: .xForwardedFor]
        )
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let forwarded = Self("Forwarded")!
    static let xForwardedFor = Self("X-Forwarded-For")!
}
