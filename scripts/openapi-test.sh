#!/usr/bin/env bash
# Keeps /openapi.json true: openapi-spec-validator accepts the served document, and schemathesis
# runs its generated requests against a live server (`dev`, SQLite) with a sandbox
# administrator's token, and the SCIM routes again with a member system's token: no server
# error, no response outside the document (status, content type, headers, schema), 405 for
# undeclared methods. Bounded: SCHEMATHESIS_EXAMPLES per operation.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

need_python "schemathesis, openapi_spec_validator" scripts/openapi/requirements.txt "schemathesis"

dir=$(mktemp -d)
port=$(random_port)
trap 'stop_server 2>/dev/null || true; rm -rf "$dir"' EXIT
# schemathesis sends one fixed Authorization header and cannot sign a DPoP proof per request:
# the token is an old app version's Bearer token (PORTVAKT_LEGACY_CLIENTS).
start_server "$dir" "$port" dev PORTVAKT_LOG_LEVEL=warning PORTVAKT_LEGACY_CLIENTS=no.portvakt.app || exit 1
base="http://127.0.0.1:$port"

curl -fsS "$base/openapi.json" -o "$dir/openapi.json"
python3 -c "import json, sys; from openapi_spec_validator import validate; validate(json.load(open(sys.argv[1])))" "$dir/openapi.json"
echo "openapi test: the served document is valid OpenAPI 3.1"

# Ingrid administers NHF: her token reaches the administrators' routes too.
token=$(python3 scripts/openapi/access_token.py "$base" ingrid bankid)
if ! (cd "$dir" && schemathesis run "$base/openapi.json" -H "Authorization: Bearer $token" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,unsupported_method \
    --max-examples "${SCHEMATHESIS_EXAMPLES:-40}" --seed 1 --no-color >"$dir/schemathesis.txt" 2>&1); then
  cat "$dir/schemathesis.txt" >&2
  tail -30 "$dir/log" >&2
  echo "openapi test: schemathesis found failures" >&2; exit 1
fi
grep -E "generated|passed|failures" "$dir/schemathesis.txt" | tail -2

# Issue 45: the run above met SCIM's 401s (a person's token opens no SCIM route); the SCIM
# routes again with a member system's token of NHF (`scim-token create`), so that bodies,
# filters, paging and PATCH operations reach past the token.
scim=$(cd "$dir" && "$binary" scim-token create --organisation nhf --name openapi --dev 2>>"$dir/log" | grep -oE 'pvscim_[A-Za-z0-9_-]+' | head -1 || true)
if [ -z "$scim" ]; then echo "openapi test: scim-token create gave no token" >&2; exit 1; fi
echo "openapi test: got a SCIM token for NHF"
if ! (cd "$dir" && schemathesis run "$base/openapi.json" -H "Authorization: Bearer $scim" --include-path-regex '^/scim/' \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,unsupported_method \
    --max-examples "${SCHEMATHESIS_EXAMPLES:-40}" --seed 1 --no-color >"$dir/schemathesis-scim.txt" 2>&1); then
  cat "$dir/schemathesis-scim.txt" >&2
  tail -30 "$dir/log" >&2
  echo "openapi test: schemathesis found failures on the SCIM routes" >&2; exit 1
fi
grep -E "generated|passed|failures" "$dir/schemathesis-scim.txt" | tail -2
if grep -Eq '"status": ?"5|status=5' "$dir/log"; then echo "openapi test: the server logged a 5xx" >&2; exit 1; fi
echo "openapi test: schemathesis found no server error and no response outside the document"
