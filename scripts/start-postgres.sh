#!/usr/bin/env bash
# Starts a throwaway PostgreSQL on 127.0.0.1 for the tests and prints its URL.
# Usage: eval "$(scripts/start-postgres.sh)"  → sets TEST_POSTGRES_URL and TEST_PG_DIR.
# Stop it with scripts/stop-postgres.sh. initdb refuses root, so the cluster runs as `postgres`.
# Tests run with fsync off; TEST_PG_FSYNC=on makes commits durable as in production (benchmarks).
set -euo pipefail

bindir=""
if command -v pg_config >/dev/null 2>&1 && [ -x "$(pg_config --bindir)/initdb" ]; then
  bindir=$(pg_config --bindir)
else
  for candidate in /usr/lib/postgresql/*/bin; do
    [ -x "$candidate/initdb" ] && bindir=$candidate
  done
fi
if [ -z "$bindir" ]; then
  echo "start-postgres: no PostgreSQL server found (apt-get install postgresql)" >&2
  exit 1
fi

port=${TEST_PG_PORT:-54329}
# Take the next free port when another cluster (or anything else) listens there already.
source "$(dirname "$0")/lib/ports.sh"
while port_in_use "$port"; do port=$((port + 1)); done
dir=$(mktemp -d /tmp/portvakt-pg.XXXXXX)
run=()
if [ "$(id -u)" = 0 ]; then
  chown postgres "$dir"
  run=(runuser -u postgres --)
fi
"${run[@]}" "$bindir/initdb" -D "$dir/data" --auth=trust -N -U postgres >"$dir/initdb.log" 2>&1 \
  || { cat "$dir/initdb.log" >&2; exit 1; }
"${run[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=${TEST_PG_FSYNC:-off} -c max_connections=200" start >/dev/null \
  || { cat "$dir/server.log" >&2; exit 1; }

echo "export TEST_POSTGRES_URL='postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable'"
echo "export TEST_PG_DIR='$dir' TEST_PG_BINDIR='$bindir'"
