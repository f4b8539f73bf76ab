#!/usr/bin/env bash
# Tracing (issue 46 item 4): the real server binary exports spans over OTLP/HTTP to a local
# receiver that decodes them with the opentelemetry-proto package (scripts/tracing); a login
# through the sandbox must appear as a tree (request, database, upstream call, the provider's span)
# with nothing secret in it, and the JSON log must carry the trace ids. Then, without
# OTEL_TRACES_EXPORTER, nothing is exported at all.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

need_python "opentelemetry.proto.collector.trace.v1.trace_service_pb2" scripts/tracing/requirements.txt "opentelemetry-proto"

dir=$(mktemp -d)
port=$(random_port)
receiver_port=$((port + 1))
receiver_pid=""
trap 'stop_server 2>/dev/null || true; [ -z "$receiver_pid" ] || kill "$receiver_pid" 2>/dev/null; rm -rf "$dir"' EXIT
python3 scripts/tracing/otlp_receiver.py "$receiver_port" "$dir/spans.jsonl" &
receiver_pid=$!
: >"$dir/spans.jsonl"

secret=$(python3 -c "import secrets; print(secrets.token_urlsafe(32))")
cat >"$dir/clients.json" <<JSON
{"clients": [{"client_id": "web-traced", "first_party": true, "redirect_uris": ["https://portal.tracing.example/callback"],
  "token_endpoint_auth_method": "client_secret_post", "client_secret": "$secret"}]}
JSON
start_server "$dir" "$port" dev PORTVAKT_CLIENTS_FILE="$dir/clients.json" PORTVAKT_LOG_FORMAT=json OTEL_TRACES_EXPORTER=otlp \
  OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$receiver_port" OTEL_SERVICE_NAME=portvakt-tracing-test OTEL_BSP_SCHEDULE_DELAY=200 || exit 1
if ! python3 scripts/tracing/traced_login.py "http://127.0.0.1:$port" "$secret" "$dir/seen.json"; then
  cat "$dir/log" >&2; exit 1
fi
stop_server  # the exporter sends what is left before the process ends
if ! python3 scripts/tracing/check_traces.py "$dir/spans.jsonl" "$dir/seen.json" "$dir/log" portvakt-tracing-test; then
  tail -50 "$dir/log" >&2; exit 1
fi

# Off by default: an endpoint alone exports nothing (to a receiver that still answers).
kill -0 "$receiver_pid" || { echo "tracing-test: the OTLP receiver died" >&2; exit 1; }
: >"$dir/spans.jsonl"; : >"$dir/log"
start_server "$dir" "$port" dev PORTVAKT_CLIENTS_FILE="$dir/clients.json" PORTVAKT_LOG_FORMAT=json OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$receiver_port" || exit 1
python3 scripts/tracing/traced_login.py "http://127.0.0.1:$port" "$secret" "$dir/seen.json" >/dev/null
stop_server
if [ -s "$dir/spans.jsonl" ]; then
  echo "tracing-test: spans were exported without OTEL_TRACES_EXPORTER=otlp" >&2; exit 1
fi
if grep -q '"trace_id"' "$dir/log"; then
  echo "tracing-test: log lines carry trace ids without tracing" >&2; exit 1
fi
echo "ok   without OTEL_TRACES_EXPORTER nothing is exported"
