#!/usr/bin/env bash
# Runs an independent OIDC client (Python Authlib) against the sandbox of the real server binary.
# Without Authlib it installs it from PyPI (scripts/interop/requirements.txt); when that fails
# it fails under CI=true and warns otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

need_python "authlib, requests" scripts/interop/requirements.txt "Authlib"

dir=$(mktemp -d)
port=$(random_port)
token=$(python3 -c "import secrets; print(secrets.token_urlsafe(24))")
trap 'stop_server 2>/dev/null || true; rm -rf "$dir"' EXIT
start_server "$dir" "$port" dev PORTVAKT_SANDBOX_ADMIN_TOKEN="$token" || exit 1
if ! python3 scripts/interop/authlib_code_flow.py "http://127.0.0.1:$port" "$token"; then
  cat "$dir/log" >&2
  exit 1
fi
