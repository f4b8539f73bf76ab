import PortvaktCore
import PortvaktHTTP
import Hummingbird

/// Applies a provider's availability faults to every request under its path (`/sandbox/vipps/…`,
/// `/sandbox/bankid/…`): drop the connection, answer 503, or answer late.
struct FaultMiddleware<Context: SandboxRequestContext>: RouterMiddleware {
    let pathPrefix: String
    let board: FaultBoard

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard let provider = SandboxProvider.allCases.first(where: { path.hasPrefix("\(pathPrefix)/\($0.segment)/") }) else {
            return try await next(request, context)
        }
        let settings = await board.settings(for: provider)
        if settings.contains(.connectionDrop) {
            await context.dropConnection()
            throw HTTPError(.serviceUnavailable)
        }
        if settings.contains(.outage) {
            return try Responses.json(
                ["error": "temporarily_unavailable", "error_description": "\(provider.displayName) is unavailable (sandbox fault: outage)."],
                status: .serviceUnavailable, headers: [.retryAfter: "30"]
            )
        }
        if settings.contains(.slow) {
            try await Task.sleep(for: .milliseconds(Int(settings.slowSeconds * 1000)))
        }
        return try await next(request, context)
    }
}
