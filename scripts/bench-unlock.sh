#!/usr/bin/env bash
# The biometric unlock from the tap to home (issue 61 item 15; S5.2, S29.3): ROUNDS unlocks (default 50) through the
# app's AuthDriver on a good network, then a tenth as many with the challenge lost and with the session lost after
# the check, against the release portvakt-server on loopback (SQLite, WAL, synchronous=NORMAL) with its sandbox.
# The CLI logs in with Vipps and enables biometrics first; the benchmark unlocks with that enrolled device.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/wait-for-200.sh
rounds=${ROUNDS:-50}
for product in portvakt-server portvakt portvakt-kit-benchmark; do swift build -c release --product "$product" >/dev/null; done
bin=$(swift build -c release --show-bin-path)
dir=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
(cd "$dir" && PORTVAKT_PORT=$port PORTVAKT_PUBLIC_URL=http://127.0.0.1:$port PORTVAKT_LOG_LEVEL=warning exec "$bin/portvakt-server" dev 2>"$dir/log") &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
[ "$(wait_for_200 "http://127.0.0.1:$port/health/ready")" = 200 ] || { cat "$dir/log" >&2; exit 1; }
PORTVAKT_CLI_HOME="$dir/cli" PORTVAKT_SERVER="http://127.0.0.1:$port" "$bin/portvakt" login --provider vipps --user kari --enable-biometrics \
  --json --lang en </dev/null >"$dir/login.json" || { cat "$dir/login.json" "$dir/log" >&2; exit 1; }
echo "release build, $(nproc) cores, $rounds unlocks on a good network, $(date -u +%F)"
"$bin/portvakt-kit-benchmark" unlock "http://127.0.0.1:$port" "$dir/cli" "$rounds"
