#!/usr/bin/env bash
# Stops and removes the PostgreSQL that scripts/start-postgres.sh started.
set -u
[ -n "${TEST_PG_DIR:-}" ] && [ -d "$TEST_PG_DIR" ] || exit 0
run=()
[ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
"${run[@]}" "$TEST_PG_BINDIR/pg_ctl" -D "$TEST_PG_DIR/data" -m fast -w stop >/dev/null 2>&1
rm -rf "$TEST_PG_DIR"
