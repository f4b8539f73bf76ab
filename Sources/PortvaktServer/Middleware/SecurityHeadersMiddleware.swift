import HTTPTypes
import Hummingbird

/// Headers every answer carries, errors and the broker's own pages included: no MIME sniffing,
/// never in a frame, and on an https deployment `Strict-Transport-Security`, so a browser never
/// tries plain http again (review II, item 9); a 503 says `Retry-After`. A route's own value is kept.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    let https: Bool

    init(publicURL: String) {
        https = publicURL.lowercased().hasPrefix("https://")
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        if response.headers[.xContentTypeOptions] == nil { response.headers[.xContentTypeOptions] = "nosniff" }
        if response.headers[.xFrameOptions] == nil { response.headers[.xFrameOptions] = "DENY" }
        if https, response.headers[.strictTransportSecurity] == nil { response.headers[.strictTransportSecurity] = "max-age=31536000" }
        // "Try again" says when: a client (or proxy) that honours it waits rather than hammers.
        if response.status == .serviceUnavailable, response.headers[.retryAfter] == nil { response.headers[.retryAfter] = "2" }
        return response
    }
}

extension HTTPField.Name {
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let xFrameOptions = Self("X-Frame-Options")!
    static let strictTransportSecurity = Self("Strict-Transport-Security")!
}
