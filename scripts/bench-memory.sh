#!/usr/bin/env bash
# The resident memory of a release portvakt-server (SQLite, WAL, synchronous=NORMAL): idle after
# start, then with 100,000 live sessions in its database while refresh rotations (concurrency 16)
# and biometric unlocks (concurrency 4) run for SOAK_SECONDS (default 600), printing RSS each minute.
# SESSIONS=n seeds another number of sessions.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/wait-for-200.sh
soak=${SOAK_SECONDS:-600}
sessions=${SESSIONS:-100000}
swift build -c release --product portvakt-server >/dev/null
swift build -c release --product portvakt-load >/dev/null
bin=$(swift build -c release --show-bin-path)
dir=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
pid=
stop() { [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; pid=; }
trap 'stop; jobs -p | xargs -r kill 2>/dev/null; rm -rf "$dir"' EXIT
start() {
  (cd "$dir" && PORTVAKT_PORT=$port PORTVAKT_PUBLIC_URL=http://127.0.0.1:$port PORTVAKT_LOG_LEVEL=warning PORTVAKT_LEGACY_CLIENTS=no.portvakt.app exec "$bin/portvakt-server" dev 2>>"$dir/log") &
  pid=$!
  [ "$(wait_for_200 "http://127.0.0.1:$port/health/ready")" = 200 ] || { cat "$dir/log" >&2; exit 1; }
}
rss_mb() { awk '/VmRSS/ { printf "%.1f", $2 / 1024 }' "/proc/$pid/status"; }

start
sleep 5
echo "idle after start (empty database): $(rss_mb) MB RSS"
# The test people become users at their first login.
for user in kari ola ingrid per; do
  "$bin/portvakt-load" --url "http://127.0.0.1:$port" --concurrency 1 --duration 1 --logins 1 --user "$user" >/dev/null
done
stop

# Live sessions of the sandbox's test people, each with its current refresh token, valid for a day.
python3 - "$dir/.portvakt/portvakt.sqlite" "$sessions" <<'EOF'
import os, sqlite3, sys, time, uuid
db = sqlite3.connect(sys.argv[1])
users = [row[0] for row in db.execute("SELECT id FROM users")]
now = int(time.time() * 1000)
day = 86_400_000
rows = []
for i in range(int(sys.argv[2])):
    session = str(uuid.uuid4())
    rows.append((session, users[i % len(users)]))
db.executemany(
    "INSERT INTO sessions (id, user_id, client_id, amr, acr, auth_time, created_at, idle_expires_at, absolute_expires_at)"
    f" VALUES (?, ?, 'no.portvakt.app', 'BID', 'urn:bankid:bid;LOA=4', {now}, {now}, {now + day}, {now + day})", rows)
db.executemany(
    f"INSERT INTO refresh_tokens (id, session_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, {now}, {now + day})",
    [(str(uuid.uuid4()), session, os.urandom(32)) for session, _ in rows])
db.commit()
print(f"seeded {len(rows)} live sessions for {len(users)} test people")
EOF

start
sleep 5
echo "idle after start ($sessions live sessions): $(rss_mb) MB RSS"
"$bin/portvakt-load" --url "http://127.0.0.1:$port" --concurrency 16 --duration "$soak" --logins 16 >"$dir/rotations.txt" 2>&1 &
rotations=$!
"$bin/portvakt-load" --url "http://127.0.0.1:$port" --concurrency 4 --duration "$soak" --unlocks 4 --unlocks-only >"$dir/unlocks.txt" 2>&1 &
unlocks=$!
for minute in $(seq 1 $(( (soak + 59) / 60 ))); do
  sleep 60
  kill -0 "$pid" 2>/dev/null || { echo "the server stopped" >&2; cat "$dir/log" >&2; exit 1; }
  echo "minute $minute under load: $(rss_mb) MB RSS"
done
wait $rotations || { echo "the rotations failed:" >&2; cat "$dir/rotations.txt" >&2; exit 1; }
wait $unlocks || { echo "the unlocks failed:" >&2; cat "$dir/unlocks.txt" >&2; exit 1; }
grep "^refresh-token rotations" "$dir/rotations.txt"
grep "^biometric unlocks (" "$dir/unlocks.txt"
sleep 5
echo "idle after the load: $(rss_mb) MB RSS"
