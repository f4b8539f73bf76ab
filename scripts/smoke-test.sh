#!/usr/bin/env bash
# Starts the real portvakt-server binary: `dev` with zero configuration (SQLite), `dev` on
# PostgreSQL and `serve` (production: keys, database, public URL; no sandbox) when
# TEST_POSTGRES_URL is set; checks /health/ready, a clean SIGTERM exit and `audit verify`
# (intact, then a forged event found); `serve` without its settings refuses to start.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

# check NAME dev|serve SETTING=VALUE...
check() {
  local name=$1 command=$2; shift 2
  local dir; dir=$(mktemp -d)
  local port; port=$(random_port)
  local mode=()
  if [ "$command" = serve ]; then set -- "$@" PORTVAKT_PUBLIC_URL="http://127.0.0.1:$port"; else mode=(--dev); fi
  start_server "$dir" "$port" "$command" "$@" || { echo "smoke test ($name) FAILED: /health/ready never answered 200" >&2; exit 1; }
  local sandbox; sandbox=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/sandbox/bankid/auth/realms/current/.well-known/openid-configuration")
  # A body framed wrongly (a chunk size that is not hex, or too large for any body) is the
  # client's fault: 400, never 500 (review II, item 9).
  local chunked
  chunked=$(python3 - "$port" <<'PY'
import socket, sys
for size in (b"zz", b"ffffffffffffffffff"):
    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
    s.sendall(b"POST /oauth/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
              b"Content-Type: application/x-www-form-urlencoded\r\n\r\n" + size + b"\r\nabc\r\n0\r\n\r\n")
    print(s.recv(64).split(b"\r\n")[0].decode().split(" ")[1], end=" ")
    s.close()
PY
)
  [ "$chunked" = "400 400 " ] || { echo "smoke test ($name): malformed chunked bodies answered $chunked, not 400 400" >&2; exit 1; }
  local code=0
  stop_server || code=$?
  if [ "$code" != 0 ] || ! grep -q "Portvakt is running: open http://127.0.0.1:$port/" "$dir/log"; then
    echo "smoke test ($name) FAILED: exit=$code" >&2
    cat "$dir/log" >&2
    exit 1
  fi
  local expected_sandbox=200; [ "$command" = serve ] && expected_sandbox=404
  [ "$sandbox" = "$expected_sandbox" ] || { echo "smoke test ($name): the sandbox answered $sandbox, expected $expected_sandbox" >&2; exit 1; }
  echo "smoke test ($name, $command): /health/ready 200, sandbox $sandbox, clean exit on SIGTERM"
  local verified
  verified=$(cd "$dir" && env "$@" "$binary" audit verify "${mode[@]}" 2>&1) || { echo "smoke test ($name): audit verify failed: $verified" >&2; exit 1; }
  echo "smoke test ($name): $verified"
  if [ "$name" = sqlite ]; then
    # An event slipped in past the chain: `audit verify` names it and exits 1.
    python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"INSERT INTO audit_events (id, occurred_at, action, outcome, details) VALUES ('forged', 0, 'x', 'success', '{}')\"); c.commit()" "$dir/.portvakt/portvakt.sqlite"
    if verified=$(cd "$dir" && env "$@" "$binary" audit verify "${mode[@]}" 2>&1); then
      echo "smoke test ($name): audit verify missed a forged event: $verified" >&2; exit 1
    fi
    echo "$verified" | grep -q "BROKEN.*forged" || { echo "smoke test ($name): unclear audit verify report: $verified" >&2; exit 1; }
    echo "smoke test ($name): $verified"
  fi
  rm -rf "$dir"
}

keys=$(python3 -c "import base64,os; print('k1=' + base64.b64encode(os.urandom(32)).decode(), base64.b64encode(os.urandom(32)).decode())")
check sqlite dev PORTVAKT_LOG_LEVEL=info
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  check postgres dev DATABASE_URL="$TEST_POSTGRES_URL"
  clients=$(mktemp)
  echo '{"clients": [{"client_id": "no.example.app", "token_endpoint_auth_method": "none", "redirect_uris": ["no.example.app:/oauth/callback"]}]}' >"$clients"
  check production serve DATABASE_URL="$(new_postgres_database "portvakt_production_$$")" \
    PORTVAKT_ENCRYPTION_KEYS="${keys% *}" PORTVAKT_INDEX_KEY="${keys#* }" PORTVAKT_CLIENTS_FILE="$clients"
  rm -f "$clients"
  drop_postgres_database "portvakt_production_$$"
fi

# `serve` is production: with no settings it refuses, naming what is missing and `dev`.
if out=$(cd "$(mktemp -d)" && "$binary" serve 2>&1); then
  echo "smoke test: serve started with no production settings" >&2; exit 1
fi
for word in PORTVAKT_ENCRYPTION_KEYS PORTVAKT_INDEX_KEY DATABASE_URL PORTVAKT_PUBLIC_URL PORTVAKT_CLIENTS_FILE "portvakt-server dev"; do
  echo "$out" | grep -q "$word" || { echo "smoke test: the refusal does not name $word: $out" >&2; exit 1; }
done
echo "smoke test (serve, no settings): $out"

# A malformed setting: one line naming it, non-zero exit.
if out=$(PORTVAKT_PORT=eighty "$binary" dev 2>&1); then
  echo "smoke test: a malformed PORTVAKT_PORT was accepted" >&2; exit 1
fi
echo "$out" | grep -q "PORTVAKT_PORT" || { echo "smoke test: error does not name PORTVAKT_PORT: $out" >&2; exit 1; }
echo "smoke test (bad setting): $out"

# An unreachable database: a clear error and a non-zero exit, not a crash loop.
if out=$(DATABASE_URL="postgres://portvakt@127.0.0.1:1/portvakt?sslmode=disable" PORTVAKT_DATABASE_WAIT_SECONDS=2 "$binary" migrate --dev 2>&1); then
  echo "smoke test: migrate succeeded without a database" >&2; exit 1
fi
echo "$out" | grep -q "cannot reach the database" || { echo "smoke test: unclear error for an unreachable database: $out" >&2; exit 1; }
echo "smoke test (unreachable database): $(echo "$out" | tail -1)"

# `dev` seeds test people: against a database that is not on this machine it refuses to start.
if out=$(DATABASE_URL="postgres://portvakt@127.evil.example:5432/portvakt" "$binary" dev 2>&1); then
  echo "smoke test: dev started against a non-loopback database" >&2; exit 1
fi
echo "$out" | grep -q "DATABASE_URL" || { echo "smoke test: the dev refusal does not name DATABASE_URL: $out" >&2; exit 1; }
echo "smoke test (dev, non-loopback database): $out"

# The sandbox alone: serves the simulated providers without a database; refused in production.
dir=$(mktemp -d); port=$(random_port)
(cd "$dir" && exec env PORTVAKT_PORT=$port "$binary" sandbox >"$dir/log" 2>&1) &
pid=$!
status=$(wait_for_200 "http://127.0.0.1:$port/sandbox/bankid/auth/realms/current/.well-known/openid-configuration")
kill -TERM "$pid"; code=0; wait "$pid" || code=$?
if [ "$status" != 200 ] || [ "$code" != 0 ] || [ -e "$dir/.portvakt/portvakt.sqlite" ]; then
  echo "smoke test (sandbox alone) FAILED: discovery=$status exit=$code" >&2; cat "$dir/log" >&2; exit 1
fi
echo "smoke test (sandbox alone): BankID discovery 200, no database, clean exit on SIGTERM"
rm -rf "$dir"
if out=$(PORTVAKT_ENV=production PORTVAKT_SANDBOX=off PORTVAKT_ENCRYPTION_KEYS="${keys% *}" PORTVAKT_INDEX_KEY="${keys#* }" "$binary" sandbox 2>&1); then
  echo "smoke test: the sandbox started in production" >&2; exit 1
fi
echo "$out" | grep -q "PORTVAKT_ENV is production, but this command runs in development mode" || { echo "smoke test: unclear production refusal: $out" >&2; exit 1; }
echo "smoke test (sandbox in production): refused"
