import HTTPTypes
import Hummingbird
import Instrumentation
import Tracing

/// A server span for each request, a child of the caller's `traceparent` when it sends one:
/// named by method and route, with the route, the path as the request log shows it, the query
/// (its values redacted by ``RedactingTracer``) and the status. Added only when tracing is on.
struct RequestTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var parent = InstrumentationContext.current ?? .topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HeaderExtractor())
        return try await withSpan(request.method.rawValue, context: parent, ofKind: .server) { span in
            do {
                let response = try await next(request, context)
                describe(span, request: request, context: context, status: Int(response.status.code))
                return response
            } catch {
                describe(span, request: request, context: context, status: (error as? any HTTPResponseError)?.status.code ?? 500)
                throw error
            }
        }
    }

    private func describe(_ span: any Span, request: Request, context: Context, status: Int) {
        let route = context.endpointPath
        span.operationName = "\(request.method.rawValue) \(route ?? "unmatched")"
        span.updateAttributes { attributes in
            attributes["http.request.method"] = request.method.rawValue
            attributes["http.route"] = route
            attributes["url.path"] = RequestLogMiddleware<Context>.path(of: request, route: route)
            attributes["url.query"] = request.uri.query
            attributes["http.response.status_code"] = status
        }
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }
}

/// Reads the W3C `traceparent` and `tracestate` headers for the propagator.
private struct HeaderExtractor: Extractor {
    func extract(key: String, from fields: HTTPFields) -> String? {
        HTTPField.Name(key).flatMap { fields[$0] }
    }
}
