#!/usr/bin/env bash
# Refresh-token rotations and biometric unlocks per second and latency, the latency of a whole sandbox login and of a
# BankID order start, against a live portvakt-server on loopback: on SQLite and on a throwaway PostgreSQL, at
# concurrency 16 and 64, with the load generator running beside the server on the same machine.
# CONFIGURATION=debug measures the debug build; DURATION=seconds per run (default 15).
# SQLite: WAL, synchronous=NORMAL (no fsync per commit). PostgreSQL: fsync on, synchronous_commit on.
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
  # Old app versions may go without DPoP, so Bearer and DPoP runs hit the same server.
  (cd "$dir" && PORTVAKT_PORT=$port PORTVAKT_PUBLIC_URL=http://127.0.0.1:$port PORTVAKT_LOG_LEVEL=warning PORTVAKT_LEGACY_CLIENTS=no.portvakt.app PORTVAKT_BANKID_ORDERS_PER_ADDRESS=100000 DATABASE_URL=$2 exec "$bin/portvakt-server" dev 2>"$dir/log") &
  pid=$!
  [ "$(wait_for_200 "http://127.0.0.1:$port/health/ready")" = 200 ] || { cat "$dir/log" >&2; kill $pid; return 1; }
  # Logins, BankID order starts and unlocks (sequential, then concurrent), then rotations.
  for concurrency in 16 64; do
    echo "== $1, concurrency $concurrency"
    "$bin/portvakt-load" --url "http://127.0.0.1:$port" --concurrency $concurrency --duration "$duration" --logins 100 --orders 200 --unlocks 500
  done
  # Unlocks only, for the table: each worker its own device. DPoP is the app's way (PAR and a proof with every
  # request); Bearer is an old app version's, which also audits its legacy use.
  for concurrency in 16 64; do
    for tokens in bearer dpop; do
      local before after output line unlocked seconds
      before=$(server_cpu_ticks $pid)
      output=$("$bin/portvakt-load" --url "http://127.0.0.1:$port" --concurrency $concurrency --duration "$duration" --unlocks 50 --unlocks-only \
        $([ "$tokens" = dpop ] && echo --dpop))
      after=$(server_cpu_ticks $pid)
      line=$(echo "$output" | grep "^biometric unlocks (")
      unlocked=$(( $(echo "$line" | sed -n 's/.*: \([0-9]*\) done.*/\1/p') + 50 ))
      seconds=$(echo "$line" | sed -n 's/.* over \([0-9.]*\) s.*/\1/p')
      printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s MB |\n' "$1" "$tokens" "$concurrency" \
        "$(echo "$line" | sed -n 's/.*  \([0-9]*\/s\) over.*/\1/p')" \
        "$(echo "$line" | sed -n 's/.*p50 \([0-9.]* ms\).*/\1/p')" "$(echo "$line" | sed -n 's/.*p90 \([0-9.]* ms\).*/\1/p')" \
        "$(echo "$line" | sed -n 's/.*p99 \([0-9.]* ms\).*/\1/p')" \
        "$(( (after - before) * 1000000 / $(getconf CLK_TCK) / unlocked )) µs" \
        "$(awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$pid/status")" >>"$unlock_table"
    done
  done
  # Rotations only, for the table: the server's own CPU (the load generator shares the cores) and memory.
  # A run stops at its first error, so every row is error-free.
  for concurrency in 16 64; do
    for tokens in bearer dpop; do
      local before after output rotations seconds line
      before=$(server_cpu_ticks $pid)
      output=$("$bin/portvakt-load" --url "http://127.0.0.1:$port" --concurrency $concurrency --duration "$duration" --logins $concurrency $([ "$tokens" = dpop ] && echo --dpop))
      after=$(server_cpu_ticks $pid)
      line=$(echo "$output" | grep "^refresh-token rotations")
      rotations=$(echo "$line" | sed -n 's/.*: \([0-9]*\) done.*/\1/p')
      seconds=$(echo "$line" | sed -n 's/.* over \([0-9.]*\) s.*/\1/p')
      printf '| %s | %s | %s | %s | %s | %s | %s | %s%% | %s | %s MB |\n' "$1" "$tokens" "$concurrency" \
        "$(echo "$line" | sed -n 's/.*  \([0-9]*\/s\) over.*/\1/p')" \
        "$(echo "$line" | sed -n 's/.*p50 \([0-9.]* ms\).*/\1/p')" "$(echo "$line" | sed -n 's/.*p90 \([0-9.]* ms\).*/\1/p')" \
        "$(echo "$line" | sed -n 's/.*p99 \([0-9.]* ms\).*/\1/p')" \
        "$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v s="$seconds" 'BEGIN { printf "%.0f", 100 * t / hz / s }')" \
        "$(( (after - before) * 1000000 / $(getconf CLK_TCK) / rotations )) µs" \
        "$(awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$pid/status")" >>"$table"
    done
  done
  kill $pid; wait $pid 2>/dev/null || true
  rm -rf "$dir"
}

table=$(mktemp)
unlock_table=$(mktemp)
print_table() {
  echo "Refresh-token rotations (each worker its own session):"
  echo "| database | tokens | concurrency | rotations | p50 | p90 | p99 | server CPU (200% = both cores) | server CPU per rotation | server RSS after |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  cat "$table"
  echo
  echo "Biometric unlocks, challenge + grant (each worker its own device; CPU per unlock includes 50 sequential ones first):"
  echo "| database | tokens | concurrency | unlocks | p50 | p90 | p99 | server CPU per unlock | server RSS after |"
  echo "|---|---|---|---|---|---|---|---|---|"
  cat "$unlock_table"
}

run_against sqlite ""
# Durable commits, as in production: fsync on, synchronous_commit on (the default).
if started=$(TEST_PG_FSYNC=on scripts/start-postgres.sh); then
  eval "$started"
  trap 'scripts/stop-postgres.sh; print_table' EXIT
  run_against postgresql "$TEST_POSTGRES_URL"
else
  echo "no PostgreSQL: skipped" >&2
  print_table
fi
