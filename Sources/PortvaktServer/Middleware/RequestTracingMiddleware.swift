import HTTPTypes
import Hummingbird
import Instrumentation
import Tracing

/// A server span for each request, named by method and route, with the route, the path as the
/// request log shows it (none for a path no route matched), the query (its values redacted by
/// ``RedactingTracer``) and the status. Added only when tracing is on.
///
/// A caller's trace is continued only from the header ``ClientAddressResolver/traceHeader(peer:)``
/// names for its peer (a trusted proxy's own, or this machine's `traceparent`), and only when
/// well formed (version 00, lowercase hex): `tracestate` is never read, and nothing else of the
/// request reaches the propagator, which logs what it cannot parse.
struct RequestTracingMiddleware: RouterMiddleware {
    typealias Context = PortvaktRequestContext

    let resolver: ClientAddressResolver

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var parent = InstrumentationContext.current ?? .topLevel
        if let header = resolver.traceHeader(peer: context.peer).flatMap({ HTTPField.Name($0) }),
           let traceparent = request.headers[header].flatMap(Self.wellFormed) {
            InstrumentationSystem.instrument.extract(["traceparent": traceparent], into: &parent, using: TraceparentExtractor())
        }
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

    /// `00-<32 hex>-<16 hex>-<2 hex>` with neither id all zeros (W3C Trace Context §3.2).
    static func wellFormed(_ value: String) -> String? {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "00", parts[1].count == 32, parts[2].count == 16, parts[3].count == 2,
              parts.allSatisfy({ $0.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) } }),
              parts[1].contains(where: { $0 != "0" }), parts[2].contains(where: { $0 != "0" })
        else { return nil }
        return value
    }

    private func describe(_ span: any Span, request: Request, context: Context, status: Int) {
        // Hummingbird names a path no route matched "NotFound".
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 }
        span.operationName = "\(request.method.rawValue) \(route ?? "unmatched")"
        span.updateAttributes { attributes in
            attributes["http.request.method"] = request.method.rawValue
            attributes["http.route"] = route
            // A path no route knows may be anything a caller typed (a token pasted in a link).
            attributes["url.path"] = route == nil ? nil : RequestLogMiddleware<Context>.path(of: request, route: route)
            attributes["url.query"] = request.uri.query
            attributes["http.response.status_code"] = status
        }
        if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
    }
}

private struct TraceparentExtractor: Extractor {
    func extract(key: String, from carrier: [String: String]) -> String? {
        carrier[key]
    }
}
