import Logging
import OTel
import PortvaktCore
import PortvaktServer
import ServiceLifecycle
import Tracing

/// Tracing, when `OTEL_TRACES_EXPORTER=otlp` (``ServerConfiguration/tracing``): swift-otel's
/// OTLP/HTTP exporter, configured by the OpenTelemetry variables it reads itself
/// (`OTEL_EXPORTER_OTLP_ENDPOINT`, `OTEL_SERVICE_NAME`, `OTEL_TRACES_SAMPLER`, …), behind
/// ``RedactingTracer``. Returns the exporter's service for the server to run, or nothing.
enum SpanExport {
    static func start(_ configuration: ServerConfiguration, logger: Logger) throws -> [any Service] {
        guard configuration.tracing else { return [] }
        var otel = OTel.Configuration.default
        otel.serviceName = "portvakt"
        otel.logs.enabled = false
        otel.metrics.enabled = false
        // Its own warnings (a collector that cannot be reached) into Portvakt's redacting log; at
        // info it would log each OTEL_* value it reads, OTEL_EXPORTER_OTLP_HEADERS' API keys too.
        otel.diagnosticLogger = .custom(logger)
        otel.diagnosticLogLevel = .warning
        do {
            let (tracer, service) = try OTel.makeTracingBackend(configuration: otel)
            InstrumentationSystem.bootstrap(RedactingTracer(wrapping: tracer))
            return [service]
        } catch {
            throw ConfigurationError("OpenTelemetry (OTEL_*): \(error)")
        }
    }
}
