#!/usr/bin/env bash
# A rolling upgrade with the previous release's own server (issue 60 item 5; docs/operations.md,
# "Upgrades"): the previous release serves on PostgreSQL; the new release migrates the database
# while it runs; then both serve side by side, and each answers a BankID login (through its
# embedded sandbox) and refreshes a session the other began, and the session begun before the
# migration still refreshes. Run it before tagging a release, with the previous release's tag:
#
#   eval "$(scripts/start-postgres.sh)"; scripts/upgrade-test.sh v1.0.0
#
# The previous release is built from git in a worktree of its own under .build/releases (a clean
# debug build the first time, minutes; kept for the next run).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh
previous=${1:?usage: scripts/upgrade-test.sh PREVIOUS_RELEASE (a git tag or commit)}
[ -n "${TEST_POSTGRES_URL:-}" ] || { echo "upgrade test: needs TEST_POSTGRES_URL (scripts/start-postgres.sh)" >&2; exit 1; }
swift build --product portvakt-server >/dev/null  # this checkout's server, as it is now
new_binary=$binary

work=$(mktemp -d /tmp/portvakt-upgrade.XXXXXX)
old_pid="" restarted_pid="" new_pid="" database="portvakt_upgrade_$RANDOM$RANDOM"
cleanup() {
  for pid in "$old_pid" "$restarted_pid" "$new_pid"; do [ -n "$pid" ] && kill -TERM "$pid" 2>/dev/null; done; wait 2>/dev/null || true
  drop_postgres_database "$database" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "upgrade test FAILED: $*" >&2; for log in "$work"/old/log "$work"/new/log; do [ -f "$log" ] && tail -15 "$log" >&2; done; exit 1; }

commit=$(git rev-parse "$previous^{commit}") || fail "$previous is not a commit here"
tree=".build/releases/$commit"
git worktree prune  # a tree whose folder was deleted with .build
[ -d "$tree" ] || git worktree add --detach "$tree" "$commit" >/dev/null
echo "upgrade test: building $previous (${commit:0:12}) in $tree"
(cd "$tree" && swift build --product portvakt-server >"$work/previous-build.log" 2>&1) || { tail -20 "$work/previous-build.log" >&2; fail "$previous did not build"; }
old_binary="$(cd "$tree" && swift build --show-bin-path)/portvakt-server"
echo "upgrade test: previous $("$old_binary" --version), new $("$new_binary" --version)"

# A contract step between the two releases (Migration.swift's `kind: .contract`, newer than the
# previous release's newest migration) means the previous release's instances stop first: then
# the test checks that it refuses the new schema (exit 69) and that the new release carries on the
# sessions it began, instead of the two serving side by side.
previous_newest=$(git show "$commit:Sources/PortvaktStorage/Migrations/Migration.swift" | grep -oE 'version: [0-9]+' | grep -oE '[0-9]+' | sort -n | tail -1)
contracts=$(grep -E 'kind: \.contract' Sources/PortvaktStorage/Migrations/Migration.swift | grep -oE 'version: [0-9]+' | grep -oE '[0-9]+' \
  | awk -v newest="$previous_newest" '$1 > newest' | paste -sd, -)

url=$(new_postgres_database "$database")
# One database, one set of keys: what instances of two releases share.
shared=(DATABASE_URL="$url" PORTVAKT_ENCRYPTION_KEYS="k1=$(openssl rand -base64 32)" PORTVAKT_INDEX_KEY="$(openssl rand -base64 32)"
        PORTVAKT_LEGACY_CLIENTS=no.portvakt.app PORTVAKT_BCRYPT_COST=4 PORTVAKT_LOG_LEVEL=warning)
old_port=$(random_port) restarted_port=$(random_port) new_port=$(random_port)
mkdir -p "$work/old" "$work/restarted" "$work/new"

# The previous release, serving.
binary=$old_binary
start_server "$work/old" "$old_port" dev "${shared[@]}" || fail "the previous release did not start"
old_pid=$server_pid
before=$(python3 -c 'import sys; sys.path.insert(0, "scripts/lib"); import sandbox_login as s; print(s.login(sys.argv[1], "ola", "bankid")["refresh_token"])' "http://127.0.0.1:$old_port") \
  || fail "the previous release did not answer a login"

if [ -n "$contracts" ]; then
  echo "upgrade test: migration(s) $contracts contract: the previous release stops before the migration"
  kill -TERM "$old_pid"; wait "$old_pid" 2>/dev/null || true; old_pid=""
  (env "${shared[@]}" PORTVAKT_DATA_DIR="$work/new" "$new_binary" migrate --dev >"$work/migrate.log" 2>&1) || { cat "$work/migrate.log" >&2; fail "the new release did not migrate"; }
  binary=$new_binary
  start_server "$work/new" "$new_port" dev "${shared[@]}" || fail "the new release did not start"
  new_pid=$server_pid
  status=0
  (env "${shared[@]}" PORTVAKT_DATA_DIR="$work/restarted" "$old_binary" migrate --dev >"$work/restarted.log" 2>&1) || status=$?
  [ "$status" = 69 ] || { cat "$work/restarted.log" >&2; fail "the previous release answered the contracted schema with exit $status, not 69"; }
  echo "upgrade test: the previous release refuses the contracted schema (exit 69)"
  python3 - "http://127.0.0.1:$new_port" "$before" <<'PY' || fail "a login or a refresh was refused"
import json, sys
sys.path.insert(0, "scripts/lib")
import sandbox_login as s
new, before = sys.argv[1:3]
status, _, body = s.call(f"{new}/oauth/token", {"grant_type": "refresh_token", "client_id": "no.portvakt.app", "refresh_token": before})
assert status == 200, f"the session begun on the previous release: {status} {body[:200]}"
print("upgrade test: the new release refreshes the session begun on the previous one")
assert s.login(new, "ola", "bankid")["refresh_token"]
print("upgrade test: the new release answers a login")
PY
  echo "upgrade test passed: $previous, stopped, then $(git rev-parse --short HEAD) on one PostgreSQL"
  exit 0
fi

# The new release migrates while the previous one serves, then serves beside it.
(env "${shared[@]}" PORTVAKT_DATA_DIR="$work/new" "$new_binary" migrate --dev >"$work/migrate.log" 2>&1) || { cat "$work/migrate.log" >&2; fail "the new release did not migrate"; }
echo "upgrade test: new release migrated: $(tail -1 "$work/migrate.log")"
binary=$new_binary
start_server "$work/new" "$new_port" dev "${shared[@]}" || fail "the new release did not start"
new_pid=$server_pid
curl -sf "http://127.0.0.1:$old_port/health/ready" >/dev/null || fail "the previous release is not ready on the new schema"
# An instance of the previous release (re)started during the rollout, on the new schema.
binary=$old_binary
start_server "$work/restarted" "$restarted_port" dev "${shared[@]}" || fail "the previous release does not start on the new schema"
restarted_pid=$server_pid

python3 - "http://127.0.0.1:$old_port" "http://127.0.0.1:$new_port" "$before" "http://127.0.0.1:$restarted_port" <<'PY' || fail "a login or a refresh was refused"
import json, sys
sys.path.insert(0, "scripts/lib")
import sandbox_login as s
old, new, before, restarted = sys.argv[1:5]

def refresh(base, token, what):
    status, _, body = s.call(f"{base}/oauth/token", {"grant_type": "refresh_token", "client_id": "no.portvakt.app", "refresh_token": token})
    assert status == 200, f"{what}: {status} {body[:200]}"
    answer = json.loads(body)
    assert answer["access_token"] and answer["refresh_token"] != token, what
    print(f"upgrade test: {what}")
    return answer["refresh_token"]

refresh(new, before, "the new release refreshes the session begun on the previous one before the migration")
at_old = s.login(old, "ola", "bankid")["refresh_token"]
print("upgrade test: the previous release answers a login on the new schema")
refresh(new, at_old, "the new release refreshes it")
at_new = s.login(new, "ola", "bankid")["refresh_token"]
print("upgrade test: the new release answers a login")
refresh(old, refresh(old, at_new, "the previous release refreshes it"), "and again, on its own rotation")
at_restarted = s.login(restarted, "ola", "bankid")["refresh_token"]
print("upgrade test: a previous-release instance started after the migration answers a login")
refresh(new, at_restarted, "the new release refreshes it")
PY
echo "upgrade test passed: $previous beside $(git rev-parse --short HEAD) on one PostgreSQL"
