#!/usr/bin/env bash
# Starts the real portvakt-server binary (SQLite, and PostgreSQL when TEST_POSTGRES_URL
# is set) and sends thousands of requests whose bodies it does not read; open sockets and RSS
# must come back to the baseline (scripts/soak/unread_bodies.py).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

soak() {
  local name=$1; shift
  local dir; dir=$(mktemp -d)
  local port; port=$(random_port)
  start_server "$dir" "$port" dev "$@" || { echo "soak test ($name): the server did not start" >&2; exit 1; }
  local code=0
  python3 scripts/soak/unread_bodies.py "$port" "$server_pid" "${SOAK_REQUESTS:-2000}" || code=$?
  stop_server || true
  if [ "$code" != 0 ]; then
    echo "soak test ($name) FAILED" >&2; tail -20 "$dir/log" >&2; exit 1
  fi
  echo "soak test ($name): passed"
  rm -rf "$dir"
}

soak sqlite PORTVAKT_LOG_LEVEL=warning
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  soak postgres PORTVAKT_LOG_LEVEL=warning DATABASE_URL="$(new_postgres_database "portvakt_soak_$$")"
  drop_postgres_database "portvakt_soak_$$"
fi
