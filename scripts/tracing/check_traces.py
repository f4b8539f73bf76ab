"""Checks the spans Portvakt exported during traced_login.py (issue 46 item 4): the tree of a login
(request spans, their database spans, the upstream call to the provider and the provider's own
span under it), the caller's traceparent honoured, the service name from OTEL_SERVICE_NAME, the
trace id in the JSON log, and no secret in any span name, attribute, event or status.

Usage: check_traces.py SPANS.jsonl SECRETS.json SERVER_LOG SERVICE_NAME
"""
import json
import sys

SPANS, SECRETS, LOG, SERVICE = sys.argv[1:5]
spans = [json.loads(line) for line in open(SPANS)]
seen = json.load(open(SECRETS))
by_id = {span["span_id"]: span for span in spans}
failures = []
SERVER, CLIENT = 2, 3  # OTLP SpanKind


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        failures.append(what)


def named(name):
    return [span for span in spans if span["name"] == name]


def ancestors(span):
    while span["parent_span_id"] in by_id:
        span = by_id[span["parent_span_id"]]
        yield span


def under(span, root):
    return any(ancestor["span_id"] == root["span_id"] for ancestor in ancestors(span))


check(spans and all(span["service"] == SERVICE for span in spans), f"{len(spans)} spans, all from OTEL_SERVICE_NAME={SERVICE}")

callbacks = named("GET /oauth/callback/{provider}") or named("GET /oauth/callback/vipps")
check(len(callbacks) == 1, "one server span for the provider's callback")
if callbacks:
    callback = callbacks[0]
    check(callback["kind"] == SERVER and callback["attributes"].get("http.response.status_code") in (302, 303),
          "the callback's span is a server span with its redirect status")
    upstream = [span for span in spans if span["kind"] == CLIENT and "url.full" in span["attributes"] and under(span, callback)]
    check(upstream, "the call to the provider's token endpoint is a client span under the callback")
    provider_side = [span for span in spans if span["kind"] == SERVER and span["parent_span_id"] in {up["span_id"] for up in upstream}]
    check(provider_side and "token" in provider_side[0]["name"],
          "the provider's own server span is the child of that call (traceparent sent): " + (provider_side[0]["name"] if provider_side else "none"))
    database = [span for span in spans if "db.system.name" in span["attributes"] and under(span, callback)]
    check(database and all(span["kind"] == CLIENT for span in database),
          f"the callback's database work: {len(database)} spans ({', '.join(sorted({s['name'] for s in database})[:4])}, …)")

tokens = [span for span in named("POST /oauth/token") if span["attributes"].get("http.response.status_code") == 200]
check(len(tokens) == 2, "two token requests (code, refresh) with status 200")
check(all(any("db.system.name" in s["attributes"] and under(s, token) for s in spans) for token in tokens),
      "each token request has database spans under it")

userinfo = named("GET /oauth/userinfo")
check(len(userinfo) == 1 and userinfo[0]["trace_id"] == seen["caller_trace_id"] and userinfo[0]["parent_span_id"] == seen["caller_span_id"],
      "userinfo's span continues the caller's traceparent")

authorize = named("GET /oauth/authorize")
query = authorize[0]["attributes"].get("url.query", "") if authorize else ""
check("state=[redacted]" in query and "code_challenge=[redacted]" in query and "nonce=[redacted]" in query and "client_id=web-traced" in query,
      "authorize's url.query keeps the client_id and redacts state, nonce and code_challenge: " + query[:160])

# No secret anywhere a span says something (ids and timestamps are not exported into this text).
said = json.dumps([{key: span[key] for key in ("name", "attributes", "events", "status")} for span in spans])
leaked = [name for name, secret in seen.items() if not name.startswith("caller_") and secret in said]
check(not leaked, "no secret of the login in any span: " + (", ".join(leaked) or "none found"))
check("eyJ" not in said, "no JWT in any span")
for span in spans:
    for name in ("url.query", "url.full"):
        text = span["attributes"].get(name, "")
        query = text.split("?", 1)[1] if name == "url.full" and "?" in text else ("" if name == "url.full" else text)
        for pair in filter(None, query.split("&")):
            key, _, value = pair.partition("=")
            if key in ("code", "state", "request_uri", "claim", "code_verifier", "nonce") and value != "[redacted]":
                check(False, f"{span['name']}: {name} shows {key}")

# The log holds no secret either (swift-otel logs what it cannot parse, and its settings).
log_text = open(LOG).read()
in_log = [name for name, secret in seen.items() if not name.startswith("caller_") and secret in log_text]
check(not in_log and "carrier" not in log_text and "environment_value" not in log_text, "no secret of the login in the log: " + (", ".join(in_log) or "none found"))
health = named("GET /health/live")
check(health and all(span["trace_id"] != "0af7651916cd43dd8448eb211c80319c" for span in health), "a malformed traceparent starts a new trace")

# The JSON log: the token request's line carries its span's trace id.
lines = [json.loads(line) for line in open(LOG) if line.startswith("{")]
traced = {line.get("trace_id") for line in lines if line.get("message") == "request" and line.get("route") == "/oauth/token"}
check(tokens and {token["trace_id"] for token in tokens} <= traced, "the token requests' log lines carry their trace_id")

if failures:
    print(f"{len(failures)} failed", file=sys.stderr)
    sys.exit(1)
