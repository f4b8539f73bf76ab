#!/usr/bin/env bash
# Runs every test: unit and storage tests on SQLite and on a throwaway PostgreSQL, PortvaktKit's DocC catalog, a smoke test of
# the real server binary on both databases, PostgreSQL over TLS, the operator's first start, SIGTERM under load, the deployment files, schemathesis against /openapi.json, the web portal in Chromium with axe-core, a soak of unread request bodies (sockets and memory back
# to baseline), an independent OIDC client (Python Authlib)
# against its sandbox, spans over OTLP to a local receiver (opentelemetry-proto), an independent SCIM client (Python scim2-client) against /scim/v2, Apache's mod_auth_openidc at its defaults as a web relying party, and the end-to-end suite of the `portvakt` CLI on both databases. When CI=true, a missing PostgreSQL or Authlib fails.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${TEST_POSTGRES_URL:-}" ]; then
  if started=$(scripts/start-postgres.sh); then
    eval "$started"
    started_postgres=1
  elif [ "${CI:-}" = "true" ]; then
    echo "test.sh: PostgreSQL is required when CI=true" >&2
    exit 1
  else
    echo "test.sh: WARNING: no PostgreSQL; storage tests run on SQLite only" >&2
  fi
fi

# The SMTP client's tests (Tests/PortvaktServerTests/Mail) talk to a real server, aiosmtpd
# (scripts/smtp-test-server.py); without it they skip, and fail when CI=true.
python3 -c "import aiosmtpd" 2>/dev/null \
  || PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet -r scripts/smtp/requirements.txt \
  || echo "test.sh: WARNING: no aiosmtpd (PyPI); the SMTP tests skip" >&2

# Each stage has a deadline, so a test that hangs fails the run with its stage's name instead
# of holding CI until its own limit. `timeout` runs a stage in a process group of its own, so an
# interrupt of this script is passed on to it.
within() {
  local minutes=$1; shift
  local started=$SECONDS status=0 pid
  if second_lane_failed; then
    echo "test.sh: $* not started: the second lane failed" >&2
    return 1
  fi
  timeout --kill-after=30 "$((minutes * 60))" "$@" &
  pid=$!
  trap 'stop_stage "$pid"; echo "$* (interrupted)" >>"$failed_stages"; exit 130' INT TERM
  wait "$pid" || status=$?
  trap - INT TERM
  if [ "$status" -ne 0 ] && [ $((SECONDS - started)) -ge $((minutes * 60)) ]; then
    echo "test.sh: $* did not finish within $minutes minutes" >&2
  fi
  stage_time "$((SECONDS - started)) s  $*"
  [ "$status" -eq 0 ] || echo "$*" >>"$failed_stages"
  return "$status"
}

# An interrupted stage's process group (its servers too) is asked to stop, given 10 s, then killed.
stop_stage() {
  kill -TERM -- "-$1" 2>/dev/null || return 0
  for _ in $(seq 1 20); do
    kill -0 -- "-$1" 2>/dev/null || return 0
    sleep 0.5
  done
  kill -KILL -- "-$1" 2>/dev/null || true
}

# What each stage cost and which failed, printed at the end (docs/testing.md keeps the figures).
# Kept in files, so the stages of the second lane (below) are counted too.
stage_times=.build/stage-times.txt
failed_stages=.build/failed-stages.txt
stage_time() { mkdir -p .build; echo "$1" >>"$stage_times"; }
print_stage_times() {
  echo "test.sh: seconds per stage"
  sed 's/^/  /' "$stage_times" 2>/dev/null || true
}
# CI shows only the end of the output, so a failed run names what failed again, last.
print_failures() {
  if [ -f .build/test-output.txt ]; then
    local failures
    failures=$(sed 's/\x1b\[[0-9;]*m//g' .build/test-output.txt \
      | grep -E '^✘ |error: |Expectation failed|recorded an issue|Fatal error|Test Case .* failed' | head -40) || true
    if [ -n "$failures" ]; then
      echo "test.sh: what swift test reported as failing"
      printf '%s\n' "$failures"
    fi
  fi
  if [ -s "$failed_stages" ]; then
    echo "test.sh: FAILED: $(paste -sd';' "$failed_stages" | sed 's/;/; /g')"
  fi
}

# The second lane: stages that mostly wait (interop waits 60 s for a pushed request to expire, e2e
# 21 s per database for a session's end) or keep one core busy (the fuzzer) run beside the others,
# from after the shutdown test, whose deadline under load they would share. Its servers take ports
# from 10000 (the others' from 20000; both below the kernel's ports for outgoing connections, from
# 32768). Its output is printed when it ends (the last 40 lines when it failed); a failure in it
# fails the run and starts no further stage.
second_lane_pid=""
second_lane_log=.build/second-lane.txt
second_lane_status=.build/second-lane-status.txt
# (Its stages are joined by && because `set -e` does not hold inside a command tested by `||`.)
second_lane() {
  within 10 scripts/interop-test.sh &&
    # Apache's mod_auth_openidc at its defaults and a small relying party (issue 59).
    within 5 scripts/relying-party-test.sh &&
    # The WebAuthn CBOR decoder under libFuzzer for a bounded time (a crash fails the run).
    FUZZ_SECONDS=${FUZZ_SECONDS:-60} within 5 scripts/fuzz-cbor.sh &&
    within 15 scripts/e2e-test.sh
}
start_second_lane() {
  { lane_status=0; (TEST_PORTS=10000 second_lane) || lane_status=$?; echo "$lane_status" >"$second_lane_status"; } >"$second_lane_log" 2>&1 &
  second_lane_pid=$!
}
second_lane_failed() {
  [ -s "$second_lane_status" ] && [ "$(cat "$second_lane_status")" != 0 ]
}
stop_second_lane() {
  [ -n "$second_lane_pid" ] || return 0
  pkill -TERM -P "$second_lane_pid" 2>/dev/null || true
  wait "$second_lane_pid" 2>/dev/null || true
  if second_lane_failed; then
    echo "test.sh: the second lane (interop, fuzz, e2e) failed; the last of what it printed:"
    tail -40 "$second_lane_log"
  else
    echo "test.sh: the second lane (interop, fuzz, e2e) was stopped; its output is in $second_lane_log"
  fi
}
trap 'stop_second_lane; print_stage_times; print_failures; if [ -n "${started_postgres:-}" ]; then scripts/stop-postgres.sh; fi' EXIT

rm -f .build/test-output.txt "$stage_times" "$failed_stages" "$second_lane_log" "$second_lane_status"
started=$SECONDS
swift build --build-tests
stage_time "$((SECONDS - started)) s  swift build --build-tests"
within 40 swift test --no-parallel 2>&1 | tee .build/test-output.txt
grep -E "Test run with [0-9]+ tests" .build/test-output.txt | tail -1

within 10 scripts/shutdown-test.sh
start_second_lane
# PortvaktKit's DocC catalog builds without a warning (issue 47).
within 10 scripts/docs-check.sh
# An app that depends on PortvaktKit alone resolves none of the server's packages (issue 61 item 2).
within 5 scripts/kit-dependencies.sh
within 10 scripts/smoke-test.sh
within 10 scripts/going-live-test.sh
# DATABASE_URL as libpq reads it, against a PostgreSQL with ssl=on (issue 60).
within 5 scripts/postgres-tls-test.sh
# docs/operations.md's "First start", step by step in production on PostgreSQL (issue 60).
within 5 scripts/first-start-test.sh
within 10 scripts/deploy-check.sh
within 10 scripts/openapi-test.sh
within 15 scripts/browser-test.sh
within 10 scripts/soak-test.sh
within 5 scripts/tracing-test.sh
within 10 scripts/scim-interop-test.sh

lane_exit=0
wait "$second_lane_pid" || lane_exit=$?
second_lane_pid=""
echo "test.sh: the second lane (interop, fuzz, e2e):"
cat "$second_lane_log"
# Its status file is written by the lane itself (its failed stage is named already); a lane that
# died before writing it failed too.
lane_result=$(cat "$second_lane_status" 2>/dev/null || echo none)
if [ "$lane_exit" -ne 0 ] || [ "$lane_result" != 0 ]; then
  [ "$lane_result" != none ] || echo "the second lane (it ended before saying how)" >>"$failed_stages"
  exit 1
fi
