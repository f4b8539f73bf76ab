#!/usr/bin/env bash
# Runs independent clients against the real server binary: an OIDC relying party (Python Authlib)
# against the sandbox's providers, a PAR + DPoP client (requests, jwcrypto) against Portvakt, and
# two confidential web clients (requests-oauth2client and Authlib, their defaults) registered in a
# clients file (issue 46).
# Without Authlib it installs it from PyPI (scripts/interop/requirements.txt); when that fails
# it fails under CI=true and warns otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

need_python "authlib, requests, jwcrypto, requests_oauth2client" scripts/interop/requirements.txt "Authlib"

dir=$(mktemp -d)
port=$(random_port)
token=$(python3 -c "import secrets; print(secrets.token_urlsafe(24))")
trap 'stop_server 2>/dev/null || true; rm -rf "$dir"' EXIT
start_server "$dir" "$port" dev PORTVAKT_SANDBOX_ADMIN_TOKEN="$token" || exit 1
if ! python3 scripts/interop/authlib_code_flow.py "http://127.0.0.1:$port" "$token" \
  || ! python3 scripts/interop/dpop_par_client.py "http://127.0.0.1:$port"; then
  cat "$dir/log" >&2
  exit 1
fi
stop_server

# The confidential web clients, from a clients file (which replaces the development clients).
rq_secret=$(python3 -c "import secrets; print(secrets.token_urlsafe(32))")
authlib_secret=$(python3 -c "import secrets; print(secrets.token_urlsafe(32))")
printf '%s\n' "$authlib_secret" >"$dir/authlib.secret"
cat >"$dir/clients.json" <<JSON
{"clients": [
  {"client_id": "web-rq", "first_party": true, "client_name": "requests-oauth2client", "redirect_uris": ["https://portal.interop.example/callback"],
   "token_endpoint_auth_method": "client_secret_post", "client_secret": "$rq_secret"},
  {"client_id": "web-authlib", "first_party": true, "client_name": "Authlib", "redirect_uris": ["https://portal.interop.example/callback"],
   "client_secret_file": "authlib.secret"}
]}
JSON
: >"$dir/log"
start_server "$dir" "$port" dev PORTVAKT_CLIENTS_FILE="$dir/clients.json" || exit 1
if ! python3 scripts/interop/confidential_clients.py "http://127.0.0.1:$port" "$rq_secret" "$authlib_secret"; then
  cat "$dir/log" >&2
  exit 1
fi
if grep -qF -e "$rq_secret" -e "$authlib_secret" "$dir/log"; then
  echo "interop: a client secret reached the log" >&2; exit 1
fi
