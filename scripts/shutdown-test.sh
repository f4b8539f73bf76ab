#!/usr/bin/env bash
# SIGTERM during load loses no acknowledged write, on SQLite and (when PORTVAKT_TEST_POSTGRES_URL
# is set) PostgreSQL: refresh rotations run while the server is told to stop; it must exit 0
# within PORTVAKT_SHUTDOWN_SECONDS, and after a restart every last acknowledged token still works
# (scripts/shutdown/refresh_under_sigterm.py). The first start must log no warning beyond the
# development-mode notices.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/wait-for-200.sh
binary=$(swift build --show-bin-path)/portvakt-server
[ -x "$binary" ] || swift build --product portvakt-server

run() {
  local name=$1; shift
  local dir; dir=$(mktemp -d)
  local port=$((20000 + RANDOM % 20000))
  start() {
    (cd "$dir" && exec env "$@" PORTVAKT_PORT=$port PORTVAKT_SHUTDOWN_SECONDS=10 "$binary" dev >>"$dir/log" 2>&1) &
    pid=$!
    [ "$(wait_for_200 "http://127.0.0.1:$port/health/ready")" = 200 ] || { cat "$dir/log" >&2; echo "shutdown test ($name): no start" >&2; exit 1; }
  }
  start "$@"
  if grep -E " (warning|error|critical) " "$dir/log" | grep -vq -e "USING DEVELOPMENT KEYS" -e "Development mode"; then
    echo "shutdown test ($name): the first start logged a warning:" >&2; grep -E " (warning|error|critical) " "$dir/log" >&2; exit 1
  fi
  local began=$SECONDS code=0
  python3 scripts/shutdown/refresh_under_sigterm.py load "http://127.0.0.1:$port" "$pid" "$dir/state.json" || { tail -20 "$dir/log" >&2; exit 1; }
  wait "$pid" || code=$?
  local took=$((SECONDS - began))
  if [ "$code" != 0 ] || [ "$took" -gt 15 ]; then
    echo "shutdown test ($name): exit $code after ${took}s" >&2; tail -20 "$dir/log" >&2; exit 1
  fi
  start "$@"
  python3 scripts/shutdown/refresh_under_sigterm.py verify "http://127.0.0.1:$port" "$dir/state.json" || { tail -20 "$dir/log" >&2; exit 1; }
  kill -TERM "$pid"; wait "$pid" || true
  echo "shutdown test ($name): clean exit under load, nothing acknowledged was lost"
  rm -rf "$dir"
}

run sqlite PORTVAKT_LOG_LEVEL=info
if [ -n "${PORTVAKT_TEST_POSTGRES_URL:-}" ]; then
  database="portvakt_shutdown_$$"
  psql=${PORTVAKT_PG_BINDIR:+$PORTVAKT_PG_BINDIR/}psql
  "$psql" "$PORTVAKT_TEST_POSTGRES_URL" -qc "CREATE DATABASE $database" >/dev/null
  run postgres PORTVAKT_LOG_LEVEL=info DATABASE_URL="$(echo "$PORTVAKT_TEST_POSTGRES_URL" | sed "s#/postgres?#/$database?#")"
  "$psql" "$PORTVAKT_TEST_POSTGRES_URL" -qc "DROP DATABASE $database WITH (FORCE)" >/dev/null
fi
