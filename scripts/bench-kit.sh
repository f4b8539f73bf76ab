#!/usr/bin/env bash
# PortvaktKit's share of the BankID order (issue 47, S3.2 and S3.5): ORDERS orders (default 100) with the BankID
# app on this device (the deep link) and as many on another device (the QR code), through the app's AuthDriver
# against the release portvakt-server on loopback with its sandbox BankID, on SQLite (WAL, synchronous=NORMAL).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/wait-for-200.sh
orders=${ORDERS:-100}
swift build -c release --product portvakt-server >/dev/null
swift build -c release --product portvakt-kit-benchmark >/dev/null
bin=$(swift build -c release --show-bin-path)
dir=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
(cd "$dir" && PORTVAKT_PORT=$port PORTVAKT_PUBLIC_URL=http://127.0.0.1:$port PORTVAKT_LOG_LEVEL=warning PORTVAKT_BANKID_ORDERS_PER_ADDRESS=100000 \
  exec "$bin/portvakt-server" dev 2>"$dir/log") &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
[ "$(wait_for_200 "http://127.0.0.1:$port/health/ready")" = 200 ] || { cat "$dir/log" >&2; exit 1; }
echo "release build, $(nproc) cores, $orders orders of each kind, $(date -u +%F)"
"$bin/portvakt-kit-benchmark" "http://127.0.0.1:$port" "$orders"
