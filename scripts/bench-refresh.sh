#!/usr/bin/env bash
# Refresh-token rotations and biometric unlocks per second and latency, the latency of a whole sandbox login and of a
# BankID order start, against a live portvakt-server on loopback: on SQLite and on a throwaway PostgreSQL, at
# concurrency 16 and 64, with the load generator running beside the server on the same machine.
# CONFIGURATION=debug measures the debug build; DURATION=seconds per run (default 15).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/wait-for-200.sh
configuration=${CONFIGURATION:-release}
duration=${DURATION:-15}
swift build -c "$configuration" --product portvakt-server >/dev/null
swift build -c "$configuration" --product portvakt-load >/dev/null
bin=$(swift build -c "$configuration" --show-bin-path)
echo "configuration: $configuration, $(nproc) cores, $duration s per run"

server_cpu_ticks() {  # utime + stime of process $1, in clock ticks (proc(5))
  awk '{print $14 + $15}' "/proc/$1/stat"
}

run_against() {  # $1: label, $2: DATABASE_URL or empty
  local dir port pid
  dir=$(mktemp -d)
  port=$((20000 + RANDOM % 20000))
  # Old app versions may go without DPoP, so both runs below hit the same server.
  (cd "$dir" && PORTVAKT_PORT=$port PORTVAKT_LOG_LEVEL=warning PORTVAKT_LEGACY_CLIENTS=no.portvakt.app DATABASE_URL=$2 exec "$bin/portvakt-server" dev 2>"$dir/log") &
  pid=$!
  [ "$(wait_for_200 "http://127.0.0.1:$port/health/ready")" = 200 ] || { cat "$dir/log" >&2; kill $pid; return 1; }
  for concurrency in 16 64; do
    for tokens in bearer dpop; do
      echo "== $1, concurrency $concurrency, $tokens"
      "$bin/portvakt-load" --url "http://127.0.0.1:$port" --concurrency $concurrency --duration "$duration" --logins 100 --orders 200 --unlocks 500 \
        $([ "$tokens" = dpop ] && echo --dpop)
    done
  done
  # The server's own CPU per rotation (the load generator shares the two cores): rotations only.
  for tokens in bearer dpop; do
    local before after output rotations
    before=$(server_cpu_ticks $pid)
    output=$("$bin/portvakt-load" --url "http://127.0.0.1:$port" --concurrency 16 --duration "$duration" --logins 16 $([ "$tokens" = dpop ] && echo --dpop))
    after=$(server_cpu_ticks $pid)
    rotations=$(echo "$output" | sed -n 's/^refresh-token rotations.*: \([0-9]*\) done.*/\1/p')
    echo "== $1, $tokens: server CPU $(( (after - before) * 1000000 / $(getconf CLK_TCK) / rotations )) µs per rotation (16 logins + $rotations rotations; $(echo "$output" | grep rotations))"
  done
  kill $pid; wait $pid 2>/dev/null || true
  rm -rf "$dir"
}

run_against sqlite ""
# Durable commits, as in production: fsync on, synchronous_commit on (the default).
if started=$(PORTVAKT_PG_FSYNC=on scripts/start-postgres.sh); then
  eval "$started"
  trap 'scripts/stop-postgres.sh' EXIT
  run_against postgresql "$PORTVAKT_TEST_POSTGRES_URL"
else
  echo "no PostgreSQL: skipped" >&2
fi
