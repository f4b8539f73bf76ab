#!/usr/bin/env bash
# Runs an independent SCIM 2.0 client (Python scim2-client, on scim2-models) against the real
# server binary (`dev`, SQLite): it discovers /scim/v2, builds its models from what Portvakt
# publishes, and creates, reads, filters, pages, replaces, patches and deletes a member of NHF
# with a member system's token (`portvakt-server scim-token create`), checking each answer and
# each refusal. Without scim2-client it installs it from PyPI (scripts/scim/requirements.txt);
# when that fails it fails under CI=true and warns otherwise. The token is never printed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

need_python "scim2_client, scim2_models, httpx2" scripts/scim/requirements.txt "scim2-client"

dir=$(mktemp -d)
port=$(random_port)
trap 'stop_server 2>/dev/null || true; rm -rf "$dir"' EXIT
start_server "$dir" "$port" dev || exit 1
token=$(cd "$dir" && "$binary" scim-token create --organisation nhf --name interop --dev 2>>"$dir/log" | grep -oE 'pvscim_[A-Za-z0-9_-]+' | head -1 || true)
if [ -z "$token" ]; then
  tail -30 "$dir/log" >&2
  echo "scim interop test: scim-token create gave no token" >&2; exit 1
fi
echo "scim interop test: got a member system's token for NHF"
if ! python3 scripts/scim-interop-test.py "http://127.0.0.1:$port" "$token"; then
  tail -60 "$dir/log" >&2
  exit 1
fi
if grep -Eq '"status": ?"5|status=5' "$dir/log"; then echo "scim interop test: the server logged a 5xx" >&2; exit 1; fi
if grep -qF "$token" "$dir/log"; then echo "scim interop test: the server logged the token" >&2; exit 1; fi
if grep -q '26449933086' "$dir/log"; then echo "scim interop test: the server logged the personnummer" >&2; exit 1; fi
echo "scim interop test: scim2-client agrees with /scim/v2"
