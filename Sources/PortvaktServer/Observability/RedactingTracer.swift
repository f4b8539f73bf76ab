import Instrumentation
import PortvaktCore
import Tracing

/// Wraps the exporting tracer so that no span carries what a log line may not: every attribute,
/// event attribute, status and error passes through ``Redactor``, and a URL's query keeps only the values of
/// a few harmless parameters (``SpanRedaction``). Libraries set attributes of their own
/// (async-http-client the whole upstream URL), so the redaction sits here, once, not at each span.
public struct RedactingTracer<Wrapped: Tracer>: Tracer {
    let wrapped: Wrapped

    public init(wrapping wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    public func startSpan<Instant: TracerInstant>(
        _ operationName: String, context: @autoclosure () -> InstrumentationContext, ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant, function: String, file fileID: String, line: UInt
    ) -> RedactedSpan<Wrapped.Span> {
        RedactedSpan(wrapped.startSpan(
            Redactor.sanitize(operationName), context: context(), ofKind: kind, at: instant(), function: function, file: fileID, line: line
        ))
    }

    public func activeSpan(identifiedBy context: InstrumentationContext) -> RedactedSpan<Wrapped.Span>? {
        wrapped.activeSpan(identifiedBy: context).map(RedactedSpan.init)
    }

    public func extract<Carrier, Extract: Extractor>(_ carrier: Carrier, into context: inout InstrumentationContext, using extractor: Extract)
    where Extract.Carrier == Carrier {
        wrapped.extract(carrier, into: &context, using: extractor)
    }

    public func inject<Carrier, Inject: Injector>(_ context: InstrumentationContext, into carrier: inout Carrier, using injector: Inject)
    where Inject.Carrier == Carrier {
        wrapped.inject(context, into: &carrier, using: injector)
    }

    @available(*, deprecated)
    public func forceFlush() {
        wrapped.forceFlush()
    }
}

/// A span whose every input is redacted before the exporter's span sees it.
public struct RedactedSpan<Wrapped: Span>: Span {
    let wrapped: Wrapped

    init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    public var context: InstrumentationContext { wrapped.context }

    public var operationName: String {
        get { wrapped.operationName }
        nonmutating set { wrapped.operationName = Redactor.sanitize(newValue) }
    }

    public var attributes: SpanAttributes {
        get { wrapped.attributes }
        nonmutating set { wrapped.attributes = SpanRedaction.attributes(newValue) }
    }

    public var isRecording: Bool { wrapped.isRecording }

    public func setStatus(_ status: SpanStatus) {
        wrapped.setStatus(SpanStatus(code: status.code, message: status.message.map(Redactor.sanitize)))
    }

    public func addEvent(_ event: SpanEvent) {
        var event = event
        event.attributes = SpanRedaction.attributes(event.attributes)
        wrapped.addEvent(event)
    }

    public func recordError<Instant: TracerInstant>(_ error: any Error, attributes: SpanAttributes, at instant: @autoclosure () -> Instant) {
        wrapped.recordError(RedactedError(error), attributes: SpanRedaction.attributes(attributes), at: instant())
    }

    public func addLink(_ link: SpanLink) {
        wrapped.addLink(SpanLink(context: link.context, attributes: SpanRedaction.attributes(link.attributes)))
    }

    public func end<Instant: TracerInstant>(at instant: @autoclosure () -> Instant) {
        wrapped.end(at: instant())
    }
}

/// An error as a span may record it: its type and its redacted description.
struct RedactedError: Error, CustomStringConvertible {
    let description: String

    init(_ error: any Error) {
        description = "\(type(of: error)): \(Redactor.sanitize(String(describing: error)))"
    }
}
