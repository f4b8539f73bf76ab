#!/usr/bin/env bash
# Going live from an empty database with the operator's commands (issue 45, items 3 and 4), on the
# real portvakt-server binary in --dev mode against a throwaway PORTVAKT_DATA_DIR (SQLite), and
# against a throwaway PostgreSQL database when TEST_POSTGRES_URL is set. No server runs:
# `organisation create` and `list`; `members import` making the sandbox's Una (TestUsers.swift)
# org_admin of ffo (a dry run twice, writing nothing; --apply; again: no changes; the same members
# as JSON lines: no changes); a bad file (exit 65, every line named, no personnummer anywhere);
# `scim-token create` (printed once, pvscim_…), `list` and `revoke`; and the refusals' exit codes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/server.sh

# Una Utenfor as the sandbox knows her (Sources/PortvaktSandbox/Users/TestUsers.swift).
una_email=una@sandbox.portvakt.test
una_phone=+4790000011
una_personnummer=26449933086
name="Funksjonshemmedes Fellesorganisasjon"

suite="" out="" err="" code=0
work=$(mktemp -d /tmp/portvakt-going-live.XXXXXX)
trap 'rm -rf "$work"' EXIT

fail() { echo "going-live test ($suite) FAILED: $*" >&2; echo "stdout: $out" >&2; echo "stderr: $err" >&2; exit 1; }

# run ARGS…: `portvakt-server ARGS --dev` on this suite's database; sets $out, $err and $code.
run() {
  code=0
  out=$(env "${settings[@]}" "$binary" "$@" --dev 2>"$work/stderr" </dev/null) || code=$?
  err=$(cat "$work/stderr")
  printf '%s\n%s\n' "$out" "$err" >>"$work/$suite-output"
}

# expect CODE WHAT: the last command exited with CODE.
expect() { [ "$code" = "$1" ] || fail "$2: exit $code, expected $1"; echo "going-live ($suite): $2"; }
has() { grep -qF -- "$1" <<<"$2" || fail "expected '$1'"; }

# records: how many member records the SQLite database holds (nothing for PostgreSQL: the second
# dry run and `No changes.` show the same there).
records() {
  [ "$suite" = sqlite ] || { echo "-"; return; }
  python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM member_records').fetchone()[0])" "$work/$suite-data/portvakt.sqlite"
}

suite_run() {
  suite=$1; shift
  mkdir -p "$work/$suite-data"
  settings=(PORTVAKT_DATA_DIR="$work/$suite-data" PORTVAKT_LOG_LEVEL=info "$@")

  # Operator commands never change the schema (a rolling upgrade's old instances read it):
  # only migrate (and serve) do.
  run organisation list
  expect 69 "an operator command before migrate is refused (69)"
  has "portvakt-server migrate" "$err"
  run migrate
  expect 0 "migrate"
  run organisation create ffo "$name"
  expect 0 "organisation create ffo"
  has "Created organisation ffo." "$out"
  run organisation list
  expect 0 "organisation list"
  grep -Eq "^ffo  [0-9]{4}-[0-9]{2}-[0-9]{2}  $name\$" <<<"$out" || fail "organisation list does not show ffo"
  run organisation create ffo "Another"
  expect 65 "organisation create: a slug taken is refused (65)"
  has "exists already" "$err"
  run organisation create FFO "$name"
  expect 64 "organisation create: a slug against the rule is refused (64)"

  cat >"$work/ffo.csv" <<EOF
external_id,given_name,family_name,email,phone,personnummer,role
ffo-una,Una,Utenfor,$una_email,$una_phone,$una_personnummer,org_admin
EOF
  run members import --organisation ffo "$work/ffo.csv"
  expect 0 "members import (dry run)"
  has "add  external_id=ffo-una (org_admin)" "$out"
  has "Dry run: would add 1, change 0, remove 0 (nothing written). Run again with --apply to write." "$out"
  [ "$(records)" = 0 ] || [ "$(records)" = - ] || fail "the dry run wrote member records"
  if grep -q "Reading" <<<"$err"; then fail "a progress line went to a standard error that is not a terminal"; fi
  run members import --organisation ffo "$work/ffo.csv"
  expect 0 "members import (dry run again: the same, nothing was written)"
  has "would add 1," "$out"

  run members import --organisation ffo "$work/ffo.csv" --apply
  expect 0 "members import --apply"
  has "Applied: added 1, changed 0, removed 0." "$out"
  [ "$(records)" = 1 ] || [ "$(records)" = - ] || fail "--apply did not write one record"
  run members import --organisation ffo "$work/ffo.csv" --apply
  expect 0 "members import --apply again: no changes"
  [ "$out" = "No changes." ] || fail "the same file again changed something"

  printf '{"external_id":"ffo-una","given_name":"Una","family_name":"Utenfor","email":"%s","phone":"%s","personnummer":"%s","role":"org_admin"}\n' \
    "$una_email" "$una_phone" "$una_personnummer" >"$work/ffo.jsonl"
  run members import --organisation ffo "$work/ffo.jsonl"
  expect 0 "members import of the same members as JSON lines: no changes"
  [ "$out" = "No changes." ] || fail "JSON lines differ from the CSV"

  # An invalid personnummer (Una's, last digit changed), an unknown role, a repeated external id.
  cat >"$work/bad.csv" <<EOF
external_id,email,personnummer,role
ffo-1,a@example.org,${una_personnummer%?}7,peer_mentor
ffo-2,b@example.org,,boss
ffo-1,c@example.org,,peer_mentor
ffo-4,d@example.org,,coordinator
EOF
  run members import --organisation ffo "$work/bad.csv" --apply
  expect 65 "members import of a bad file: exit 65"
  grep -q "^line 2: .*personnummer" <<<"$err" || fail "line 2 (invalid personnummer) is not named"
  has "line 3: unknown role 'boss' (peer_mentor, coordinator or org_admin)" "$err"
  has "line 4: duplicate external_id: also on line 2" "$err"
  has "Nothing written" "$err"
  [ "$(records)" = 1 ] || [ "$(records)" = - ] || fail "a bad file wrote something"
  run members import --organisation ffo "$work/ffo.csv"
  [ "$out" = "No changes." ] || fail "a bad file changed the records"

  run members import --organisation nope "$work/ffo.csv"
  expect 65 "members import into an unknown organisation: exit 65"
  run members import --organisation ffo "$work/missing.csv"
  expect 64 "members import of a file that is not there: exit 64"

  run scim-token create --organisation ffo --name "Medlemsregister"
  expect 0 "scim-token create"
  token=$(grep -E '^pvscim_[A-Za-z0-9_-]{43}$' <<<"$out") || fail "no pvscim_ token printed"
  has "shown only now" "$out"
  if grep -qF -- "$token" <<<"$err"; then fail "the token reached standard error (the log)"; fi
  run scim-token create --organisation ffo --name "Medlemsregister"
  expect 65 "scim-token create: a name taken is refused"
  run scim-token list --organisation ffo
  expect 0 "scim-token list"
  has "Medlemsregister  created" "$out"
  if grep -qF -- "$token" <<<"$out"; then fail "scim-token list printed the token"; fi
  run scim-token revoke --organisation ffo --name "Medlemsregister"
  expect 0 "scim-token revoke"
  run scim-token list --organisation ffo
  has "REVOKED" "$out"
  run scim-token revoke --organisation ffo --name "Medlemsregister"
  expect 65 "scim-token revoke of a revoked token: exit 65"

  if grep -q "${una_personnummer:0:10}" "$work/$suite-output"; then fail "a personnummer was printed or logged"; fi
  echo "going-live ($suite): no personnummer printed or logged"
}

suite_run sqlite
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  database="portvakt_going_live_$$"
  url=$(new_postgres_database "$database")
  suite_run postgres DATABASE_URL="$url"
  drop_postgres_database "$database"
elif [ "${CI:-}" = "true" ]; then
  echo "going-live test: PostgreSQL is required when CI=true" >&2; exit 1
fi
echo "going-live test: passed"
