import Foundation
import Hummingbird
import Logging
import PortvaktCore

/// Logs each request's method, path, status and duration (at info; a 503 at warning, another 5xx at error). The query string, headers and body
/// are never logged: they carry codes, tokens and personnummer; nor is a path whose route takes a
/// token (a password invitation's link): its route is logged instead.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, since: start, context: context)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            log(request, status: status, since: start, context: context)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, since start: ContinuousClock.Instant, context: Context) {
        let elapsed = ContinuousClock.now - start
        PortvaktMetrics.request(route: context.endpointPath ?? "unmatched", method: request.method.rawValue, status: status, duration: elapsed)
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        let route = context.endpointPath
        // A server error is an error, so a server run at warning still shows it; a 503 (starting,
        // draining, the database away) is a warning: it says "try again" and is counted apart.
        context.logger.log(level: status == 503 ? .warning : status >= 500 ? .error : .info, "request", metadata: [
            "method": "\(request.method.rawValue)",
            "path": "\(Self.path(of: request, route: route))",
            "route": "\(route ?? "unmatched")",
            "status": "\(status)",
            "ms": "\((milliseconds * 10).rounded() / 10)",
        ])
    }

    /// The path a log line or a span may show: the route of a path that holds a token, else the
    /// path decoded, so that the redaction sees digits however they were escaped.
    static func path(of request: Request, route: String?) -> String {
        if let route, route.contains("{token}") { return route }
        return PercentEncoding.decode(request.uri.path) ?? "[undecodable]"
    }
}
