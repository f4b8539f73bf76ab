#!/usr/bin/env bash
# Runs independent clients against the real server binary: an OIDC relying party (Python Authlib)
# against the sandbox's providers, and a PAR + DPoP client (requests, jwcrypto) against Portvakt.
# Without Authlib it installs it from PyPI (scripts/interop/requirements.txt); when that fails
# it fails under CI=true and warns otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

need_python "authlib, requests, jwcrypto" scripts/interop/requirements.txt "Authlib"

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
