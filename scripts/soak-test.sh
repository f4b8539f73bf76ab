#!/usr/bin/env bash
# Starts the real portvakt-server binary (SQLite, and PostgreSQL when PORTVAKT_TEST_POSTGRES_URL
# is set) and sends thousands of requests whose bodies it does not read; open sockets and RSS
# must come back to the baseline (scripts/soak/unread_bodies.py).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/wait-for-200.sh
binary=$(swift build --show-bin-path)/portvakt-server
[ -x "$binary" ] || swift build --product portvakt-server

soak() {
  local name=$1; shift
  local dir; dir=$(mktemp -d)
  local port=$((20000 + RANDOM % 20000))
  (cd "$dir" && exec env "$@" PORTVAKT_PORT=$port "$binary" dev >"$dir/log" 2>&1) &
  local pid=$!
  if [ "$(wait_for_200 "http://127.0.0.1:$port/health/ready")" != 200 ]; then
    echo "soak test ($name): the server did not start" >&2; cat "$dir/log" >&2; kill "$pid" || true; exit 1
  fi
  local code=0
  python3 scripts/soak/unread_bodies.py "$port" "$pid" "${SOAK_REQUESTS:-2000}" || code=$?
  kill -TERM "$pid"; wait "$pid" || true
  if [ "$code" != 0 ]; then
    echo "soak test ($name) FAILED" >&2; tail -20 "$dir/log" >&2; exit 1
  fi
  echo "soak test ($name): passed"
  rm -rf "$dir"
}

soak sqlite PORTVAKT_LOG_LEVEL=warning
if [ -n "${PORTVAKT_TEST_POSTGRES_URL:-}" ]; then
  database="portvakt_soak_$$"
  psql=${PORTVAKT_PG_BINDIR:+$PORTVAKT_PG_BINDIR/}psql
  "$psql" "$PORTVAKT_TEST_POSTGRES_URL" -qc "CREATE DATABASE $database" >/dev/null
  soak postgres PORTVAKT_LOG_LEVEL=warning DATABASE_URL="$(echo "$PORTVAKT_TEST_POSTGRES_URL" | sed "s#/postgres?#/$database?#")"
fi
