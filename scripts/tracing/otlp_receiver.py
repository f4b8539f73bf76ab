"""A local OTLP/HTTP receiver: spans arrive as protobuf (ExportTraceServiceRequest), are decoded with
the `opentelemetry-proto` package (no code of ours) and written one JSON object per line.

Usage: otlp_receiver.py PORT OUT.jsonl
"""
import gzip
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest, ExportTraceServiceResponse

PORT, OUT = int(sys.argv[1]), sys.argv[2]


def value(any_value):
    kind = any_value.WhichOneof("value")
    if kind == "array_value":
        return [value(item) for item in any_value.array_value.values]
    if kind == "kvlist_value":
        return {item.key: value(item.value) for item in any_value.kvlist_value.values}
    return getattr(any_value, kind) if kind else None


def attributes(pairs):
    return {pair.key: value(pair.value) for pair in pairs}


class Receiver(BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        if self.path != "/v1/traces" or self.headers.get("Content-Type") != "application/x-protobuf":
            self.send_response(415 if self.path == "/v1/traces" else 404)
            self.end_headers()
            return
        request = ExportTraceServiceRequest.FromString(body)
        with open(OUT, "a") as out:
            for resource_spans in request.resource_spans:
                resource = attributes(resource_spans.resource.attributes)
                for scope_spans in resource_spans.scope_spans:
                    for span in scope_spans.spans:
                        out.write(json.dumps({
                            "service": resource.get("service.name"),
                            "trace_id": span.trace_id.hex(), "span_id": span.span_id.hex(),
                            "parent_span_id": span.parent_span_id.hex(), "name": span.name, "kind": span.kind,
                            "attributes": attributes(span.attributes), "status": {"code": span.status.code, "message": span.status.message},
                            "events": [{"name": event.name, "attributes": attributes(event.attributes)} for event in span.events],
                        }) + "\n")
        answer = ExportTraceServiceResponse().SerializeToString()
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args):
        pass


ThreadingHTTPServer(("127.0.0.1", PORT), Receiver).serve_forever()
