import InMemoryTracing
import PortvaktCore
@testable import PortvaktServer
import Testing
import Tracing

/// Issue 46 item 4: tracing is chosen by the OpenTelemetry variables, and no span says what a log
/// line may not. The exported tree of a real login is checked by scripts/tracing-test.sh.
@Suite("Operations: tracing")
struct TracingTests {
    @Test("OTEL_TRACES_EXPORTER=otlp turns tracing on; unset, none or OTEL_SDK_DISABLED=true leave it off; another exporter, OTLP over gRPC or a sampler swift-otel lacks is a configuration error naming the variable")
    func switchedByOpenTelemetryVariables() throws {
        func tracing(_ settings: [String: String]) throws -> Bool { try ServerConfiguration.load(.development, from: settings).tracing }
        #expect(try tracing([:]) == false)
        #expect(try tracing(["OTEL_TRACES_EXPORTER": "none"]) == false)
        #expect(try tracing(["OTEL_TRACES_EXPORTER": "otlp"]) == true)
        #expect(try tracing(["OTEL_TRACES_EXPORTER": "OTLP"]) == true)
        #expect(try tracing(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_SDK_DISABLED": "true"]) == false)
        let refusal = #expect(throws: ConfigurationError.self) { try tracing(["OTEL_TRACES_EXPORTER": "zipkin"]) }
        #expect(refusal?.description.hasPrefix("OTEL_TRACES_EXPORTER must be otlp or none") == true)
        #expect(throws: ConfigurationError.self) { try tracing(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_SDK_DISABLED": "maybe"]) }
        #expect(try tracing(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "http/json"]) == true)
        #expect(try tracing(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_TRACES_SAMPLER": "parentbased_traceidratio"]) == true)
        #expect(throws: ConfigurationError.self) { try tracing(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_TRACES_SAMPLER": "jaeger_remote"]) }
        #expect(throws: ConfigurationError.self) { try tracing(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_PROPAGATORS": "tracecontext,baggage"]) }
        #expect(try tracing(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_PROPAGATORS": "tracecontext"]) == true)
        #expect(throws: ConfigurationError.self) { try tracing(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "0"]) }
        #expect(throws: ConfigurationError.self) { try tracing(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_BSP_MAX_EXPORT_BATCH_SIZE": "4096"]) }
        #expect(throws: ConfigurationError.self) { try tracing(["OTEL_TRACES_EXPORTER": "otlp", "OTEL_BSP_SCHEDULE_DELAY": "-5"]) }
        for name in ["OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"] {
            let grpc = #expect(throws: ConfigurationError.self) { try tracing(["OTEL_TRACES_EXPORTER": "otlp", name: "grpc"]) }
            #expect(grpc?.description == "\(name) must be http/protobuf or http/json (OTLP over gRPC is not built in)")
        }
    }

    @Test("A URL's query keeps client_id, scope and the like; code, state, request_uri, claim, tokens and anything unknown become [redacted]; a fragment is dropped")
    func queriesAreRedacted() {
        #expect(SpanRedaction.query("client_id=web&code=abc&state=xyz&scope=openid%20profile&request_uri=urn%3Ax&claim=c&lang=nb")
            == "client_id=web&code=[redacted]&state=[redacted]&scope=openid%20profile&request_uri=[redacted]&claim=[redacted]&lang=nb")
        #expect(SpanRedaction.query("access_token=t&unknown=1&bare") == "access_token=[redacted]&unknown=[redacted]&[redacted]")
        #expect(SpanRedaction.query("client_id=web;code=abc&scope=a?code=abc&c%6Fde=abc&cl%69ent_id=web")
            == "client_id=[redacted]&scope=[redacted]&c%6Fde=[redacted]&cl%69ent_id=web")
        #expect(SpanRedaction.url("https://vipps.example/token?code=abc&client_id=x#access_token=t") == "https://vipps.example/token?code=[redacted]&client_id=x")
        #expect(SpanRedaction.url("https://bankid.example/.well-known/jwks.json") == "https://bankid.example/.well-known/jwks.json")
        #expect(SpanRedaction.url("https://rp:s3cret@member.example/updates?x=1") == "https://member.example/updates?x=[redacted]", "no password from the authority")
    }

    @Test("A caller's traceparent is continued only when well formed (version 00, lowercase hex, no zero id), from this machine, and from a trusted proxy only in the header the operator named for it (issue 58 item 6)")
    func callersTracesAreContinuedWithCare() {
        let good = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
        #expect(RequestTracingMiddleware.wellFormed(good) == good)
        for bad in ["01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",
                    "00-00000000000000000000000000000000-b7ad6b7169203331-01", "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",
                    "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01, 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                    "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331", "00-0af7651916cd43dd8448eb211c8031\u{FE0F}-b7ad6b7169203331-01", ""] {
            #expect(RequestTracingMiddleware.wellFormed(bad) == nil, "\(bad)")
        }
        let resolver = ClientAddressResolver(trustedProxies: [IPNetwork("10.0.0.0/8")!])
        #expect(resolver.traceHeader(peer: "127.0.0.1") == "traceparent" && resolver.traceHeader(peer: "::1") == "traceparent")
        #expect(resolver.traceHeader(peer: "10.1.2.3") == nil, "a proxy passes its client's own traceparent on: not read")
        #expect(resolver.traceHeader(peer: "192.0.2.7") == nil && resolver.traceHeader(peer: nil) == nil)
        let named = ClientAddressResolver(trustedProxies: [IPNetwork("10.0.0.0/8")!, IPNetwork("127.0.0.1/32")!], traceHeader: "x-proxy-traceparent")
        #expect(named.traceHeader(peer: "10.1.2.3") == "x-proxy-traceparent")
        #expect(named.traceHeader(peer: "127.0.0.1") == "x-proxy-traceparent", "a proxy on this machine is a proxy too")
        #expect(named.traceHeader(peer: "192.0.2.7") == nil)
    }

    @Test("Through RedactingTracer, attributes, names, statuses, events and errors reach the exporter's span redacted; ids and numbers pass unchanged")
    func everythingASpanSaysIsRedacted() throws {
        let memory = InMemoryTracer()
        let tracer = RedactingTracer(wrapping: memory)
        let span = tracer.startSpan("GET /members/15058612345", context: .topLevel, ofKind: .server, at: DefaultTracerClock.now, function: #function, file: #fileID, line: #line)
        span.attributes["url.full"] = "http://127.0.0.1:9/oauth/callback/vipps?code=secret-code&state=secret-state"
        span.attributes["url.query"] = "request_uri=urn:ietf:params:oauth:request_uri:secret&client_id=web"
        span.attributes["portvakt.note"] = "Bearer eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln for 15058612345"
        span.attributes["http.response.status_code"] = 303
        span.addEvent(SpanEvent(name: "retry", attributes: ["reason": "personnummer 15058612345"]))
        span.recordError(TestFailure(text: "no member 15058612345"))
        span.setStatus(SpanStatus(code: .error, message: "for 15058612345"))
        span.end()
        let finished = try #require(memory.finishedSpans.first)
        let said = [finished.operationName, "\(finished.attributes)", "\(finished.events)", "\(finished.status as Any)"]
            + finished.errors.map { String(describing: $0.error) }
        for text in said {
            #expect(!text.contains("15058612345"))
            #expect(!text.contains("secret"))
            #expect(!text.contains("eyJ"))
        }
        #expect(finished.attributes.get("url.full") == .string("http://127.0.0.1:9/oauth/callback/vipps?code=[redacted]&state=[redacted]"))
        #expect(finished.attributes.get("url.query") == .string("request_uri=[redacted]&client_id=web"))
        #expect(finished.attributes.get("http.response.status_code") == .int64(303))
        #expect(finished.errors.first.map { String(describing: $0.error).hasPrefix("TestFailure: no member") } == true)
    }

    private struct TestFailure: Error, CustomStringConvertible {
        let text: String
        var description: String { text }
    }
}
