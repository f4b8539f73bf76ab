#!/usr/bin/env bash
# SIGTERM and SIGKILL during load lose no acknowledged write, on SQLite and (when
# TEST_POSTGRES_URL is set) PostgreSQL: refresh rotations, logins and biometric unlocks
# (portvakt-load, whose audit events are linked after their commits) run while the server
# is told to stop (it must exit 0 within PORTVAKT_SHUTDOWN_SECONDS) and then killed mid-write;
# after each restart every last acknowledged token still works (scripts/shutdown/refresh_under_signal.py),
# and at the end `audit verify` finds the chain intact. The first start must log no warning
# beyond the development-mode notices.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

# Biometric unlocks from two devices beside the Python load, until the server goes away: each
# device's last acknowledged unlock session in $dir/unlocks.json, $dir/unlocks.json.started once
# one is (the Python load signals only after that).
unlocks_beside() {
  rm -f "$dir/unlocks.json" "$dir/unlocks.json.started"
  "$(dirname "$binary")/portvakt-load" --url "http://127.0.0.1:$1" --concurrency 2 --until-server-stops "$dir/unlocks.json" >"$dir/unlocks.log" 2>&1 &
  unlocks_pid=$!
}

# The unlocks ended only because the server went away, and every one acknowledged still refreshes.
unlocks_held() {
  local name=$1 signal=$2 code=0
  wait "$unlocks_pid" || code=$?
  if [ "$code" != 0 ] || [ ! -s "$dir/unlocks.json" ]; then
    echo "shutdown test ($name): the unlock load beside SIG$signal exited $code:" >&2; cat "$dir/unlocks.log" >&2; exit 1
  fi
  python3 scripts/shutdown/refresh_under_signal.py unlocks-ended "$dir/unlocks.json" "$dir/state.json.signalled" \
    || { echo "shutdown test ($name): the unlock load stopped before SIG$signal" >&2; exit 1; }
}

run() {
  local name=$1; shift
  local dir; dir=$(mktemp -d)
  local port; port=$(random_port)
  # Refreshes as an old app version (no DPoP): the test is about in-flight requests at SIGTERM.
  start() { start_server "$dir" "$port" dev PORTVAKT_SHUTDOWN_SECONDS=10 PORTVAKT_LEGACY_CLIENTS=no.portvakt.app "$@" || { echo "shutdown test ($name): no start" >&2; exit 1; }; }
  start "$@"
  if grep -E " (warning|error|critical) " "$dir/log" | grep -vq -e "USING DEVELOPMENT KEYS" -e "Development mode"; then
    echo "shutdown test ($name): the first start logged a warning:" >&2; grep -E " (warning|error|critical) " "$dir/log" >&2; exit 1
  fi
  local code=0
  unlocks_beside "$port"
  python3 scripts/shutdown/refresh_under_signal.py load "http://127.0.0.1:$port" "$server_pid" "$dir/state.json" TERM "$dir/unlocks.json.started" || { tail -20 "$dir/log" >&2; exit 1; }
  unlocks_held "$name" TERM
  wait "$server_pid" || code=$?
  # From the signal: PORTVAKT_SHUTDOWN_SECONDS (10) and a little.
  local took; took=$(python3 -c 'import sys, time; print(round(time.time() - float(open(sys.argv[1]).read()), 1))' "$dir/state.json.signalled")
  if [ "$code" != 0 ] || python3 -c 'import sys; sys.exit(float(sys.argv[1]) <= 12)' "$took"; then
    echo "shutdown test ($name): exit $code ${took}s after SIGTERM" >&2; tail -20 "$dir/log" >&2; exit 1
  fi
  echo "shutdown test ($name): exit 0 ${took}s after SIGTERM"
  start "$@"
  python3 scripts/shutdown/refresh_under_signal.py verify "http://127.0.0.1:$port" "$dir/state.json" "$dir/unlocks.json" || { tail -20 "$dir/log" >&2; exit 1; }
  echo "shutdown test ($name): clean exit under load, nothing acknowledged was lost ($(cat "$dir/unlocks.log" | tail -1))"

  unlocks_beside "$port"
  python3 scripts/shutdown/refresh_under_signal.py load "http://127.0.0.1:$port" "$server_pid" "$dir/state.json" KILL "$dir/unlocks.json.started" || { tail -20 "$dir/log" >&2; exit 1; }
  wait "$server_pid" 2>/dev/null || true
  unlocks_held "$name" KILL
  start "$@"
  python3 scripts/shutdown/refresh_under_signal.py verify "http://127.0.0.1:$port" "$dir/state.json" "$dir/unlocks.json" || { tail -20 "$dir/log" >&2; exit 1; }
  stop_server || true
  local verified
  verified=$(cd "$dir" && env "$@" "$binary" audit verify --dev 2>&1) || { echo "shutdown test ($name): audit verify after the loads: $verified" >&2; exit 1; }
  echo "shutdown test ($name): killed under load, nothing acknowledged was lost; $(echo "$verified" | grep "Audit chain")"
  rm -rf "$dir"
}

run sqlite PORTVAKT_LOG_LEVEL=info
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  run postgres PORTVAKT_LOG_LEVEL=info DATABASE_URL="$(new_postgres_database "portvakt_shutdown_$$")"
  drop_postgres_database "portvakt_shutdown_$$"
fi
