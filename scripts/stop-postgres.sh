#!/usr/bin/env bash
# Stops and removes the PostgreSQL that scripts/start-postgres.sh started.
set -u
[ -n "${PORTVAKT_PG_DIR:-}" ] && [ -d "$PORTVAKT_PG_DIR" ] || exit 0
run=()
[ "$(id -u)" = 0 ] && run=(runuser -u postgres --)
"${run[@]}" "$PORTVAKT_PG_BINDIR/pg_ctl" -D "$PORTVAKT_PG_DIR/data" -m fast -w stop >/dev/null 2>&1
rm -rf "$PORTVAKT_PG_DIR"
