#!/usr/bin/env bash
# The end-to-end suite: a real portvakt-server (SQLite, and PostgreSQL when
# TEST_POSTGRES_URL is set) and the `portvakt` CLI on PortvaktKit, over HTTP, through
# the seeded stories. Each check names the story criterion it proves.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/wait-for-200.sh
source scripts/lib/ports.sh
bin=$(swift build --show-bin-path)
[ -x "$bin/portvakt" ] && [ -x "$bin/portvakt-server" ] || swift build
admin_token="e2e-admin-token-$RANDOM$RANDOM"
work=$(mktemp -d /tmp/portvakt-e2e.XXXXXX)
server_pid=""
trap '[ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

start_server() {
  # The CLI talks to 127.0.0.1, so the server is named so (`dev` alone names itself localhost).
  (cd "$server_dir" && exec env PORTVAKT_PUBLIC_URL="http://127.0.0.1:$port" "${server_env[@]}" PORTVAKT_PORT="$port" PORTVAKT_SANDBOX_ADMIN_TOKEN="$admin_token" \
    PORTVAKT_BCRYPT_COST=4 "$bin/portvakt-server" dev >>"$server_dir/log" 2>&1) &
  server_pid=$!
  [ "$(wait_for_200 "http://127.0.0.1:$port/health/ready")" = 200 ] || { cat "$server_dir/log" >&2; fail "the server did not start"; }
}

stop_server() {
  kill -TERM "$server_pid"; wait "$server_pid" || true; server_pid=""
}

fail() { echo "e2e ($suite) FAILED: $*" >&2; echo "last output: $out" >&2; exit 1; }

# cli HOME ARGS…: runs `portvakt --json` as the user whose state is in HOME; sets $out and $code.
cli() {
  local home=$1; shift
  code=0
  out=$(PORTVAKT_CLI_HOME="$work/$suite-$home" PORTVAKT_SERVER="http://127.0.0.1:$port" "$bin/portvakt" "$@" --json --lang en </dev/null 2>>"$work/stderr") || code=$?
  echo "$out" >>"$work/stdout"
}

# cli_with_input INPUT HOME ARGS…: like cli, with INPUT on standard input (a typed password).
cli_with_input() {
  local input=$1 home=$2; shift 2
  code=0
  out=$(echo "$input" | PORTVAKT_CLI_HOME="$work/$suite-$home" PORTVAKT_SERVER="http://127.0.0.1:$port" "$bin/portvakt" "$@" --json --lang en 2>>"$work/stderr") || code=$?
  echo "$out" >>"$work/stdout"
}

# field PATH: a value of the last JSON output (python: dotted keys, [n] for lists).
field() { python3 -c 'import json,sys; v=json.loads(sys.argv[1] or "{}")
for part in sys.argv[2].split("."):
    v = v[int(part)] if isinstance(v, list) else v.get(part) if isinstance(v, dict) else None
print("" if v is None else (json.dumps(v) if isinstance(v, (list, dict)) else v))' "$out" "$1"; }

check() {  # check STORY DESCRIPTION EXIT [PATH=VALUE]…
  local story=$1 what=$2 want=$3; shift 3
  [ "$code" = "$want" ] || fail "$story $what: exit $code, expected $want"
  for pair in "$@"; do
    local got; got=$(field "${pair%%=*}")
    [ "$got" = "${pair#*=}" ] || fail "$story $what: ${pair%%=*} is '$got', expected '${pair#*=}'"
  done
  echo "e2e ($suite) $story: $what"
}

faults() {  # faults PROVIDER JSON-LIST
  curl -fsS -X PUT -H "Authorization: Bearer $admin_token" -H 'Content-Type: application/json' \
    -d "{\"faults\":$2}" "http://127.0.0.1:$port/sandbox/admin/faults/$1" >/dev/null
}

run_suite() {
  suite=$1; shift
  server_env=("$@")
  server_dir="$work/$suite-server"; mkdir -p "$server_dir"
  port=$(random_port)
  start_server

  # Issue 22: the server requires PAR and DPoP of portvakt-cli (the default policy), so every
  # login, refresh, unlock and revocation below is pushed and bound to the CLI's proof key.
  out=$(curl -s -X POST -d 'grant_type=refresh_token&client_id=portvakt-cli&refresh_token=e2e' "http://127.0.0.1:$port/oauth/token")
  echo "$out" | grep -q '"invalid_dpop_proof"' || fail "issue 22: a token request without a DPoP proof was not refused"
  out=$(curl -s -o /dev/null -w '%{redirect_url}' "http://127.0.0.1:$port/oauth/authorize?client_id=portvakt-cli&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcallback&response_type=code&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&state=e2e-state-22&idp_hint=vipps")
  echo "$out" | grep -q 'error=invalid_request' || fail "issue 22: an authorization request without PAR was not refused"
  echo "e2e ($suite) issue 22: the CLI's client must use PAR and DPoP (without: invalid_dpop_proof, invalid_request)"

  # S2, S4: Vipps first login, the enrolment offer accepted; S1.3 the role's home screen.
  cli kari login --provider vipps --user kari --enable-biometrics
  check S2.2 "Vipps login opens a session" 0 ok=True screen=home home_screen=peer_mentor_activities
  check S4.2 "accepting the offer enables biometric login" 0 message_id=fingerprint_enabled
  # S5: unlock with the device key; the new session says hwk + fingerprint.
  cli kari unlock --biometric pass
  check S5.2 "biometric unlock opens home" 0 ok=True screen=home
  cli kari status
  check S5.2 "the unlocked session is device-bound" 0 amr='["hwk", "fpt"]'
  check S1.3 "status names the role and home screen in words beside the ids" 0 \
    organisations.0.role_names='["Peer mentor in Norges Handikapforbund"]' organisations.0.roles='["peer_mentor"]' home_screen_name="My activities"
  text=$(PORTVAKT_CLI_HOME="$work/$suite-kari" PORTVAKT_SERVER="http://127.0.0.1:$port" "$bin/portvakt" status --lang nb </dev/null 2>&1)
  echo "$text" | grep -q "Likeperson i Norges Handikapforbund" || fail "S1.3 status does not name the role in words: $text"
  if echo "$text" | grep -q "peer_mentor"; then fail "S1.3 status shows a role id: $text"; fi
  echo "e2e ($suite) S1.3: status in Bokmål: Likeperson i Norges Handikapforbund, no ids"
  # S6: a miss, three misses, cancel.
  cli kari unlock --biometric fail,pass
  check S6.3 "one miss, then success" 0 screen=home
  cli kari unlock --biometric cancel
  check S6 "cancel keeps the unlock screen" 5 screen=unlock
  cli kari unlock --biometric lockout
  check S6.5 "OS lockout goes to the fallback at once" 5 message_id=biometric_locked_out
  cli kari unlock --biometry none
  check S13.1 "no biometric hardware says so" 5 message_id=biometrics_not_available
  # S16.2: the count of misses survives closing the app; only a login starts it over.
  cli kari unlock --biometric fail,fail
  check S16.2 "two misses, then the app is closed" 5 screen=unlock message_id=biometric_failed
  cli kari unlock --biometric fail
  check S6.3 "a third miss, after a relaunch, offers BankID or Vipps" 5 screen=biometricFallback message_id=too_many_biometric_failures actions='["other"]'
  cli kari unlock --biometric pass
  check S16.2 "the next launch falls back without a prompt" 5 screen=biometricFallback message_id=too_many_biometric_failures
  cli kari login --provider vipps --user kari
  check S16.2 "a login starts the count over" 0
  cli kari unlock --biometric pass
  check S16.2 "after the login the key unlocks again" 0 screen=home
  # S16.1: lock on return — back within five minutes, home at once; after them, the check first.
  cli kari resume --away 240 --biometric pass
  check S16.1 "back after 4 minutes: home without a new check" 0 screen=home locked=False
  cli kari resume --away 301 --biometric pass,cancel
  check S16.1 "back after 5 minutes: the biometric check comes before home" 5 screen=unlock locked=True
  cli kari resume --away 301 --biometric pass,pass
  check S16.1 "and passing it opens home" 0 screen=home locked=True

  # S12: offline — register while the server is down, unlock offline, sync once when back.
  cli kari activities list
  check S12.3 "online, the activity list (kept for offline use)" 0 offline=False
  stop_server
  cli kari status
  check S12.3 "offline, status shows what was seen last beside the offline indicator" 0 offline=True user.name="Kari Nordmann"
  cli kari activities add --kind visit --minutes 45 --note "e2e-offline-$suite"
  check S12.1 "offline registration is queued" 0 queued=True
  cli kari unlock --biometric pass
  check S12.2 "offline the key unlocks the cached session" 0 offline=True
  cli kari activities list
  check S12.3 "offline, the activity list seen last" 0 offline=True
  [ "$(field queued | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')" = 1 ] || fail "S12.3 the queued activity is not shown as waiting"
  cli kari sync
  check S12.4 "sync while offline keeps the queue" 6 waiting=1
  start_server
  cli kari sync
  check S12.4 "back online the queue is sent" 0 sent=1 waiting=0
  cli kari sync
  check S12.4 "a second sync sends nothing" 0 sent=0
  cli kari activities list
  count=$(python3 -c 'import json,sys; print(sum(a.get("note")==sys.argv[2] for a in json.loads(sys.argv[1])["activities"]))' "$out" "e2e-offline-$suite")
  [ "$count" = 1 ] || fail "S12.4 the offline activity is on the server $count times"
  echo "e2e ($suite) S12.4: the offline activity is on the server once"

  # S6.2: a changed enrolment clears the stale key and shows the method selection.
  cli kari unlock --biometric invalidate
  check S6.2 "a changed enrolment asks for BankID or Vipps" 4 screen=methodSelection message_id=biometric_enrolment_changed
  cli kari status
  check S6.2 "the session went with the stale key" 4 message_id=not_logged_in
  cli kari login --provider vipps --user kari --no-enable-biometrics
  check S6.4 "a fallback login, re-enrolment declined" 0 screen=home
  cli kari biometrics status
  check S7.3 "then settings offer to enable biometric login" 0 enabled=False biometrics="Enable biometric login"

  # S3, S1: BankID — the order with the QR code on another device, and the browser with cancel.
  cli ola login --provider bankid --bankid-on-other-device --user ola --no-enable-biometrics
  check S3 "BankID on another device (QR) logs in" 0 screen=home home_screen=coordinator_overview
  cli ola login --provider bankid --bankid-on-other-device --user ola --outcome cancel
  check S3.8 "a cancelled order returns to the login" 3 screen=methodSelection message_id=bankid_cancelled
  cli ola login --provider bankid --user ola --outcome cancel
  check S1.4 "cancel at BankID is quiet" 3 message_id=bankid_cancelled
  cli una login --provider vipps --user una
  check S10.1 "someone not registered is told so" 3 message_id=not_registered
  # S15: Lise's record has only her email. She claims it with the code mailed there, which she
  # types in (the script reads it from the sandbox's mailbox and writes it to the CLI's stdin).
  mkfifo "$work/$suite-lise.fifo"
  (PORTVAKT_CLI_HOME="$work/$suite-lise" PORTVAKT_SERVER="http://127.0.0.1:$port" "$bin/portvakt" login --provider bankid --user lise \
    --membership-email lise@sandbox.portvakt.test --no-enable-biometrics --json --lang en <"$work/$suite-lise.fifo" >"$work/$suite-lise.out" 2>>"$work/stderr"
   echo $? >"$work/$suite-lise.exit") &
  exec 9>"$work/$suite-lise.fifo"
  mailed=""
  for _ in $(seq 1 100); do
    mailed=$(curl -s "http://127.0.0.1:$port/sandbox/mailbox" | python3 -c 'import re,sys
for message in sys.stdin.read().split("<li>")[1:]:
    found = re.search(r"<p>(\d{6})</p>", message)
    if "lise@sandbox.portvakt.test" in message and found: print(found.group(1)); break')
    [ -n "$mailed" ] && break; sleep 0.2
  done
  [ -n "$mailed" ] || fail "S15.2 no code was mailed to Lise"
  echo "$mailed" >&9; exec 9>&-; wait $!
  out=$(cat "$work/$suite-lise.out"); code=$(cat "$work/$suite-lise.exit"); echo "$out" >>"$work/stdout"
  check S15.2 "Lise claims her membership with the code from her email" 0 screen=home home_screen=peer_mentor_activities
  cli lise status
  check S15.2 "her HLF membership is hers" 0 organisations.0.roles='["peer_mentor"]'

  # S7: enable in settings, re-enrol, disable. A declined offer is not shown at all.
  before=$(wc -l <"$work/stderr")
  cli ola login --provider bankid --user ola --no-enable-biometrics
  if tail -n +$((before + 1)) "$work/stderr" | grep -q "Enable biometric login"; then fail "S4 --no-enable-biometrics still printed the enrolment offer"; fi
  echo "e2e ($suite) S4: --no-enable-biometrics prints no enrolment offer"
  cli ola biometrics enable
  check S7.3 "enabling in settings" 0 enabled=True message_id=fingerprint_enabled
  cli ola biometrics reenroll
  check S7.4 "re-enrolling replaces the key" 0 enabled=True
  # S11: step-up before an expense claim; cancel keeps it back.
  cli ola step-up expenses.submit --amount-ore 12300 --description "e2e taxi" --biometric cancel
  check S11.3 "a cancelled step-up submits nothing" 5 ok=False
  cli ola step-up expenses.submit --amount-ore 12300 --description "e2e taxi" --biometric pass
  check S11.4 "the expense claim after step-up" 0 ok=True
  cli ola step-up contacts.read --biometric pass
  check S11.2 "contact details after step-up" 0 ok=True
  cli ola biometrics disable
  check S7.2 "disabling removes the key at once" 0 enabled=False
  cli ola status
  check S7.2 "later launches go to the method selection" 4 message_id=not_logged_in

  # S1.5: a provider outage names the other provider.
  faults vipps '["outage"]'
  cli kari login --provider vipps --user kari
  check S1.5 "a Vipps outage offers BankID" 3 message_id=vipps_unavailable
  faults vipps '[]'
  # S9.5: Vipps without nin: the login succeeds and home says once that the number was not retrieved.
  faults vipps '["nin_missing"]'
  cli per login --provider vipps --user per --no-enable-biometrics
  check S9.5 "home tells that the national identity number was not retrieved" 0 screen=home message_id=personnummer_not_retrieved
  faults vipps '[]'
  cli per status
  check S9.5 "told once" 0 notices='[]'
  # S2.4: a failed exchange offers "Try again" first; trying again starts over (a new PKCE pair).
  faults vipps '["expired_code"]'
  cli kari login --provider vipps --user kari
  check S2.4 "a failed Vipps exchange offers Try again first" 3 message_id=login_failed actions.0=retry
  faults vipps '[]'
  cli kari login --provider vipps --user kari --no-enable-biometrics
  check S2.4 "a new login after the failure starts over and logs in" 0 screen=home

  # S14: email and password — one message for a wrong password, then in. Ingrid's record carries
  # her number, so her account is made by her BankID login first (issue 58); the operator then adds the password.
  cli ingrid-bankid login --provider bankid --user ingrid --no-enable-biometrics
  [ "$code" = 0 ] || fail "Ingrid's BankID login, which makes the account her password is set for: exit $code"
  (cd "$server_dir" && echo "e2e-password-123" | env "${server_env[@]}" "$bin/portvakt-server" set-password --dev --email ingrid@sandbox.portvakt.test >/dev/null)
  out=$(echo "not-the-password" | PORTVAKT_CLI_HOME="$work/$suite-ingrid" PORTVAKT_SERVER="http://127.0.0.1:$port" "$bin/portvakt" login --provider password --email ingrid@sandbox.portvakt.test --json --lang en 2>>"$work/stderr") && code=0 || code=$?
  check S14.2 "a wrong password gets one message" 3 message_id=wrong_email_or_password
  out=$(echo "e2e-password-123" | PORTVAKT_CLI_HOME="$work/$suite-ingrid" PORTVAKT_SERVER="http://127.0.0.1:$port" "$bin/portvakt" login --provider password --email ingrid@sandbox.portvakt.test --no-enable-biometrics --json --lang en 2>>"$work/stderr") && code=0 || code=$?
  check S14.1 "email and password log in" 0 screen=home home_screen=organisation_admin
  # S11.3: a phone without biometrics confirms a step-up with the password, typed again.
  cli ingrid step-up contacts.read --biometry none
  check S11.3 "without biometrics and without a password typed, nothing is shown" 5 ok=False actions='["submit-password", "back"]'
  cli_with_input "not-the-password" ingrid step-up contacts.read --biometry none --password
  check S11.3 "a wrong password at the step-up shows nothing" 5 ok=False message_id=wrong_password
  cli_with_input "e2e-password-123" ingrid step-up contacts.read --biometry none --password
  check S11.3 "the password opens the contact details when the phone has no biometrics" 0 ok=True

  # Issue 61 item 12: a member signed in with the password turns on biometric login; the key is
  # password-level, its unlock opens what the password would and nothing BankID or Vipps must;
  # her next BankID login raises it.
  out=$(echo "e2e-password-123" | PORTVAKT_CLI_HOME="$work/$suite-ingrid" PORTVAKT_SERVER="http://127.0.0.1:$port" "$bin/portvakt" login --provider password --email ingrid@sandbox.portvakt.test --enable-biometrics --json --lang en 2>>"$work/stderr") && code=0 || code=$?
  check S4.2 "a password login turns on biometric login" 0 screen=home message_id=fingerprint_enabled
  cli ingrid devices list
  check S4.2 "the key carries the password's level" 0 devices.0.assurance=password
  cli ingrid unlock --biometric pass
  check S5.2 "the password-level key unlocks" 0 screen=home
  cli ingrid step-up contacts.read --biometric pass
  check S11.2 "it confirms what the password would" 0 ok=True
  cli ingrid step-up personnummer.read --biometric pass
  check S11.3 "it does not open what needs BankID or Vipps" 5 ok=False message_id=fresh_login_required
  cli ingrid login --provider bankid --user ingrid --no-enable-biometrics
  check S6.4 "a BankID login on the phone" 0 screen=home
  cli ingrid devices list
  check S4.2 "raises the key to BankID's level" 0 devices.0.assurance=eid

  # S8.3: the device is revoked elsewhere, so the session it unlocked ends.
  cli kari login --provider vipps --user kari --enable-biometrics
  cli kari unlock --biometric pass
  cli kari devices list
  device=$(python3 -c 'import json,sys; print([d["id"] for d in json.loads(sys.argv[1])["devices"] if d["current"]][0])' "$out")
  cli kari devices revoke "$device"
  check S8.3 "revoking the device" 0 this_device=True
  cli kari status
  check S8.3 "an ended session says so" 4 message_id=session_expired

  # Logout ends the session at the server: a copy of the phone's storage taken before it (its
  # sealed refresh token and proof key) is refused there afterwards.
  cli ola login --provider vipps --user ola --no-enable-biometrics
  cp -a "$work/$suite-ola" "$work/$suite-ola-copy"
  cli ola logout
  check logout "logging out" 0 ok=True revoked_at_server=True revocations_pending=0
  cli ola status
  check logout "after logout nothing is left" 4 message_id=not_logged_in
  cli ola-copy status
  check logout "the server refuses the session a copy taken before the logout holds" 4 message_id=session_expired
  # Without a network the logout ends the session on the device, says the server has not heard
  # yet, and sends the revocation at the next chance.
  cli ola login --provider vipps --user ola --no-enable-biometrics
  rm -rf "$work/$suite-ola-copy"; cp -a "$work/$suite-ola" "$work/$suite-ola-copy"
  stop_server
  cli ola logout
  check logout "a logout without the server ends the session here and says the server has not heard" 0 \
    ok=True revoked_at_server=False revocations_pending=1
  start_server
  cli ola logout
  check logout "the waiting revocation is sent once the server is back" 0 revoked_at_server=True revocations_pending=0
  cli ola-copy status
  check logout "the server then refuses the session logged out offline" 4 message_id=session_expired

  # S16.3: a session known to have ended goes to the login before anything is tried, with the
  # method used last first. The server gives sessions 20 seconds, then is away: offline, an app
  # that did not know would open the cached session.
  stop_server
  server_env+=(PORTVAKT_SESSION_ABSOLUTE_SECONDS=20)
  start_server
  cli nora login --provider vipps --user nora --no-enable-biometrics
  check S16.3 "a login whose session lasts 20 seconds" 0 screen=home
  sleep 21
  stop_server
  cli nora unlock
  check S16.3 "an ended session is known before anything is tried, the method used last first" 4 \
    screen=methodSelection message_id=session_expired actions.0=vipps
  start_server

  # Nothing secret on the screen or on disk in the clear.
  if grep -Eq 'eyJ[A-Za-z0-9_-]{10,}|12438510085|04917912322|13528021934' "$work/stdout" "$work/stderr"; then
    fail "a token or a personnummer was printed"
  fi
  if grep -rqa 'eyJ' "$work/$suite-kari"; then fail "a token is stored unencrypted"; fi
  bad=$(find "$work/$suite-kari" -type f ! -perm 600 | head -1)
  [ -z "$bad" ] || fail "$bad is readable by others"
  echo "e2e ($suite): no token or personnummer printed; stored files sealed and 0600"
  if grep -Eq '12438510085|04917912322|13528021934' "$server_dir/log"; then fail "the server logged a personnummer"; fi
  stop_server
}

run_suite sqlite PORTVAKT_LOG_LEVEL=info
if [ -n "${TEST_POSTGRES_URL:-}" ]; then
  database="portvakt_e2e_$RANDOM"
  psql=${TEST_PG_BINDIR:+$TEST_PG_BINDIR/}psql
  "$psql" "$TEST_POSTGRES_URL" -qc "CREATE DATABASE $database" >/dev/null
  run_suite postgres DATABASE_URL="$(echo "$TEST_POSTGRES_URL" | sed "s#/postgres?#/$database?#")" PORTVAKT_LOG_LEVEL=info
elif [ "${CI:-}" = "true" ]; then
  echo "e2e: PostgreSQL is required when CI=true" >&2; exit 1
fi
echo "e2e: all stories passed"
