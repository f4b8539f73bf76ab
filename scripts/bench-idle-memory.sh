#!/usr/bin/env bash
# Measures the resident memory of an idle portvakt-server (release build, zero configuration,
# SQLite), after start-up and after 200 requests to /health/ready.
# CONFIGURATION=debug measures the debug build instead (no release build needed).
set -euo pipefail
cd "$(dirname "$0")/.."
configuration=${CONFIGURATION:-release}
swift build -c "$configuration" --product portvakt-server >/dev/null
binary=$(swift build -c "$configuration" --show-bin-path)/portvakt-server
echo "configuration: $configuration"
dir=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
(cd "$dir" && PORTVAKT_PORT=$port PORTVAKT_PUBLIC_URL=http://127.0.0.1:$port PORTVAKT_LOG_LEVEL=warning exec "$binary" dev 2>"$dir/log") &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 60); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health/ready" || true)" = 200 ] && break
  sleep 0.5
done
sleep 5
rss() { awk '/VmRSS/ {print $2}' "/proc/$pid/status"; }
echo "idle after start:        $(rss) KiB RSS"
for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$port/health/ready"; done
sleep 2
echo "idle after 200 requests: $(rss) KiB RSS"
