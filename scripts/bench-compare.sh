#!/usr/bin/env bash
# Is this build as fast as an earlier one? Two release servers on SQLite, driven by this build's load generator,
# alternating run by run, so a machine that is slower today slows both alike (BENCHMARKS.md compares figures
# measured on different days, which on this machine can differ by more than two times).
#   git worktree add /tmp/base COMMIT && (cd /tmp/base && swift build -c release --product portvakt-server)
#   scripts/bench-compare.sh /tmp/base/.build/release
# ROUNDS (default 4) rounds of: rotations Bearer and DPoP, unlocks Bearer and DPoP, at concurrency 16, each
# DURATION seconds (default 15), each server fresh with its own data directory.
# SQLite: WAL, synchronous=NORMAL (no fsync per commit).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/wait-for-200.sh
source scripts/lib/ports.sh
[ $# -eq 1 ] && [ -x "$1/portvakt-server" ] || { echo "usage: $0 OTHER_RELEASE_BIN_DIR (holding portvakt-server)" >&2; exit 2; }
other=$1
rounds=${ROUNDS:-4}
duration=${DURATION:-15}
swift build -c release --product portvakt-server >/dev/null
swift build -c release --product portvakt-load >/dev/null
this=$(swift build -c release --show-bin-path)
echo "$(nproc) cores, $duration s per run, $rounds rounds; other: $other, this: $this"

server_cpu_ticks() {  # utime + stime of process $1, in clock ticks (proc(5))
  awk '{print $14 + $15}' "/proc/$1/stat"
}

measure() {  # $1: label, $2: bin dir of the server; prints one table row
  local dir port pid row=""
  dir=$(mktemp -d)
  port=$(random_port)
  (cd "$dir" && PORTVAKT_PORT=$port PORTVAKT_PUBLIC_URL=http://127.0.0.1:$port PORTVAKT_LOG_LEVEL=warning \
    PORTVAKT_LEGACY_CLIENTS=no.portvakt.app exec "$2/portvakt-server" dev 2>"$dir/log") &
  pid=$!
  [ "$(wait_for_200 "http://127.0.0.1:$port/health/ready")" = 200 ] || { cat "$dir/log" >&2; kill $pid; return 1; }
  local kind tokens output line done_count before after
  for kind in rotations unlocks; do
    for tokens in bearer dpop; do
      before=$(server_cpu_ticks $pid)
      if [ $kind = rotations ]; then
        output=$("$this/portvakt-load" --url "http://127.0.0.1:$port" --concurrency 16 --duration "$duration" --logins 16 \
          $([ $tokens = dpop ] && echo --dpop))
        line=$(echo "$output" | grep "^refresh-token rotations")
        done_count=$(echo "$line" | sed -n 's/.*: \([0-9]*\) done.*/\1/p')
      else
        output=$("$this/portvakt-load" --url "http://127.0.0.1:$port" --concurrency 16 --duration "$duration" --unlocks 50 \
          --unlocks-only $([ $tokens = dpop ] && echo --dpop))
        line=$(echo "$output" | grep "^biometric unlocks (")
        done_count=$(( $(echo "$line" | sed -n 's/.*: \([0-9]*\) done.*/\1/p') + 50 ))
      fi
      after=$(server_cpu_ticks $pid)
      row+=" $(echo "$line" | sed -n 's/.*  \([0-9]*\/s\) over.*/\1/p') ($(( (after - before) * 1000000 / $(getconf CLK_TCK) / done_count )) µs) |"
    done
  done
  echo "| $1 |$row $(awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$pid/status") MB |"
  kill $pid; wait $pid 2>/dev/null || true
  rm -rf "$dir"
}

echo "Per second at concurrency 16, the server's CPU per operation in brackets:"
echo "| build | rotations, Bearer | rotations, DPoP | unlocks, Bearer | unlocks, DPoP | server RSS after |"
echo "|---|---|---|---|---|---|"
# Each round the other build goes first, then second: neither is always the one after a pause.
for round in $(seq "$rounds"); do
  if [ $((round % 2)) = 1 ]; then
    measure "other, round $round" "$other"
    measure "this, round $round" "$this"
  else
    measure "this, round $round" "$this"
    measure "other, round $round" "$other"
  fi
done
